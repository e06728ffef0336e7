// Location autocomplete answers kept across restarts, keyed by the normalised query text.
import { and, eq, lte } from 'drizzle-orm';
import type { Store } from './db.js';
import { locationCache } from './schema.js';

export interface LocationCacheRepo {
  /** The cached results, or undefined when missing or expired. */
  get(query: string): { results: unknown; fetchedAt: number } | undefined;
  put(query: string, results: unknown, ttlMs: number): void;
  /** Deletes expired entries; returns how many. */
  prune(): number;
}

/** "  Dubai   MARINA " and "dubai marina" are one entry. */
export const normaliseQuery = (query: string) => query.trim().toLowerCase().replace(/\s+/g, ' ');

/** `service`: the property service's base URL; answers of one service are never served for another. */
export function createLocationCacheRepo(store: Store, now: () => number = Date.now, service = ''): LocationCacheRepo {
  const { db } = store;
  return {
    get(query) {
      const row = db.select().from(locationCache).where(and(eq(locationCache.service, service), eq(locationCache.query, normaliseQuery(query)))).get();
      if (!row || row.expiresAt <= now()) return undefined;
      return { results: JSON.parse(row.results) as unknown, fetchedAt: row.fetchedAt };
    },
    put(query, results, ttlMs) {
      const at = now();
      const values = { results: JSON.stringify(results ?? null), fetchedAt: at, expiresAt: at + ttlMs };
      db.insert(locationCache)
        .values({ service, query: normaliseQuery(query), ...values })
        .onConflictDoUpdate({ target: [locationCache.service, locationCache.query], set: values })
        .run();
    },
    prune() {
      return db.delete(locationCache).where(lte(locationCache.expiresAt, now())).run().changes;
    },
  };
}
