// In the terminal chat a number presses a button (issue 17): a number with no button behind it is answered with the
// numbers there are to press, never sent as a command ("I don't know "12"").
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTerminalChat } from '../../adapters/console/chat.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { harness, removeTempDirs, type Harness } from '../bot/harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

async function chat(lines: string[]): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const done = runTerminalChat(h.bot, { input, output, color: false });
  input.end(lines.map((l) => `${l}\n`).join(''));
  await done;
  return text;
}

describe('numbers with no button', () => {
  it('says there are no buttons yet, and sends nothing', async () => {
    sandbox.clearRequests();
    const out = await chat(['12']);
    expect(out).toContain(
      'There is no button 12: no buttons are on screen. Type a command, like "rent marina 2br under 120k", or "help".',
    );
    expect(out).not.toContain("I don't know");
    expect(sandbox.requests()).toEqual([]);
  });

  it('names the numbers on screen, and a number that is one still presses it', async () => {
    const out = await chat(['buy marina', '99', '1']);
    const count = Number(/the buttons are numbered 1 to (\d+)\./.exec(out)?.[1]);
    expect(count).toBeGreaterThan(11);
    expect(out).toContain(
      `There is no button 99 on screen; the buttons are numbered 1 to ${count}. Type one of those, or a command.`,
    );
    expect(out).toMatch(/Showing 11–/);
  });
});

describe('the numbers of a page of results', () => {
  it.each(['rent jvc', 'buy downtown dubai 1br', 'buy business bay'])(
    '%s: Next keeps its number from page to page, so typing it again goes on, never back',
    async (command) => {
      // Next's number on the first page, typed three times: each time the following page.
      const first = await chat([command]);
      const next = /\[(\d+)\] Next/.exec(first)![1]!;
      const out = await chat([command, next, next, next]);
      const ranges = Array.from(out.matchAll(/Showing (\d+)–(\d+)/g), (m) => [Number(m[1]), Number(m[2])]);
      expect(ranges.map((r) => r[0])).toEqual([1, 11, 21, 31]);
      const pages = out.split(/Showing \d+–\d+/).slice(1, -1);
      for (const page of pages) expect(page).toMatch(new RegExp(`\\[${next}\\] Next`));
    },
  );
});
