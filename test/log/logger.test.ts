import { describe, expect, it } from 'vitest';
import { createLogger, maskSecrets, silentLogger, type LoggerOptions } from '../../src/log.js';

function capture(options: Omit<LoggerOptions, 'write'> = {}) {
  const lines: string[] = [];
  const log = createLogger({ ...options, write: (line) => lines.push(line) });
  return { log, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON line per call, synchronously, with a readable level, an ISO time and the message', () => {
    const { log, lines, entries } = capture();
    log.info('command answered', { operation: 'search-rent', ms: 12 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    const [entry] = entries();
    expect(entry).toMatchObject({ level: 'info', msg: 'command answered', operation: 'search-rent', ms: 12 });
    expect(new Date(String(entry!.time)).toISOString()).toBe(entry!.time);
  });

  it('masks a configured secret that holds a quote and a backslash, in the message and in fields', () => {
    const secret = 'sk-"live"\\key-123';
    const { log, lines } = capture({ secrets: [secret] });
    log.warn(`call failed with key ${secret}`, { detail: `echoed ${secret}`, error: new Error(`bad key ${secret}`) });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).not.toContain(secret);
    expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(line).not.toContain('live');
    const entry = JSON.parse(line) as { msg: string; detail: string; error: { message: string } };
    expect(entry.msg).toBe('call failed with key ***');
    expect(entry.detail).toBe('echoed ***');
    expect(entry.error.message).toBe('bad key ***');
  });

  it('blanks tokens, keys and response URLs by field name even when they are not configured as secrets', () => {
    const { log, lines, entries } = capture();
    log.info('slack request', {
      token: 'xoxb-not-configured',
      request: { botToken: 'xoxb-nested', response_url: 'https://hooks.slack.com/commands/T1/2/abc' },
      headers: { 'x-gateway-key': 'gw-key-1', authorization: 'Bearer zzz' },
      config: { slack: { signingSecret: 'sign-me' }, apiKey: 'uae-key' },
      user: 'U1',
    });
    for (const value of [
      'xoxb-not-configured',
      'xoxb-nested',
      'hooks.slack.com',
      'gw-key-1',
      'Bearer zzz',
      'sign-me',
      'uae-key',
    ]) {
      expect(lines[0]).not.toContain(value);
    }
    expect(entries()[0]).toMatchObject({
      token: '***',
      request: { botToken: '***', response_url: '***' },
      headers: { 'x-gateway-key': '***', authorization: '***' },
      config: { slack: { signingSecret: '***' }, apiKey: '***' },
      user: 'U1',
    });
  });

  it('gives child loggers their fields, and the call fields on top', () => {
    const { log, entries } = capture({ base: { app: 'manzil' } });
    const child = log.child({ part: 'api' }).child({ user: 'U7' });
    child.info('call ok', { operation: 'search-buy' });
    log.info('parent only');
    const [first, second] = entries();
    expect(first).toMatchObject({ app: 'manzil', part: 'api', user: 'U7', operation: 'search-buy', msg: 'call ok' });
    expect(second).toMatchObject({ app: 'manzil', msg: 'parent only' });
    expect(second).not.toHaveProperty('part');
  });

  it('drops lines below the configured level', () => {
    const { log, entries } = capture({ level: 'warn' });
    log.debug('noise');
    log.info('more noise');
    log.warn('worth a look');
    log.error('broken');
    expect(entries().map((e) => [e.level, e.msg])).toEqual([
      ['warn', 'worth a look'],
      ['error', 'broken'],
    ]);
  });

  it('describes an expected error by name, message and status, without a stack', () => {
    const { log, entries } = capture();
    const failure = Object.assign(new Error('The property service refused the key'), {
      name: 'ApiError',
      status: 401,
      kind: 'auth',
    });
    log.error('command failed', { error: failure });
    expect(entries()[0]!.error).toEqual({
      name: 'ApiError',
      message: 'The property service refused the key',
      status: 401,
    });
  });

  it('keeps the stack of an unexpected error, masked', () => {
    const { log, entries } = capture({ secrets: ['topsecret-value'] });
    log.error('handler crashed', { error: new TypeError('cannot read topsecret-value') });
    const error = entries()[0]!.error as { name: string; message: string; stack: string };
    expect(error.name).toBe('TypeError');
    expect(error.message).toBe('cannot read ***');
    expect(error.stack).toContain('TypeError: cannot read ***');
  });

  it('silentLogger writes nothing and still hands out children', () => {
    expect(() => silentLogger.child({ part: 'x' }).error('ignored', { token: 't' })).not.toThrow();
  });
});

describe('maskSecrets', () => {
  it('masks raw and JSON-escaped forms and ignores secrets too short to be real', () => {
    expect(maskSecrets('key a"b\\c-1 and "a\\"b\\\\c-1"', ['a"b\\c-1'])).toBe('key *** and "***"');
    expect(maskSecrets('abc abc', ['abc', undefined, ''])).toBe('abc abc');
  });
});
