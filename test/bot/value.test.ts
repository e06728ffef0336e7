// `/value` through the bot core on the sandbox, its figures checked against the sandbox's own records recomputed in
// the test (test/support/value-truth.ts): interquartile ranges, counts and gross yields per area and bedroom count;
// a thin area is "too little data"; an upstream failure is named as one, never read as no data; a repeat costs no
// call; a listing's Details offers "What is it worth?" and places its asking price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketData, readValue } from '../../src/market/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { listingsTruth, thousands, transactionsTruth } from '../support/value-truth.js';
import { ask, button, cards, harness, press, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;
let market: MarketData;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox, { bot: { value: { estimate: (area, q) => readValue(market, area, q) } } });
  market = new MarketData(h.api);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

const words = (r: Reply) => r.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
const rangeWords = (t: { low?: number; high?: number; mid?: number }) =>
  `${thousands(t.low!)} to ${thousands(t.high!)}`;

describe('/value', () => {
  it(
    'without a size: the middle half of the recent sales and lettings, their counts and the gross yield, as the sandbox holds them',
    { timeout: 60_000 },
    async () => {
      const cases = [
        ['jvc', 'Jumeirah Village Circle', 2],
        ['dubai marina', 'Dubai Marina', 1],
        ['business bay', 'Business Bay', 0],
        ['downtown dubai', 'Downtown Dubai', 3],
      ] as const;
      for (const [typed, place, beds] of cases) {
        const truth = transactionsTruth(sandbox, place, beds);
        expect(truth.sale.count, place).toBeGreaterThanOrEqual(5);
        const reply = await ask(h.bot, `/value ${typed} ${beds === 0 ? 'studio' : `${beds}br`}`);
        const text = words(reply);
        expect(text, place).toContain(`Sale price: ${rangeWords(truth.sale)}`);
        expect(text, place).toContain(`middle half of ${truth.sale.count} `);
        expect(text, place).toContain(`Annual rent: ${rangeWords(truth.rent)} a year`);
        expect(text, place).toContain(`middle half of ${truth.rent.count} `);
        expect(text, place).toContain(`Gross yield: ${((truth.rent.mid! / truth.sale.mid!) * 100).toFixed(1)} %`);
        expect(text).toContain('not a valuation');
        expect(reply.ephemeral).toBeFalsy();
      }
    },
  );

  it(
    "with a size: the trend's AED per sqft times the size, spread as the live listings are; the rent from the rent listings",
    { timeout: 60_000 },
    async () => {
      for (const [typed, place, beds, size] of [
        ['jvc', 'Jumeirah Village Circle', 2, 1200],
        ['dubai marina', 'Dubai Marina', 1, 800],
      ] as const) {
        const truth = listingsTruth(sandbox, place, beds, size);
        const reply = await ask(
          h.bot,
          `what would a ${size.toLocaleString('en-US')} sqft ${beds}br in ${typed} rent for`,
        );
        const text = words(reply);
        expect(text, place).toContain(`Sale price: ${rangeWords(truth.sale)} (middle ${thousands(truth.sale.mid!)})`);
        expect(text, place).toContain(`AED ${truth.trend.toLocaleString('en-US')}/sqft`);
        expect(text, place).toContain(`middle half of ${truth.sale.count} `);
        expect(text, place).toContain(`Annual rent: ${rangeWords(truth.rent)} a year`);
        expect(text, place).toContain(`middle half of ${truth.rent.count} `);
      }
    },
  );

  it(
    'with a size and too few live listings: the sales spread around the trend price, the lettings as they are, said so',
    { timeout: 60_000 },
    async () => {
      let fellBack = 0;
      for (const [typed, place, beds, size] of [
        ['al raha beach', 'Al Raha Beach', 1, 900],
        ['fujairah', 'Fujairah', 2, 1100],
        ['palm jumeirah', 'Palm Jumeirah', 4, 3000],
        ['muwaileh', 'Muwaileh', 2, 1000],
      ] as const) {
        const listed = listingsTruth(sandbox, place, beds, size);
        const sold = transactionsTruth(sandbox, place, beds);
        const text = words(await ask(h.bot, `/value ${typed} ${beds}br ${size} sqft`));
        if (listed.sale.count < 5 && sold.sale.count >= 5) {
          fellBack++;
          // The trend's price times the size in the middle, as wide as the sales are around their median.
          const mid = listed.trend * size;
          const range = {
            low: (mid * sold.sale.low!) / sold.sale.mid!,
            high: (mid * sold.sale.high!) / sold.sale.mid!,
          };
          expect(text, place).toContain(`Sale price: ${rangeWords(range)} (middle ${thousands(mid)})`);
          expect(text, place).toContain(
            `spread as the middle half of ${sold.sale.count} sales of the last 6 months (only ${listed.sale.count} sale listings online now, fewer than the 5 a spread needs)`,
          );
        } else if (listed.sale.count < 5) {
          expect(text, place).toContain('Sale price: too little data');
          expect(text, place).toContain(
            `Too little data: ${listed.sale.count} sale listings online now and ${sold.sale.count} sales of the last 6 months; a range needs 5`,
          );
        }
        if (listed.rent.count < 5 && sold.rent.count >= 5) {
          fellBack++;
          expect(text, place).toContain(`Annual rent: ${rangeWords(sold.rent)} a year`);
          expect(text, place).toContain(
            `From the middle half of ${sold.rent.count} lettings of the last 6 months, homes of every size (only ${listed.rent.count} rent listings online now`,
          );
        }
      }
      expect(fellBack).toBeGreaterThanOrEqual(4);
    },
  );

  it('"is 1.8m fair for a 2 bed in jvc?" says where 1.8m sits in the range', { timeout: 30_000 }, async () => {
    const truth = transactionsTruth(sandbox, 'Jumeirah Village Circle', 2).sale;
    const text = words(await ask(h.bot, 'is 1.8m fair for a 2 bed in jvc?'));
    const expected =
      1_800_000 > truth.high!
        ? `${Math.round((1_800_000 / truth.high! - 1) * 100)} % above the range's top`
        : 1_800_000 < truth.low!
          ? `${Math.round((1 - 1_800_000 / truth.low!) * 100)} % below the range's bottom`
          : `within the range, ${Math.round(Math.abs(1_800_000 / truth.mid! - 1) * 100)} % ${1_800_000 < truth.mid! ? 'below' : 'above'} its middle`;
    expect(text).toContain(`AED 1,800,000 is ${expected}`);
    const high = words(await ask(h.bot, 'is 3m fair for a 2 bed in jvc?'));
    expect(high).toContain(
      `AED 3,000,000 is ${Math.round((3_000_000 / truth.high! - 1) * 100)} % above the range's top`,
    );
  });

  it('a thin area and bedroom count is "too little data", with the count it has', { timeout: 30_000 }, async () => {
    const truth = transactionsTruth(sandbox, 'Palm Jumeirah', 4);
    expect(truth.sale.count).toBeLessThan(5);
    const text = words(await ask(h.bot, '/value palm jumeirah 4br'));
    expect(text).toContain('Sale price: too little data');
    expect(text).toContain(`Too little data: ${truth.sale.count} sales of the last 6 months; a range needs 5`);
  });

  it('a repeat within the cache life costs no call', { timeout: 30_000 }, async () => {
    await ask(h.bot, '/value business bay 2br 1000 sqft');
    sandbox.clearRequests();
    const again = await ask(h.bot, '/value business bay 2br 1000 sqft');
    expect(words(again)).toContain('Sale price: AED');
    expect(sandbox.requests().filter((r) => r.path !== '/autocomplete-location')).toEqual([]);
  });

  it('an upstream failure is named, never "too little data"', { timeout: 30_000 }, async () => {
    sandbox.addFault({ path: '/get-get-transactions', status: 500 });
    try {
      const reply = await ask(h.bot, '/value jumeirah lake towers 3br');
      expect(reply.ephemeral).toBe(true);
      expect(reply.text).toMatch(/property (data )?service/i);
      expect(reply.text).not.toMatch(/too little data|no data|Error:|\bat .+:\d+/i);
    } finally {
      sandbox.clearFaults();
    }
  });

  it('bad input is a friendly private message', async () => {
    for (const [typed, said] of [
      ['/value jvc', /How many bedrooms\?/],
      ['/value jvc 1-2br', /One bedroom count/],
      ['/value', /Which home\?/],
    ] as const) {
      const reply = await ask(h.bot, typed);
      expect(reply.ephemeral, typed).toBe(true);
      expect(reply.text, typed).toMatch(said);
    }
  });

  it(
    'a listing\'s Details offers "What is it worth?", which places its asking price in the range',
    { timeout: 60_000 },
    async () => {
      const results = await ask(h.bot, '/buy jvc 2br apartment');
      const first = cards(results)[0]!;
      const details = await press(h.bot, button(results, /^Details$/));
      const worth = await press(h.bot, button(details, /What is it worth\?/));
      const text = words(worth);
      expect(text).toContain('in Jumeirah Village Circle is worth');
      expect(text).toMatch(/AED [\d,]+ is (\d+ % (above the range's top|below the range's bottom)|within the range)/);
      expect(first.title).toBeTruthy();
      // Agents' listings have no area: no button.
      const noArea = await ask(h.bot, '/property 16266089');
      expect(JSON.stringify(noArea.blocks)).not.toContain('What is it worth?');
    },
  );
});
