// Location autocomplete answers kept across restarts, keyed by the normalised query text.
import { and, desc, eq, lte } from 'drizzle-orm';
import type { Store } from './db.js';
import { locationCache } from './schema.js';
import { cachedAnswers, cacheEntry, cacheHit, normaliseQuery } from './state-and-cache-values.js';
import type { LocationCacheRepo } from './contracts/caches.js';
import type { Synced } from './contracts/synced.js';

export { normaliseQuery };

/** `service`: the property service's base URL; answers of one service are never served for another. */
export function createLocationCacheRepo(
  store: Store,
  now: () => number = Date.now,
  service = '',
): Synced<LocationCacheRepo> {
  const { db } = store;
  return {
    get(query) {
      const row = db
        .select()
        .from(locationCache)
        .where(and(eq(locationCache.service, service), eq(locationCache.query, normaliseQuery(query))))
        .get();
      return cacheHit(row, now());
    },
    put(query, results, ttlMs) {
      const values = cacheEntry(results, now(), ttlMs);
      db.insert(locationCache)
        .values({ service, query: normaliseQuery(query), ...values })
        .onConflictDoUpdate({ target: [locationCache.service, locationCache.query], set: values })
        .run();
    },
    answers(limit = 10_000) {
      const rows = db
        .select({ results: locationCache.results })
        .from(locationCache)
        .where(eq(locationCache.service, service))
        .orderBy(desc(locationCache.fetchedAt))
        .limit(limit)
        .all();
      return cachedAnswers(rows);
    },
    prune() {
      return db.delete(locationCache).where(lte(locationCache.expiresAt, now())).run().changes;
    },
  };
}
