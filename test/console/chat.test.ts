// The terminal chat, the embedded default: commands in, text out, button numbers pressed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTerminalChat } from '../../adapters/console/chat.js';
import { SANDBOX_FOOTER, startManzil, type Manzil } from '../../src/app/index.js';

let manzil: Manzil;
beforeAll(async () => {
  // No keys at all: the embedded sandbox, as on a newcomer's first run.
  manzil = await startManzil({
    env: { MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-console-')), 'm.db') },
    writeLog: () => {},
  });
});
afterAll(() => manzil.stop());

async function chat(lines: string[]): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const done = runTerminalChat(manzil.bot, { input, output, sandbox: true });
  input.end(lines.map((l) => `${l}\n`).join(''));
  await done;
  return text;
}

describe('terminal chat', () => {
  it('starts on the embedded sandbox and says so under every reply', async () => {
    expect(manzil.sandbox).toBeDefined();
    const out = await chat(['rent marina 2br under 200k']);
    expect(out).toMatch(/sample data from the local sandbox/);
    expect(out).toMatch(/== .*Dubai Marina.* ==/);
    expect(out).toMatch(/AED [\d,]+\/yr/);
    expect(out).toContain(SANDBOX_FOOTER);
  });

  it('presses a button when its number is typed', async () => {
    const out = await chat(['buy marina', '1']);
    const pages = out.split(/== .* ==/);
    expect(pages.length).toBe(3);
    expect(out).toMatch(/Showing 11–/);
  });

  it('answers help and bad input without stopping', async () => {
    const out = await chat(['help', 'rent marina 12x bedrooms', 'location marina', 'quit', 'rent downtown']);
    expect(out).toMatch(/rent/);
    expect(out).toMatch(/Dubai Marina/);
    expect(out).not.toMatch(/Downtown Dubai/); // nothing runs after quit
    expect(out).toMatch(/Goodbye\.\n$/);
  });

  it('ends, saying goodbye, when shutdown begins while it waits for input', async () => {
    const input = new PassThrough(); // left open: the person has not typed anything yet
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const stopping = new AbortController();
    const done = runTerminalChat(manzil.bot, { input, output, signal: stopping.signal });
    stopping.abort();
    await done;
    expect(text).toMatch(/Goodbye\.\n$/);
  });
});
