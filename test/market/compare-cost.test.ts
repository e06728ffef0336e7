// What `/compare` costs the service: five areas of one bedroom count cost at most what a digest of those five costs;
// every count costs the pages of its whole periods, and no more (a cost goal never truncates a figure); a repeat within
// the cache's life costs nothing more. Counted at the sandbox; the pages recomputed from the sandbox's own records.
import { describe, expect, it } from 'vitest';
import { compareAreas, composeAreaDigest } from '../../src/market/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { periodTruth } from '../support/period-truth.js';
import { marketRig } from './helpers.js';

const AREAS = [
  { id: 50, name: 'Dubai Marina' },
  { id: 44, name: 'Jumeirah Lake Towers' },
  { id: 86, name: 'Business Bay' },
  { id: 100, name: 'Jumeirah Village Triangle' },
  { id: 103, name: 'Al Barsha 1' },
];

/** The calls of a digest of the five areas, then of a compare of them cold, and what a repeat adds. */
async function costs(options: { bedrooms?: number }) {
  const rig = await marketRig();
  const now = rig.sandbox.now();
  const digest = rig.newMarket();
  for (const a of AREAS) await composeAreaDigest(digest, a, { since: new Date(now.getTime() - 7 * 86_400_000), now });
  const digestCalls = rig.upstream();
  const market = rig.newMarket();
  const before = rig.upstream();
  const cold = await compareAreas(market, AREAS, options);
  const compareCalls = rig.upstream() - before;
  await compareAreas(market, AREAS, options);
  return { digestCalls, cold, compareCalls, warmCalls: rig.upstream() - before - compareCalls, sandbox: rig.sandbox };
}

/**
 * The calls a compare of every count needs at most: per area, each period read to its end (a call per 15 transactions,
 * and one more that finds the end), the year of lettings where 3 months leave a bedroom count with fewer than 3, the
 * trend, and the first page of listings for sale and for rent.
 */
function wholePeriodCalls(sandbox: Sandbox): number {
  const pages = (n: number) => Math.floor(n / 15) + 1;
  let calls = 0;
  for (const a of AREAS) {
    const of = (kind: 'sold' | 'rented', months: 3 | 12) => periodTruth(sandbox, { area: a.name, kind, months });
    const rented = of('rented', 3);
    const beds = (b: number) => rented.records.filter((r) => (b < 4 ? r.bedrooms === b : r.bedrooms >= 4)).length;
    const thin = [0, 1, 2, 3, 4].some((b) => beds(b) < 3);
    calls += pages(of('sold', 3).count) + pages(rented.count) + (thin ? pages(of('rented', 12).count) : 0) + 1 + 2;
  }
  return calls;
}

describe('the cost of a compare', () => {
  it(
    'of 5 areas and a bedroom count: at most a digest of them, cold; nothing more warm',
    { timeout: 60_000 },
    async () => {
      const c = await costs({ bedrooms: 2 });
      expect(c.cold.areas.every((a) => a.state === 'ok')).toBe(true);
      expect(c.compareCalls).toBeLessThanOrEqual(c.digestCalls);
      expect(c.warmCalls).toBeLessThanOrEqual(2);
    },
  );

  it(
    'of 5 areas and no bedroom count (every count, studio to 4+): the pages of its whole periods, cold; nothing more warm',
    { timeout: 60_000 },
    async () => {
      const c = await costs({});
      expect(c.cold.areas.every((a) => a.state === 'ok')).toBe(true);
      expect(c.cold.buckets).toHaveLength(5);
      // Whole periods cost more than a digest's month: the goal is "no call past a period's end", not a digest's count.
      expect(c.compareCalls).toBeGreaterThan(c.digestCalls);
      expect(c.compareCalls).toBeLessThanOrEqual(wholePeriodCalls(c.sandbox));
      expect(c.cold.areas.every((a) => a.cells.every((x) => !x.sale.atLeast && !x.rent.atLeast))).toBe(true);
      expect(c.warmCalls).toBeLessThanOrEqual(2);
    },
  );
});
