// Whether the terminal chat colours its replies is decided by where they go: a terminal gets colour, a pipe or a
// file plain text, and NO_COLOR turns it off anywhere.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTerminalChat } from '../../adapters/console/chat.js';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { SGR } from './spawn-chat.js';

let manzil: Manzil;
beforeAll(async () => {
  manzil = await startManzil({
    env: { MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-colour-')), 'm.db') },
    writeLog: () => {},
  });
});
afterAll(() => manzil.stop());
afterEach(() => vi.unstubAllEnvs());

/** An output stream that says it is a terminal, as process.stdout does in one. */
const terminal = () => Object.assign(new PassThrough(), { isTTY: true });

async function chat(output: PassThrough, lines: string[]): Promise<string> {
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const input = new PassThrough();
  const done = runTerminalChat(manzil.bot, { input, output, sandbox: true });
  input.end(lines.map((l) => `${l}\n`).join(''));
  await done;
  return text;
}

describe('colour in the terminal chat', () => {
  it('is on for a terminal: bold titles, dim details', async () => {
    vi.stubEnv('NO_COLOR', undefined);
    vi.stubEnv('TERM', 'xterm-256color');
    const out = await chat(terminal(), ['rent marina 2br']);
    expect(out).toContain('\x1b[1m');
    expect(out).toContain('\x1b[2m');
    expect(out.replace(SGR, '')).toMatch(/^\* AED [\d,]+\/yr · 2 beds {2}\S/m);
  });

  it('is off with NO_COLOR, even for a terminal', async () => {
    vi.stubEnv('NO_COLOR', '1');
    const out = await chat(terminal(), ['rent marina 2br']);
    expect(out).toMatch(/^\* AED [\d,]+\/yr · 2 beds/m);
    expect(out).not.toMatch(SGR);
  });

  it('is off for a pipe, and so are alerts posted with no chat attached', async () => {
    vi.stubEnv('NO_COLOR', undefined);
    expect(await chat(new PassThrough(), ['rent marina 2br'])).not.toMatch(SGR);
    const piped = new PassThrough();
    let posted = '';
    piped.on('data', (chunk: Buffer) => (posted += chunk.toString()));
    await new ConsolePoster(piped).post(
      'console:local',
      { text: 'New listing', blocks: [{ kind: 'header', text: 'New listing' }] },
      'd1',
    );
    expect(posted).toBe('\n== New listing ==\n');
  });
});
