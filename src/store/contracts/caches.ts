// The state behind buttons and the caches of the property service's answers, as both databases keep them (SQLite
// ../button-state.ts, ../location-cache.ts, ../market-cache.ts; Postgres ../pg/*.ts): written here, dialect-free, so
// neither implementation is the other's source. Each repository is built for one property service (its key, or
// 'sandbox'): what one service saved is never served for another. None is fenced: every method is one statement (or
// one transaction) whose last writer wins, which is all a cache needs.

/** One market answer as the market cache keeps it: the pages read so far, and when the first was fetched. */
export interface MarketCacheEntry {
  pages: unknown[][];
  totalItems?: number;
  totalPages?: number;
  /** Every page was read. */
  done: boolean;
  fetchedAt: number;
}

/** The state behind chat buttons: a short random token in the button, the payload in the database. */
export interface ButtonStateRepo {
  /**
   * Stores the payload (JSON) and answers its token: 22 url-safe characters. `scope`: the conversation it is posted in
   * (the bot's `scopeOf(channel)`); pressed anywhere else it does nothing. The same kind and payload saved again in the
   * same scope answer the same token (the row is marked used now): an identical reply writes no new row.
   */
  save(kind: string, payload: unknown, scope?: string): Promise<string>;
  /**
   * The saved state, marked used now; undefined for a malformed, unknown or pruned token, one saved under another
   * service, or one saved in another scope than `scope` (no scope: any).
   */
  load(token: string, scope?: string): Promise<{ kind: string; payload: unknown } | undefined>;
  /** Deletes states not used for `olderThanMs`; answers how many (0 when none). */
  prune(olderThanMs: number): Promise<number>;
}

/** Location autocomplete answers keyed by the normalised query ("Dubai  MARINA" is "dubai marina"). */
export interface LocationCacheRepo {
  /** The cached results and when they were fetched; undefined when missing or expired. */
  get(query: string): Promise<{ results: unknown; fetchedAt: number } | undefined>;
  /** Keeps the results for `ttlMs` from now, replacing what the query had. */
  put(query: string, results: unknown, ttlMs: number): Promise<void>;
  /**
   * Every answer kept for this service, expired or not (a name the lookup once answered is still an area), newest
   * first, at most `limit` (10 000 when not given); rows that are not JSON are left out; empty when none.
   */
  answers(limit?: number): Promise<unknown[]>;
  /** Deletes expired entries; answers how many (0 when none). */
  prune(): Promise<number>;
}

/** The market data's answers, shared by every process and instance on the database. */
export interface MarketCacheRepo {
  /** The entry kept under `key`; undefined when missing, expired or damaged. */
  get(key: string): Promise<MarketCacheEntry | undefined>;
  /**
   * Keeps the entry for `ttlMs` after its first page was fetched. It replaces what is kept unless that is the same
   * fetch with more pages read, so two readers of one answer never shorten it.
   */
  put(key: string, entry: MarketCacheEntry, ttlMs: number): Promise<void>;
  /** Deletes expired entries; answers how many (0 when none). */
  prune(): Promise<number>;
}
