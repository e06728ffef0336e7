// Location autocomplete answers kept across restarts, keyed by the normalised query text.
import { and, desc, eq, lte } from 'drizzle-orm';
import type { Store } from './db.js';
import { locationCache } from './schema.js';

export interface LocationCacheRepo {
  /** The cached results, or undefined when missing or expired. */
  get(query: string): { results: unknown; fetchedAt: number } | undefined;
  put(query: string, results: unknown, ttlMs: number): void;
  /**
   * Every answer kept for this service, expired or not (a name the lookup once answered is still a place), newest
   * first, at most `limit`: what the parser and "did you mean" learn place names from at start.
   */
  answers(limit?: number): unknown[];
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
      const row = db
        .select()
        .from(locationCache)
        .where(and(eq(locationCache.service, service), eq(locationCache.query, normaliseQuery(query))))
        .get();
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
    answers(limit = 10_000) {
      const rows = db
        .select({ results: locationCache.results })
        .from(locationCache)
        .where(eq(locationCache.service, service))
        .orderBy(desc(locationCache.fetchedAt))
        .limit(limit)
        .all();
      const out: unknown[] = [];
      for (const row of rows) {
        try {
          out.push(JSON.parse(row.results) as unknown);
        } catch {
          // A row that is not JSON teaches nothing; the next lookup replaces it.
        }
      }
      return out;
    },
    prune() {
      return db.delete(locationCache).where(lte(locationCache.expiresAt, now())).run().changes;
    },
  };
}
