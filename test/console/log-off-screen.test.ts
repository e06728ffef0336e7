// Issue 26: in a real terminal (a pty from `script`, where stdout and stderr are the same screen), the conversation
// shows only plain words. A failure's log lines (JSON fields, levels, the service's own message) go to the log file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SGR, spawnChat, type ChatProcess } from './spawn-chat.js';

const running: ChatProcess[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));

describe('log lines in the terminal chat', () => {
  it('never print into the conversation; the log file has the precise error', { timeout: 60_000 }, async () => {
    const chat = spawnChat({ tty: true, env: { MANZIL_DEMO_TICK_S: '0' } });
    running.push(chat);
    await chat.waitFor(/manzil> /);
    // An id the service has nothing under (a 404, logged as a warning), then a search the service fails (503s).
    chat.child.stdin.write('property 424242\r');
    await chat.waitFor(/nothing under that id/, 15_000);
    await chat.addFault({ status: 503, count: 50 });
    chat.child.stdin.write('buy business bay 2br\r');
    await chat.waitFor(/property service is busy/, 30_000);
    chat.child.stdin.write('quit\r');
    expect(await chat.exit(10_000)).toBe(0);

    const screen = chat.output().replace(SGR, '');
    expect(screen).not.toMatch(
      /\b(WARN|ERROR|INFO)\b|"level"|\{"|answered 404|answered 503|property-details|search-buy|ApiError/,
    );
    const file = readFileSync(join(chat.dir, 'manzil.log'), 'utf8');
    expect(file).toMatch(/answered 404.*"msg":"request failed"/);
    expect(file).toMatch(/answered 503/);
  });
});
