// The market data's answers kept in the database (src/market/data.ts reads them when its own LRU misses), so that the
// chat side, the delivery thread and other instances read what one of them already fetched.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { marketCache } from './schema.js';
import { marketCacheColumns, marketCacheHit } from './state-and-cache-values.js';
import type { MarketCacheRepo } from './contracts/caches.js';
import type { Synced } from './contracts/synced.js';

/** When a put replaces the kept row: a newer fetch, or the same one with at least as many pages. */
const replacesKept = sql`excluded.fetched_at > ${marketCache.fetchedAt} or (excluded.fetched_at = ${marketCache.fetchedAt} and excluded.page_count >= ${marketCache.pageCount})`;

/** `service`: the property service's key; answers of one service are never served for another. */
export function createMarketCacheRepo(
  store: Store,
  now: () => number = Date.now,
  service = '',
): Synced<MarketCacheRepo> {
  const { db } = store;
  return {
    get(key) {
      const row = db
        .select()
        .from(marketCache)
        .where(and(eq(marketCache.service, service), eq(marketCache.key, key)))
        .get();
      return marketCacheHit(row, now());
    },
    put(key, entry, ttlMs) {
      const values = marketCacheColumns(entry, ttlMs);
      db.insert(marketCache)
        .values({ service, key, ...values })
        .onConflictDoUpdate({ target: [marketCache.service, marketCache.key], set: values, setWhere: replacesKept })
        .run();
    },
    prune() {
      return db.delete(marketCache).where(lte(marketCache.expiresAt, now())).run().changes;
    },
  };
}
