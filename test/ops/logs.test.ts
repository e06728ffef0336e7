// Logs as an operator reads them: in the terminal chat, every line in the log file and only warnings and errors on
// the screen, one readable line each, secrets masked in both; readable (pino-pretty) text when asked; JSON otherwise.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, oneLine } from '../../src/log.js';
import { tempDir } from './helpers.js';

describe('the terminal chat log (logFile)', () => {
  it('writes every line to the file as JSON, and only warnings and errors to the screen, one line each', () => {
    const file = join(tempDir(), 'logs', 'manzil.log');
    const screen: string[] = [];
    const log = createLogger({
      level: 'debug',
      logFile: file,
      screen: (l) => screen.push(l),
      secrets: ['sk-live-secret-42'],
    });
    log.debug('details', { n: 1 });
    log.info('command answered', { req: 'abc123', ms: 12 });
    log.warn('call failed', { operation: 'search-rent', status: 503, key: 'sk-live-secret-42' });
    log.error('handler crashed', { error: new TypeError('cannot read sk-live-secret-42\nsecond line') });

    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['details', 'command answered', 'call failed', 'handler crashed']);
    expect(lines[1]).toMatchObject({ level: 'info', req: 'abc123' });
    expect(JSON.stringify(lines)).not.toContain('sk-live-secret-42');
    expect((lines[3]!.error as { stack: string }).stack).toMatch(/TypeError/); // the stack stays in the file

    expect(screen).toHaveLength(2);
    expect(screen[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN call failed \{"operation":"search-rent","status":503,"key":"\*\*\*"\}$/,
    );
    expect(screen[1]).toMatch(/^\d\d:\d\d:\d\d ERROR handler crashed \{"error":"cannot read \*\*\*\\nsecond line"\}$/);
    expect(screen.every((l) => !l.includes('\n'))).toBe(true);
    expect(screen.join('\n')).not.toContain('sk-live-secret-42');
  });

  it('says so on the screen when the file cannot be written, and keeps warnings there', () => {
    const screen: string[] = [];
    // A file where the log's folder should be: the folder cannot be made (as root too, where permissions do not bite).
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, '');
    const log = createLogger({ logFile: join(blocker, 'manzil.log'), screen: (l) => screen.push(l) });
    log.info('not shown');
    log.warn('still shown');
    expect(screen[0]).toMatch(/cannot write the log file .*not-a-folder\/manzil\.log/);
    expect(screen[1]).toMatch(/WARN still shown/);
    expect(screen).toHaveLength(2);
  });
});

describe('log formats', () => {
  it('pretty: a readable line with the level and the message, no JSON braces around them', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'pretty', write: (l) => lines.push(l), secrets: ['tok-secret-77'] });
    log.info('slack: serving POST /slack/events', { port: 3000, token: 'tok-secret-77' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: slack: serving POST \/slack\/events/);
    expect(lines[0]).toMatch(/port: 3000/);
    expect(lines[0]).not.toContain('tok-secret-77');
  });

  it('json (and auto when the lines do not go to a terminal): one JSON object per line', () => {
    for (const format of ['json', 'auto'] as const) {
      const lines: string[] = [];
      createLogger({ format, write: (l) => lines.push(l) }).info('hello', { a: 1 });
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'hello', a: 1 });
    }
  });

  it('oneLine keeps a line that is not JSON as it is', () => {
    expect(oneLine('plain text\n')).toBe('plain text');
  });
});
