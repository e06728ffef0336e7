// Market context on listing cards: where a listing stands against its place's trend price (a sale) or the median rent
// of its bedroom count over the last 30 days (a rent), from the shared market cache. A real Bot, ApiClient, MarketData
// and the sandbox over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingSummary } from '../../src/api/records.js';
import { contextText, MarketData } from '../../src/market/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Card, Reply } from '../../src/views/model.js';
import { aed, periodTruth } from '../support/period-truth.js';
import { ask, harness, removeTempDirs } from './harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox({ key: 'market-context' });
  await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
  removeTempDirs();
});

const cards = (r: Reply): Card[] => r.blocks.flatMap((b) => (b.kind === 'card' ? [b.card] : []));
const marketOf = (c: Card) => c.fields.find((f) => f.label === 'Market')?.value;

function withMarket(budget?: { perDay: number }) {
  const ref: { market?: MarketData } = {};
  const h = harness(sandbox, {
    bot: {
      market: {
        listingContext: async (area, listing) => {
          const c = await ref.market!.listingContext(area, listing as ListingSummary);
          return c && contextText(c);
        },
      },
    },
  });
  ref.market = new MarketData(
    budget ? { call: h.api.call.bind(h.api), budgetLeft: () => ({ blockedForMs: 0, day: budget.perDay }) } : h.api,
  );
  return { ...h, market: () => ref.market! };
}

describe('market context on listing cards', () => {
  it('a sale card says how its AED per sqft stands against the area’s trend price for its bedroom count', async () => {
    const h = withMarket();
    try {
      const reply = await ask(h.bot, 'buy marina 2br');
      const contexts = cards(reply).map(marketOf).filter(Boolean);
      expect(contexts.length).toBeGreaterThan(0);
      for (const c of contexts)
        expect(c).toMatch(
          /^(\d+ % (below|above)|in line with) Dubai Marina's 2-bed apartment average of AED [\d,]+\/sqft \(price trend, \w+ \d{4}\)$/,
        );
    } finally {
      await h.close();
    }
  });

  it('a rent card says how its annual rent stands against the median rent of its bedroom count over 30 days', async () => {
    const h = withMarket();
    try {
      const reply = await ask(h.bot, 'rent marina 1br');
      const contexts = cards(reply).map(marketOf).filter(Boolean);
      expect(contexts.length).toBeGreaterThan(0);
      for (const c of contexts)
        expect(c).toMatch(
          /Dubai Marina's 1-bed( [a-z ]+)? median rent of AED [\d,]+ a year \(last 30 days, \d+ lettings of [a-z ]+\)$/,
        );
    } finally {
      await h.close();
    }
  });

  it(
    'a rent card’s median rent and its count of lettings are the whole last month’s, not a page’s',
    { timeout: 60_000 },
    async () => {
      const h = withMarket();
      try {
        // Recomputed from the sandbox's data module: the 1-bed lettings of each type in Dubai Marina over the last
        // month.
        const truths = [undefined, 'apartment', 'hotel-apartment', 'duplex'].map((propertyType) =>
          periodTruth(sandbox, {
            area: 'Dubai Marina',
            kind: 'rented',
            months: 1,
            bedrooms: 1,
            ...(propertyType ? { propertyType } : {}),
          }),
        );
        expect(periodTruth(sandbox, { area: 'Dubai Marina', kind: 'rented', months: 1 }).count).toBeGreaterThan(15);
        const expected = truths
          .filter((t) => t.count >= 3)
          .map((t, i) => {
            // The card names the type its lettings are of: the listing's own, or every type when it names none.
            const type = [undefined, 'apartment', 'hotel apartment', 'duplex'][i];
            const of = [`every type`, 'apartments', 'hotel apartments', 'duplexes'][i];
            return `1-bed${type ? ` ${type}` : ''} median rent of ${aed(t.median!)} a year (last 30 days, ${t.count} lettings of ${of})`;
          });
        await ask(h.bot, 'rent marina 1br'); // the first look fetches what the area needs; it may come after the answer
        const contexts = cards(await ask(h.bot, 'rent marina 1br'))
          .map(marketOf)
          .filter((c): c is string => Boolean(c));
        expect(contexts.length).toBeGreaterThan(0);
        for (const c of contexts) expect(expected.some((e) => c.endsWith(e))).toBe(true);
      } finally {
        await h.close();
      }
    },
  );

  it('costs at most one trend call per area, however many searches, and none at all when the budget is low', async () => {
    const h = withMarket();
    try {
      sandbox.clearRequests();
      await ask(h.bot, 'buy marina 2br');
      await ask(h.bot, 'buy marina 1br');
      await ask(h.bot, 'buy marina 3br');
      expect(sandbox.requests().filter((r) => r.path === '/price-trend-of-location')).toHaveLength(1);
    } finally {
      await h.close();
    }
    const low = withMarket({ perDay: 5 });
    try {
      sandbox.clearRequests();
      const reply = await ask(low.bot, 'buy jvc 1br');
      expect(cards(reply).length).toBeGreaterThan(0);
      expect(cards(reply).map(marketOf).filter(Boolean)).toEqual([]);
      expect(sandbox.requests().filter((r) => r.path === '/price-trend-of-location')).toHaveLength(0);
    } finally {
      await low.close();
    }
  });

  it('shows no context rather than a guess where there is none (a search without a market port)', async () => {
    const h = harness(sandbox);
    try {
      const reply = await ask(h.bot, 'buy marina 2br');
      expect(cards(reply).map(marketOf).filter(Boolean)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
