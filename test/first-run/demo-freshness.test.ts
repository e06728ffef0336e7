// In the demo the sample market moves faster than the calendar: a figure's freshness follows the market's clock, so a
// digest composed after the market moved on gives that market's figures, not those an earlier answer read minutes (of
// the wall clock) before, and a listing card's median rent and lettings are the new month's. The truth is recomputed
// straight from the sandbox's data module (test/support/period-truth.ts), never through Manzil's figure code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { aed, periodTruth } from '../support/period-truth.js';

const started: Manzil[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

const DAY_MINUTES = 24 * 60;

describe('freshness on the market clock', () => {
  it('a digest and a card after three market days give the figures of the market at their own clock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-fresh-'));
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += String(d)));
    const manzil = await startManzil({
      env: { MANZIL_DB_PATH: join(dir, 'm.db'), MANZIL_DEMO_TICK_S: '0' },
      writeLog: () => {},
      terminal: new ConsolePoster(output, false, { chartsDir: join(dir, 'charts') }),
      serve: false,
    });
    started.push(manzil);
    const sandbox = manzil.sandbox!;
    const who = { user: 'terminal', channel: 'console:local', isAdmin: async () => true };
    const say = (text: string) => manzil.bot.handleCommand({ ...who, text });

    /** The digest's "Sold:" and "Rented:" lines for Dubai Marina, composed now. */
    const digest = async () => {
      shown = '';
      await say('digest now marina');
      expect((await manzil.alerts.drainer.drain()).delivered).toBe(1);
      return ['Sold', 'Rented'].map((k) => new RegExp(`${k}: [^\\n]*`).exec(shown)![0]);
    };
    const truthLines = () =>
      (['sold', 'rented'] as const).map((kind) => {
        const t = periodTruth(sandbox, { area: 'Dubai Marina', kind, months: 1 });
        return `${kind === 'sold' ? 'Sold' : 'Rented'}: ${t.count} in the last 30 days, median ${aed(t.median!)}`;
      });
    /** The lettings a 1-bed apartment card of Dubai Marina is set against, as the card says them. */
    const cardLine = async () => {
      await say('rent marina 1br apartment'); // the first look fetches; it may come after the answer
      const reply = await say('rent marina 1br apartment');
      const all = JSON.stringify(reply.blocks);
      return /median rent of AED [\d,]+ a year \(last 30 days, \d+ lettings of apartments\)/.exec(all)?.[0];
    };
    const truthCard = () => {
      const t = periodTruth(sandbox, {
        area: 'Dubai Marina',
        kind: 'rented',
        months: 1,
        bedrooms: 1,
        propertyType: 'apartment',
      });
      return `median rent of ${aed(t.median!)} a year (last 30 days, ${t.count} lettings of apartments)`;
    };

    for (let day = 0; day < 60; day++) sandbox.advance(DAY_MINUTES);
    const before = truthLines();
    expect(await digest()).toEqual(before);
    const cardBefore = await cardLine();
    expect(cardBefore).toBe(truthCard());

    // Three market days later (seconds of the wall clock): other sales, other lettings.
    for (let day = 0; day < 3; day++) sandbox.advance(DAY_MINUTES);
    const after = truthLines();
    expect(after).not.toEqual(before);
    expect(await digest()).toEqual(after);
    expect(truthCard()).not.toBe(cardBefore);
    expect(await cardLine()).toBe(truthCard());
  }, 90_000);
});
