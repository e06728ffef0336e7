// The market data's answers on Postgres, implementing ../contracts/caches.ts (which says what each method promises) as
// ../market-cache.ts does on SQLite. A put is one upsert, so two instances keeping one answer at once leave the longer.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { MarketCacheRepo } from '../contracts/caches.js';
import { marketCacheColumns, marketCacheHit } from '../state-and-cache-values.js';
import type { PgStore } from './open.js';
import { marketCache } from './schema.js';

const replacesKept = sql`excluded.fetched_at > ${marketCache.fetchedAt} or (excluded.fetched_at = ${marketCache.fetchedAt} and excluded.page_count >= ${marketCache.pageCount})`;

/** `service`: the property service's key; answers of one service are never served for another. */
export function createPgMarketCacheRepo(store: PgStore, now: () => number = Date.now, service = ''): MarketCacheRepo {
  const { db } = store;
  return {
    async get(key) {
      const [row] = await db
        .select()
        .from(marketCache)
        .where(and(eq(marketCache.service, service), eq(marketCache.key, key)));
      return marketCacheHit(row, now());
    },

    async put(key, entry, ttlMs) {
      const values = marketCacheColumns(entry, ttlMs);
      await db
        .insert(marketCache)
        .values({ service, key, ...values })
        .onConflictDoUpdate({ target: [marketCache.service, marketCache.key], set: values, setWhere: replacesKept });
    },

    async prune() {
      const result = await db.delete(marketCache).where(lte(marketCache.expiresAt, now()));
      return result.rowCount ?? 0;
    },
  };
}
