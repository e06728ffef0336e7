// Leaving the terminal chat in a real terminal: Ctrl+C and Ctrl+D end it and the process exits 0, an answer
// on its way is still shown, and a second Ctrl+C quits at once. `script` (util-linux) gives the chat a pty.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChat, type ChatProcess } from './spawn-chat.js';

const PROMPT = /manzil> /;
const running: ChatProcess[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));

function chatInTerminal(): ChatProcess {
  const p = spawnChat({ tty: true });
  running.push(p);
  return p;
}

describe('terminal chat in a real terminal', () => {
  it('Ctrl+C at the prompt says goodbye and exits 0 at once', async () => {
    const chat = chatInTerminal();
    await chat.waitFor(PROMPT);
    chat.child.stdin.write('\x03');
    expect(await chat.exit(5_000)).toBe(0);
    expect(chat.output()).toMatch(/Goodbye\./);
  });

  it('Ctrl+D at the prompt says goodbye and exits 0', async () => {
    const chat = chatInTerminal();
    await chat.waitFor(PROMPT);
    chat.child.stdin.write('\x04');
    expect(await chat.exit(5_000)).toBe(0);
    expect(chat.output()).toMatch(/Goodbye\./);
  });

  it('Ctrl+C while an answer is on its way shows the answer first, then exits 0', async () => {
    const chat = chatInTerminal();
    await chat.waitFor(PROMPT);
    await chat.addFault({ latencyMs: 1_500, count: 1, path: '/search-rent' });
    chat.child.stdin.write('rent marina 2br\r');
    await chat.reached('/search-rent');
    chat.child.stdin.write('\x03');
    await chat.waitFor(/finishing the answer on its way/, 5_000);
    expect(await chat.exit(10_000)).toBe(0);
    const out = chat.output();
    expect(out).toMatch(/== .*Dubai Marina.* ==/);
    expect(out.indexOf('Goodbye.')).toBeGreaterThan(out.search(/== .*Dubai Marina.* ==/));
  });

  it('a second Ctrl+C quits at once, without waiting for the answer', async () => {
    const chat = chatInTerminal();
    await chat.waitFor(PROMPT);
    await chat.addFault({ latencyMs: 30_000, count: 1, path: '/search-rent' });
    chat.child.stdin.write('rent marina 2br\r');
    await chat.reached('/search-rent');
    chat.child.stdin.write('\x03');
    await chat.waitFor(/finishing the answer on its way/, 5_000);
    const t0 = Date.now();
    chat.child.stdin.write('\x03');
    expect(await chat.exit(10_000)).toBe(130);
    // Not the answer's 30 s, nor the client's 10 s wait for headers: at once, with room for a loaded machine.
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect(chat.output()).toMatch(/Quitting now, without the answer on its way\./);
    expect(chat.output()).not.toMatch(/second signal|WARN/); // the log line stays in the log
    expect(chat.output()).not.toMatch(/== .*Dubai Marina.* ==/);
  });
});
