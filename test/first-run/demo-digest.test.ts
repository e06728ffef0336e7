// In the terminal demo (no keys: the sandbox, the terminal chat), `digest now marina` shows a digest and its chart:
// the figures of the sample market, whose transactions keep arriving as its clock runs, and a PNG saved beside the
// database with its path printed.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { startManzil, type Manzil } from '../../src/app/index.js';

const started: Manzil[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

describe('a digest in the terminal demo', () => {
  it('`digest now marina` prints the digest with its figures and a chart saved as a PNG', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-digest-'));
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += String(d)));
    const terminal = new ConsolePoster(output, false, { chartsDir: join(dir, 'charts') });
    const manzil = await startManzil({
      env: { MANZIL_DB_PATH: join(dir, 'm.db'), MANZIL_DEMO_TICK_S: '0' },
      writeLog: () => {},
      terminal,
      serve: false,
    });
    started.push(manzil);
    // The sample market has moved on for two months: the last 30 days still have their sales and lettings.
    for (let day = 0; day < 60; day++) manzil.sandbox!.advance(24 * 60);

    const who = { user: 'terminal', channel: 'console:local', isAdmin: async () => true };
    const reply = await manzil.bot.handleCommand({ ...who, text: 'digest now marina' });
    expect(reply.text).toMatch(/Composing the digest of Dubai Marina/);
    expect((await manzil.alerts.drainer.drain()).delivered).toBe(1);

    expect(shown).toMatch(/Market digest: Dubai Marina/);
    expect(shown).toMatch(/Sold: (at least )?\d+ in the last 30 days/);
    expect(shown).toMatch(/Rented: (at least )?\d+ in the last 30 days/);
    expect(shown).toMatch(/Price trend, AED per sqft/);
    expect(shown).toMatch(/Gross yield estimate/);
    const sold = Number(/Sold: (?:at least )?(\d+)/.exec(shown)![1]);
    expect(sold).toBeGreaterThan(5);
    const saved = /Chart saved: (\S+\.png)/.exec(shown)?.[1];
    expect(saved).toBeDefined();
    expect(existsSync(saved!)).toBe(true);
    expect(readFileSync(saved!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The text stands in for the picture too: a sparkline per bedroom count.
    expect(shown).toMatch(/2 bed [▁▂▃▄▅▆▇█]{6,}/);
  }, 60_000);
});
