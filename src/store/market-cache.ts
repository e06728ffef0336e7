// The market data's answers kept in the database (src/market/data.ts reads them when its own LRU misses), so that the
// chat side, the delivery thread and other instances read what one of them already fetched.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { marketCache } from './schema.js';
import { marketCacheColumns, marketCacheHit, type MarketCacheEntry } from './state-and-cache-values.js';

export type { MarketCacheEntry } from './state-and-cache-values.js';

export interface SyncMarketCacheRepo {
  /** The entry kept under `key`, or undefined when missing or expired. */
  get(key: string): MarketCacheEntry | undefined;
  /**
   * Keeps the entry for `ttlMs` after its first page was fetched. It replaces what is kept unless that is the same
   * fetch with more pages read, so two readers of one answer never shorten it.
   */
  put(key: string, entry: MarketCacheEntry, ttlMs: number): void;
  /** Deletes expired entries; returns how many. */
  prune(): number;
}

/** When a put replaces the kept row: a newer fetch, or the same one with at least as many pages. */
const replacesKept = sql`excluded.fetched_at > ${marketCache.fetchedAt} or (excluded.fetched_at = ${marketCache.fetchedAt} and excluded.page_count >= ${marketCache.pageCount})`;

/** `service`: the property service's key; answers of one service are never served for another. */
export function createMarketCacheRepo(store: Store, now: () => number = Date.now, service = ''): SyncMarketCacheRepo {
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
