// What `/compare` costs the service: five areas cost at most what a digest of those five costs, and a repeat within
// the cache's life costs nothing more. Counted at the sandbox.
import { describe, expect, it } from 'vitest';
import { compareAreas, composeAreaDigest } from '../../src/market/index.js';
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
  return { digestCalls, cold, compareCalls, warmCalls: rig.upstream() - before - compareCalls };
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
    'of 5 areas and no bedroom count (every count, studio to 4+): at most a digest of them, cold; nothing more warm',
    { timeout: 60_000 },
    async () => {
      const c = await costs({});
      expect(c.cold.areas.every((a) => a.state === 'ok')).toBe(true);
      expect(c.cold.buckets).toHaveLength(5);
      expect(c.compareCalls).toBeLessThanOrEqual(c.digestCalls);
      expect(c.warmCalls).toBeLessThanOrEqual(2);
    },
  );
});
