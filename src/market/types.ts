// What market data is read with and gives back: the client it needs, its options, and the shapes of its answers.
import type { ApiResult, BudgetLeft, CallOptions } from '../api/client.js';
import type { OperationName, ParamsOf, RecordOf } from '../api/operations.js';
import type { ListingSummary, Transaction } from '../api/records.js';

/** What MarketData needs of the API client (ApiClient has it). */
export interface MarketApi {
  call<Op extends OperationName>(
    operation: Op,
    params?: ParamsOf<Op>,
    options?: CallOptions,
  ): Promise<ApiResult<RecordOf<Op>>>;
  budgetLeft(): BudgetLeft;
}

export type TransactionType = 'sold' | 'rented';
export type TransactionPeriod = '1m' | '3m' | '6m' | '1y';

/** What narrows a period's transactions, as the service's parameters of the same names. */
export interface TransactionFilters {
  property_type?: string | undefined;
  /** A single bedroom count; `0` is studio. */
  bedrooms?: string | undefined;
}

/** One answer as the shared market cache keeps it: the pages read so far, and when the first was fetched. */
export interface SharedEntry {
  pages: unknown[][];
  totalItems?: number;
  totalPages?: number;
  done: boolean;
  fetchedAt: number;
}

/**
 * The second level behind the LRU: the store's market cache, read when the LRU misses and written as each page is
 * fetched, so the chat side, the delivery thread and other instances share what one of them fetched.
 */
export interface SharedMarketCache {
  get(key: string): Promise<SharedEntry | undefined>;
  put(key: string, entry: SharedEntry, ttlMs: number): Promise<void>;
}

export const DEFAULT_CACHE_HOURS = 6;
export const DEFAULT_MAX_PAGES = 8;

export interface MarketOptions {
  /** How long answers are used (MARKET_CACHE_H; default 6 h). */
  cacheTtlMs?: number;
  /** Pages read at most per period of transactions (DIGEST_MAX_PAGES; default 8). */
  maxPages?: number;
  /** Pages of newest listings read at most per search (sale, rent) for "new since" (default 2). */
  listingPages?: number;
  /** How long the newest listings are used: new ones arrive all day (default 15 min, at most cacheTtlMs). */
  listingTtlMs?: number;
  /** Pages of projects read (default 1: the newest). */
  projectPages?: number;
  /**
   * Card context: the oldest answer a listing card may use, and at most one fetch per area and kind this often
   * (default 24 h).
   */
  contextMaxAgeMs?: number;
  /**
   * Card context: pages of rented transactions a card may fetch (default maxPages: the whole period within the cap).
   */
  contextPages?: number;
  /** Card context fetches nothing when fewer calls than this are left today or this month (default 50). */
  contextMinCallsLeft?: number;
  /** The calls one area's digest is expected to cost when nothing is cached (default 10). */
  callsPerArea?: number;
  /** Answers kept at most (default 2000). */
  maxEntries?: number;
  /** Deadline of each call (default: the client's). */
  deadlineMs?: number;
  now?: () => number;
  /** The store's market cache, shared by every process and instance on the database (none: this process's LRU only). */
  shared?: SharedMarketCache;
  /** The shared cache failed: the answer is fetched (or kept) as if it were not there. */
  onSharedError?: (error: unknown) => void;
}

/** Counts the calls made on behalf of one use (a digest run, a card): pages requested, failed ones included. */
export class CallMeter {
  calls = 0;
  failed = 0;
  readonly byOperation: Record<string, number> = {};
  add(operation: string, ok: boolean): void {
    this.calls++;
    if (!ok) this.failed++;
    this.byOperation[operation] = (this.byOperation[operation] ?? 0) + 1;
  }
}

export interface Use {
  meter?: CallMeter;
  signal?: AbortSignal;
  /** Answers older than this are fetched again (default: the cache's TTL for the kind). */
  maxAgeMs?: number;
}

/**
 * A page a caller has already read of the same request (a transactions reply's table): a read of the period takes it
 * as that page instead of asking the service again. Used only when its parameters, the service's defaults filled in,
 * are the read's own.
 */
export interface KnownPage {
  params: Readonly<Record<string, string>>;
  result: { records: unknown[]; dropped: number; totalItems?: number; totalPages?: number };
}

/** What a read of pages gave. */
export interface Paged<T> {
  records: T[];
  /** Pages read (by this reader or earlier ones sharing the answer). */
  pages: number;
  /** Every page was read (the last was short or empty, or total_pages was reached). */
  complete: boolean;
  totalItems?: number;
  totalPages?: number;
  /** When the first page was fetched (ms). */
  fetchedAt: number;
}

export interface TransactionsResult extends Paged<Transaction> {
  /** The period's count: total_items when the service gives it, else the records read. */
  count: number;
  /** The page cap stopped the reading and the service gave no total: the count is a lower bound. */
  atLeast: boolean;
}

export interface NewListingsKind {
  /** Listings with a listed date at or after `since`. */
  listings: ListingSummary[];
  count: number;
  /** The page cap was hit while the listings were still newer than `since`. */
  atLeast: boolean;
  /** Listings read without a listed date (not counted). */
  undated: number;
}

export interface NewListings {
  sale: NewListingsKind;
  rent: NewListingsKind;
  fetchedAt: number;
}

export interface Coverage {
  ok: boolean;
  /** Calls the areas are expected to cost now (0 for what is cached). */
  needed: number;
  /** Calls left under the day's and month's limits; undefined when unlimited. */
  left?: number;
  reason?: string;
  /** When a wait (rate limit, open circuit) is the reason: how long. */
  retryInMs?: number;
}
