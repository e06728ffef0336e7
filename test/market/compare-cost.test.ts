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

describe('the cost of a compare', () => {
  it(
    'of 5 areas and a bedroom count: at most a digest of them, cold; nothing more warm',
    { timeout: 60_000 },
    async () => {
      const rig = await marketRig();
      const now = rig.sandbox.now();
      const digest = rig.newMarket();
      for (const a of AREAS)
        await composeAreaDigest(digest, a, { since: new Date(now.getTime() - 7 * 86_400_000), now });
      const digestCalls = rig.upstream();

      const market = rig.newMarket();
      const before = rig.upstream();
      const cold = await compareAreas(market, AREAS, { bedrooms: 2 });
      const compareCalls = rig.upstream() - before;
      expect(cold.areas.every((a) => a.state === 'ok')).toBe(true);
      expect(compareCalls).toBeLessThanOrEqual(digestCalls);
      await compareAreas(market, AREAS, { bedrooms: 2 });
      expect(rig.upstream() - before - compareCalls).toBeLessThanOrEqual(2);
    },
  );

  it(
    'of 5 areas and no bedroom count (every count, studio to 4+): at most a digest of them, cold; nothing more warm',
    { timeout: 60_000 },
    async () => {
      const rig = await marketRig();
      const now = rig.sandbox.now();
      const digest = rig.newMarket();
      for (const a of AREAS)
        await composeAreaDigest(digest, a, { since: new Date(now.getTime() - 7 * 86_400_000), now });
      const digestCalls = rig.upstream();

      const market = rig.newMarket();
      const before = rig.upstream();
      const cold = await compareAreas(market, AREAS);
      const compareCalls = rig.upstream() - before;
      expect(cold.areas.every((a) => a.state === 'ok')).toBe(true);
      expect(cold.buckets).toHaveLength(5);
      expect(compareCalls).toBeLessThanOrEqual(digestCalls);
      await compareAreas(market, AREAS);
      expect(rig.upstream() - before - compareCalls).toBeLessThanOrEqual(2);
    },
  );
});
