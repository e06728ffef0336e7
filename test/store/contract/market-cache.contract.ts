// The market cache's contract (src/store/market-cache.ts and its Postgres twin), through the port only, so it runs the
// same on SQLite and on Postgres (market-cache.test.ts): what another process or instance reads of what one fetched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketCacheRepo } from '../../../src/store/contracts/caches.js';

type Clock = () => number;

export interface MarketCacheDatabase {
  marketCache(now?: Clock, service?: string): MarketCacheRepo;
  /** Another connection to the same database, as a second instance has. */
  connect(): Promise<{ marketCache(now?: Clock, service?: string): MarketCacheRepo; close(): Promise<void> }>;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
const SERVICE = 'https://api.example';
const KEY = 'get-get-transactions?location_id=50&period=3m&sort=newest&transaction_type=sold';
const page = (n: number) => [{ id: `t${n}`, amount: 1_000_000 + n }];

export function marketCacheContract(open: () => Promise<MarketCacheDatabase>): void {
  let db: MarketCacheDatabase | undefined;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
  let t = Date.UTC(2026, 10, 24, 9);
  const now = () => t;

  describe('market cache', () => {
    it('answers what one connection kept on another, pages and totals as they were; an unknown key misses', async () => {
      t = Date.UTC(2026, 10, 24, 9);
      const entry = { pages: [page(1), page(2)], totalItems: 2, totalPages: 2, done: true, fetchedAt: t };
      await db!.marketCache(now, SERVICE).put(KEY, entry, 6 * HOUR);
      const other = await db!.connect();
      expect(await other.marketCache(now, SERVICE).get(KEY)).toEqual(entry);
      expect(await other.marketCache(now, SERVICE).get(`${KEY}&bedrooms=2`)).toBeUndefined();
      const partial = { pages: [page(1)], done: false, fetchedAt: t };
      await other.marketCache(now, SERVICE).put('search-buy?location_id=50', partial, HOUR);
      expect(await db!.marketCache(now, SERVICE).get('search-buy?location_id=50')).toEqual(partial);
      await other.close();
    });

    it('never shortens an answer with an earlier reader of the same fetch; a newer fetch replaces it', async () => {
      t = Date.UTC(2026, 10, 24, 9);
      const cache = db!.marketCache(now, SERVICE);
      const fetchedAt = t;
      await cache.put(KEY, { pages: [page(1), page(2), page(3)], done: true, fetchedAt }, 6 * HOUR);
      await cache.put(KEY, { pages: [page(1)], done: false, fetchedAt }, 6 * HOUR);
      expect((await cache.get(KEY))?.pages).toHaveLength(3);
      t += HOUR;
      await cache.put(KEY, { pages: [page(9)], done: false, fetchedAt: t }, 6 * HOUR);
      expect(await cache.get(KEY)).toEqual({ pages: [page(9)], done: false, fetchedAt: t });
    });

    it('expires by the clock, keeps each service apart, and prune removes only the expired', async () => {
      t = Date.UTC(2026, 10, 24, 9);
      const cache = db!.marketCache(now, SERVICE);
      await cache.put(KEY, { pages: [page(1)], done: true, fetchedAt: t }, HOUR);
      expect(await db!.marketCache(now, 'sandbox').get(KEY)).toBeUndefined();
      t += HOUR - 1;
      expect(await cache.get(KEY)).toBeDefined();
      await cache.put('other', { pages: [page(2)], done: true, fetchedAt: t }, HOUR);
      t += 1;
      expect(await cache.get(KEY)).toBeUndefined();
      expect(await cache.prune()).toBe(1);
      expect(await cache.get('other')).toBeDefined();
      expect(await cache.prune()).toBe(0);
    });
  });
}
