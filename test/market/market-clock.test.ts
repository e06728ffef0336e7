// An answer's age is counted on the market's clock MarketData is given (the sandbox's market time in the demo): a
// repeat within MARKET_CACHE_H of market time costs nothing, one past it reads again, and an answer fetched in the
// market's future (a market started afresh behind it) is not used. Counted at the sandbox.
import { describe, expect, it } from 'vitest';
import { marketRig } from './helpers.js';

const HOUR = 3_600_000;

describe('the market cache on the market clock', () => {
  it('ages answers on the clock it is given, and never uses one from that clock’s future', async () => {
    let at = Date.parse('2026-11-20T08:00:00Z');
    const rig = await marketRig({ market: { now: () => at, cacheTtlMs: 6 * HOUR } });
    const read = async () => {
      const before = rig.upstream();
      await rig.market.transactions(50, 'sold', '1m');
      return rig.upstream() - before;
    };
    expect(await read()).toBeGreaterThan(0);
    at += 5 * HOUR;
    expect(await read()).toBe(0);
    at += 2 * HOUR; // 7 market hours after the fetch: past the 6 h
    expect(await read()).toBeGreaterThan(0);
    at -= 24 * HOUR; // the market started again a day behind: the answer describes its future
    expect(await read()).toBeGreaterThan(0);
    expect(await read()).toBe(0);
  });
});
