// Location autocomplete answers on Postgres, implementing ../contracts/caches.ts (which says what each method promises)
// as ../location-cache.ts does on SQLite: keyed by service and normalised query text, kept until they expire. A put is
// one upsert, so two instances caching the same query at once leave one entry, the later one.
import { and, desc, eq, lte } from 'drizzle-orm';
import type { LocationCacheRepo } from '../contracts/caches.js';
import { cachedAnswers, cacheEntry, cacheHit, normaliseQuery } from '../state-and-cache-values.js';
import type { PgStore } from './open.js';
import { locationCache } from './schema.js';

/** `service`: the property service's base URL; answers of one service are never served for another. */
export function createPgLocationCacheRepo(
  store: PgStore,
  now: () => number = Date.now,
  service = '',
): LocationCacheRepo {
  const { db } = store;
  return {
    async get(query) {
      const [row] = await db
        .select()
        .from(locationCache)
        .where(and(eq(locationCache.service, service), eq(locationCache.query, normaliseQuery(query))));
      return cacheHit(row, now());
    },

    async put(query, results, ttlMs) {
      const values = cacheEntry(results, now(), ttlMs);
      await db
        .insert(locationCache)
        .values({ service, query: normaliseQuery(query), ...values })
        .onConflictDoUpdate({ target: [locationCache.service, locationCache.query], set: values });
    },

    async answers(limit = 10_000) {
      const rows = await db
        .select({ results: locationCache.results })
        .from(locationCache)
        .where(eq(locationCache.service, service))
        .orderBy(desc(locationCache.fetchedAt))
        .limit(limit);
      return cachedAnswers(rows);
    },

    async prune() {
      const result = await db.delete(locationCache).where(lte(locationCache.expiresAt, now()));
      return result.rowCount ?? 0;
    },
  };
}
