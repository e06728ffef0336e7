// In a real terminal (a pty from `script`), an alert that arrives while someone is typing is printed above the
// prompt, and the prompt comes back with what was typed so far, ready to be finished.
import { afterEach, describe, expect, it } from 'vitest';
import { SGR, spawnChat, type ChatProcess } from './spawn-chat.js';

const PROMPT = /manzil> /;
const running: ChatProcess[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));

function chatInTerminal(env: Record<string, string>): ChatProcess {
  const p = spawnChat({ tty: true, env });
  running.push(p);
  return p;
}

describe('alerts in the terminal chat', () => {
  it('print above the prompt and keep the half-typed command', async () => {
    const chat = chatInTerminal({ MANZIL_DEMO_TICK_S: '0.5', ALERTS_CRON: '*/2 * * * * *' });
    await chat.waitFor(PROMPT);
    chat.child.stdin.write('rent marina\r');
    const save = await chat.waitFor(/\[(\d+)\] Save as alert/, 10_000);
    expect(chat.output()).toContain('\x1b[1m'); // a terminal gets colour
    chat.child.stdin.write(`${save[1]}\r`);
    await chat.waitFor(/Saved as alert #1/, 10_000);
    // The prompt is back (readline ends it with a cursor move).
    // eslint-disable-next-line no-control-regex -- the escape character is what is looked for
    await chat.waitFor(/Saved as alert #1[\s\S]*manzil> (\x1b\[\d+G)?$/, 5_000);
    chat.child.stdin.write('buy dow');
    const typedAt = chat.output().length;

    await chat.waitFor(/New listing · Alert #1[\s\S]*manzil> buy dow/, 25_000);
    const after = chat.output().slice(typedAt).replace(SGR, '');
    // The alert starts on a line of its own, and the prompt is drawn again under it with the typed text.
    expect(after.indexOf('🔔 New listing')).toBeLessThan(after.lastIndexOf('manzil> buy dow'));
    expect(after).not.toMatch(/manzil> buy dow[^\n]*🔔/);

    chat.child.stdin.write('ntown\r');
    await chat.waitFor(/== .*Downtown Dubai.* ==/, 10_000);
    chat.child.stdin.write('\x04');
    expect(await chat.exit(10_000)).toBe(0);
  }, 60_000);
});
