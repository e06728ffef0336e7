// Market data per area, read from the service once and shared: every page of a period's transactions (within a
// page cap), the price trend, the newest off-plan projects and listings. Answers are kept in one LRU for hours
// (MARKET_CACHE_H), keyed by operation and parameters; concurrent readers of the same thing share its calls, so ten
// channels following one area cost one set. Each reader can carry a CallMeter that counts the calls it caused.
// Behind the LRU, the store's market cache (`shared`) holds the same answers for every process and instance.
// An answer's age is on the market's clock (`now`: the wall clock on the real service, the sandbox's market time on
// the sandbox), so a figure is as fresh as the market it describes: a demo's moving market outdates it as fast.
import { LRUCache } from 'lru-cache';
import type { BudgetLeft, CallOptions } from '../api/client.js';
import { OPERATIONS, type OperationName, type ParamsOf } from '../api/operations.js';
import type { ListingSummary, NewProject, PriceTrendPoint, Transaction } from '../api/records.js';
import { listingFacts, rentContext, saleContext, trendFigures, type ListingContext } from './figures.js';
import {
  DEFAULT_CACHE_HOURS,
  DEFAULT_MAX_PAGES,
  type Coverage,
  type KnownPage,
  type MarketApi,
  type MarketOptions,
  type NewListings,
  type NewListingsKind,
  type Paged,
  type TransactionFilters,
  type TransactionPeriod,
  type TransactionsResult,
  type TransactionType,
  type Use,
} from './types.js';
import { freshAt, keyOf, sameRequest, uniqueBy } from './keys.js';
import { StoreLevel, type Entry } from './store-level.js';

/** Calls expected per part of a digest when not cached: sold, rented, trend, projects, sale and rent listings. */
const PART_CALLS = { sold: 2, rented: 2, trend: 1, projects: 1, sale: 2, rent: 2 } as const;

export class MarketData {
  private readonly cache: LRUCache<string, Entry>;
  /** Card context fetches, per area and kind: at most one per contextMaxAgeMs. */
  private readonly contextFetches: LRUCache<string, number>;
  /** The largest page seen per operation: a page shorter than it is the last. */
  private readonly pageSize = new Map<string, number>();
  private readonly now: () => number;
  readonly ttlMs: number;
  readonly maxPages: number;
  private readonly listingPages: number;
  private readonly listingTtlMs: number;
  private readonly projectPages: number;
  private readonly contextMaxAgeMs: number;
  private readonly contextPages: number;
  private readonly contextMinCallsLeft: number;
  readonly callsPerArea: number;
  private readonly deadlineMs: number | undefined;
  /** The store's market cache behind the LRU, when there is one. */
  private readonly shared: StoreLevel | undefined;
  private hits = 0;
  private misses = 0;
  private calls = 0;

  constructor(
    private readonly api: MarketApi,
    options: MarketOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.cacheTtlMs ?? DEFAULT_CACHE_HOURS * 3_600_000;
    this.maxPages = Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES);
    this.listingPages = Math.max(1, options.listingPages ?? 2);
    this.listingTtlMs = Math.min(options.listingTtlMs ?? 15 * 60_000, this.ttlMs);
    this.projectPages = Math.max(1, options.projectPages ?? 1);
    this.contextMaxAgeMs = options.contextMaxAgeMs ?? 24 * 3_600_000;
    // A card's median rent is the period's: every page of it within the cap, as digests and transactions replies read
    // it.
    this.contextPages = Math.max(1, options.contextPages ?? this.maxPages);
    this.contextMinCallsLeft = options.contextMinCallsLeft ?? 50;
    this.callsPerArea = options.callsPerArea ?? Object.values(PART_CALLS).reduce((a, b) => a + b, 0);
    this.deadlineMs = options.deadlineMs;
    this.shared = options.shared
      ? new StoreLevel(options.shared, options.onSharedError ?? (() => {}), this.now)
      : undefined;
    // ttlResolution 0: read the clock on every check, so an injected clock is obeyed exactly.
    const perf = { now: this.now };
    this.cache = new LRUCache<string, Entry>({
      max: options.maxEntries ?? 2000,
      ttl: Math.max(this.ttlMs, this.contextMaxAgeMs),
      ttlResolution: 0,
      perf,
    });
    this.contextFetches = new LRUCache<string, number>({
      max: options.maxEntries ?? 2000,
      ttl: this.contextMaxAgeMs,
      ttlResolution: 0,
      perf,
    });
  }

  /**
   * Every page of a period's sold or rented transactions, newest first, within the page cap; `filters` narrow it as a
   * search does (a property type, a bedroom count), each narrowing being an answer of its own in the cache.
   */
  async transactions(
    locationId: string | number,
    type: TransactionType,
    period: TransactionPeriod,
    use: Use & { maxPages?: number; filters?: TransactionFilters; known?: KnownPage } = {},
  ): Promise<TransactionsResult> {
    const filters = Object.fromEntries(
      Object.entries(use.filters ?? {}).filter(([, v]) => v !== undefined && v !== ''),
    );
    const read = await this.read(
      'get-get-transactions',
      { ...filters, location_id: String(locationId), transaction_type: type, period, sort: 'newest' },
      {
        maxPages: use.maxPages ?? this.maxPages,
        maxAgeMs: use.maxAgeMs ?? this.ttlMs,
        use,
        ...(use.known ? { known: use.known } : {}),
      },
    );
    const records = uniqueBy(read.records as Transaction[], (t) => t.id);
    const count = Math.max(read.totalItems ?? 0, records.length);
    return { ...read, records, count, atLeast: !read.complete && read.totalItems === undefined };
  }

  /** The price trend's points (the service's 1Y series, per bedroom_id), for a property type (default apartment). */
  async trend(
    locationId: string | number,
    use: Use = {},
    propertyType = 'apartment',
  ): Promise<{ points: PriceTrendPoint[]; fetchedAt: number; propertyType: string }> {
    const params: Record<string, string> = { location_id: String(locationId) };
    // The service's default type is apartment: not sent, so its answer and ours share one cache entry.
    if (propertyType !== 'apartment') params.property_type = propertyType;
    const read = await this.read('price-trend-of-location', params, {
      maxPages: 1,
      maxAgeMs: use.maxAgeMs ?? this.ttlMs,
      use,
    });
    return { points: read.records as PriceTrendPoint[], fetchedAt: read.fetchedAt, propertyType };
  }

  /** The area's off-plan projects, newest sales launch first (projectPages pages). */
  async newProjects(locationId: string | number, use: Use = {}): Promise<Paged<NewProject> & { atLeast: boolean }> {
    const read = await this.read(
      'search-new-projects',
      { location_id: String(locationId), sort: 'newest' },
      { maxPages: this.projectPages, maxAgeMs: use.maxAgeMs ?? this.ttlMs, use },
    );
    const records = uniqueBy(read.records as NewProject[], (p) => p.listing_id);
    return { ...read, records, atLeast: !read.complete };
  }

  /** Listings for sale and for rent listed since `since`, from the newest pages (listingPages each). */
  async newListings(locationId: string | number, since: Date | number, use: Use = {}): Promise<NewListings> {
    const from = typeof since === 'number' ? since : since.getTime();
    const [sale, rent] = await Promise.all(
      (['search-buy', 'search-rent'] as const).map((op) => this.newOf(op, String(locationId), from, use)),
    );
    return { sale: sale!.kind, rent: rent!.kind, fetchedAt: Math.min(sale!.fetchedAt, rent!.fetchedAt) };
  }

  /**
   * The newest listings for sale or for rent narrowed to a type and a bedroom count (listingPages pages), for a value
   * estimate: kept as long as the other market answers, since what a home is worth does not move by the hour.
   */
  async listings(
    locationId: string | number,
    kind: 'sale' | 'rent',
    filters: { property_type: string; bedrooms: string },
    use: Use = {},
  ): Promise<Paged<ListingSummary>> {
    const read = await this.read(
      kind === 'sale' ? 'search-buy' : 'search-rent',
      { ...filters, location_id: String(locationId), sort: 'newest' },
      { maxPages: this.listingPages, maxAgeMs: use.maxAgeMs ?? this.ttlMs, use },
    );
    return { ...read, records: uniqueBy(read.records as ListingSummary[], (l) => l.property_id) };
  }

  private async newOf(
    op: 'search-buy' | 'search-rent',
    locationId: string,
    since: number,
    use: Use,
  ): Promise<{ kind: NewListingsKind; fetchedAt: number }> {
    const listedAt = (l: ListingSummary) =>
      typeof l.listed_date === 'string' ? Date.parse(l.listed_date) : Number.NaN;
    // Newest first: once a page reaches a listing older than `since`, later pages hold only older ones.
    // Undated listings cannot say: then the first page is all there is to read.
    const enough = (records: unknown[]) => {
      const dated = (records as ListingSummary[]).map(listedAt).filter(Number.isFinite);
      return dated.length === 0 ? records.length > 0 : dated.some((t) => t < since);
    };
    const read = await this.read(
      op,
      { location_id: locationId, sort: 'newest' },
      { maxPages: this.listingPages, maxAgeMs: use.maxAgeMs ?? this.listingTtlMs, enough, use },
    );
    const all = uniqueBy(read.records as ListingSummary[], (l) => l.property_id);
    const listings = all.filter((l) => listedAt(l) >= since);
    const undated = all.filter((l) => !Number.isFinite(listedAt(l))).length;
    return {
      kind: { listings, count: listings.length, atLeast: !read.complete && !enough(read.records), undated },
      fetchedAt: read.fetchedAt,
    };
  }

  /**
   * How many listings are live now for sale or for rent (of a bedroom count when given), from the first page (one call,
   * so that a compare costs no more than a digest): `atLeast` when there are more.
   */
  async liveListings(
    locationId: string | number,
    kind: 'sale' | 'rent',
    use: Use & { bedrooms?: number } = {},
  ): Promise<{ count: number; atLeast: boolean; fetchedAt: number }> {
    const params: Record<string, string> = { location_id: String(locationId) };
    if (use.bedrooms !== undefined) params.bedrooms = String(use.bedrooms);
    const op = kind === 'sale' ? 'search-buy' : 'search-rent';
    const read = await this.read(op, params, {
      maxPages: 1,
      maxAgeMs: use.maxAgeMs ?? this.listingTtlMs,
      use,
    });
    const count = uniqueBy(read.records as ListingSummary[], (l) => l.property_id).length;
    return { count, atLeast: !read.complete, fetchedAt: read.fetchedAt };
  }

  /**
   * Where a listing stands against its place, for a card: a sale against the latest trend price of its bedroom count,
   * a rent against the median annual rent of its bedroom count over the last 30 days. From the shared cache (answers up
   * to contextMaxAgeMs old); fetched only when none is there, at most once per area and kind per contextMaxAgeMs, and
   * not when the budget is low. Undefined when there is nothing to compare with, rather than a guess.
   */
  async listingContext(
    area: { id: string | number; name: string },
    listing: ListingSummary,
    use: Use & { kind?: 'sale' | 'rent' } = {},
  ): Promise<ListingContext | undefined> {
    const facts = listingFacts(listing, use.kind);
    if (!facts) return undefined;
    const id = String(area.id);
    const maxAgeMs = this.contextMaxAgeMs;
    try {
      if (facts.kind === 'sale') {
        if (
          !this.mayFetchContext('trend', id, () =>
            this.isCached('price-trend-of-location', { location_id: id }, maxAgeMs),
          )
        )
          return undefined;
        const trend = await this.trend(id, { ...use, maxAgeMs });
        return saleContext(facts, trendFigures(trend.points, trend.propertyType), area.name);
      }
      const params = { location_id: id, transaction_type: 'rented', period: '1m', sort: 'newest' };
      if (!this.mayFetchContext('rented', id, () => this.isCached('get-get-transactions', params, maxAgeMs)))
        return undefined;
      const rented = await this.transactions(id, 'rented', '1m', { ...use, maxAgeMs, maxPages: this.contextPages });
      const cut = rented.atLeast || rented.records.length < rented.count;
      return rentContext(facts, rented.records, area.name, cut ? { recent: rented.records.length } : {});
    } catch {
      return undefined;
    }
  }

  /** Whether a card may use or fetch an answer: cached, or a fetch allowed (once per period, with budget to spare). */
  private mayFetchContext(kind: string, id: string, cached: () => boolean): boolean {
    if (cached()) return true;
    const key = `${kind}:${id}`;
    if (this.contextFetches.has(key)) return false;
    const left = this.callsLeft();
    const budget = this.api.budgetLeft();
    if (budget.blockedForMs > 0 || (left !== undefined && left < this.contextMinCallsLeft)) return false;
    this.contextFetches.set(key, this.now());
    return true;
  }

  /** Calls one area's digest is expected to cost now: the parts not cached cost their usual pages. */
  estimateCalls(locationId: string | number): number {
    const id = String(locationId);
    const fresh = (op: OperationName, params: Record<string, string>, maxAgeMs = this.ttlMs) =>
      this.isCached(op, params, maxAgeMs);
    let n = 0;
    for (const type of ['sold', 'rented'] as const) {
      // A period a card read only the first page of still costs its other pages.
      if (
        !this.isCached(
          'get-get-transactions',
          { location_id: id, transaction_type: type, period: '1m', sort: 'newest' },
          this.ttlMs,
          this.maxPages,
        )
      )
        n += PART_CALLS[type];
    }
    if (!fresh('price-trend-of-location', { location_id: id })) n += PART_CALLS.trend;
    if (!fresh('search-new-projects', { location_id: id, sort: 'newest' })) n += PART_CALLS.projects;
    if (!fresh('search-buy', { location_id: id, sort: 'newest' }, this.listingTtlMs)) n += PART_CALLS.sale;
    if (!fresh('search-rent', { location_id: id, sort: 'newest' }, this.listingTtlMs)) n += PART_CALLS.rent;
    return Math.round((n * this.callsPerArea) / 10);
  }

  /** Whether the budget can cover these areas' digests now; when not, why, so the caller can postpone. */
  coverage(locationIds: readonly (string | number)[]): Coverage {
    const needed = locationIds.reduce<number>((sum, id) => sum + this.estimateCalls(id), 0);
    const budget = this.api.budgetLeft();
    const left = this.callsLeft(budget);
    const base = { needed, ...(left !== undefined ? { left } : {}) };
    if (needed === 0) return { ok: true, ...base };
    if (budget.breakerOpenForMs !== undefined && budget.breakerOpenForMs > 0) {
      return {
        ok: false,
        ...base,
        reason: 'the property service failed repeatedly and is not being called for now',
        retryInMs: budget.breakerOpenForMs,
      };
    }
    if (left !== undefined && left < needed) {
      return {
        ok: false,
        ...base,
        reason: `about ${needed} calls are needed and ${left} are left under the call budget`,
        ...(Number.isFinite(budget.blockedForMs) && budget.blockedForMs > 0 ? { retryInMs: budget.blockedForMs } : {}),
      };
    }
    // A wait the client would not sit through (a full minute window, a long Retry-After, a closed client).
    if (budget.blockedForMs > 60_000) {
      return {
        ok: false,
        ...base,
        reason: 'the call budget or the service asks to wait',
        ...(Number.isFinite(budget.blockedForMs) ? { retryInMs: budget.blockedForMs } : {}),
      };
    }
    return { ok: true, ...base };
  }

  stats(): { entries: number; hits: number; misses: number; calls: number; sharedHits: number } {
    return {
      entries: this.cache.size,
      hits: this.hits,
      misses: this.misses,
      calls: this.calls,
      sharedHits: this.shared?.hits ?? 0,
    };
  }

  private callsLeft(budget: BudgetLeft = this.api.budgetLeft()): number | undefined {
    const limits = [budget.day, budget.month].filter((n): n is number => n !== undefined);
    return limits.length === 0 ? undefined : Math.min(...limits);
  }

  /** Whether an answer is cached and at most maxAgeMs old (with `pages`: complete, or that many pages read). */
  private isCached(op: OperationName, params: Record<string, string>, maxAgeMs: number, pages = 1): boolean {
    const e = this.cache.get(keyOf(op, params), { updateAgeOnGet: false });
    return (
      e !== undefined &&
      (e.done || e.pages.length >= pages) &&
      e.pages.length > 0 &&
      freshAt(this.now(), e.fetchedAt, maxAgeMs)
    );
  }

  /**
   * Reads an answer's pages into its shared entry until it is complete, `enough` says so, or maxPages are read.
   * An entry older than maxAgeMs is replaced by a fresh one; a failed page is not kept (the next reader tries again).
   */
  private async read(
    op: OperationName,
    params: Record<string, string>,
    o: { maxPages: number; maxAgeMs: number; enough?: (records: unknown[]) => boolean; use: Use; known?: KnownPage },
  ): Promise<Paged<unknown>> {
    const key = keyOf(op, params);
    let entry = this.cache.get(key);
    if (entry && (!freshAt(this.now(), entry.fetchedAt, o.maxAgeMs) || (entry.pages.length === 0 && !entry.loading)))
      entry = undefined;
    if (entry) this.hits++;
    else {
      this.misses++;
      entry = { op, params, pages: [], done: false, fetchedAt: this.now() };
      this.cache.set(key, entry);
      // Readers that come meanwhile wait for the store's answer as they would for a page.
      if (this.shared) {
        const e = entry;
        e.loading = this.shared
          .fill(e, key, o.maxAgeMs)
          .then((largest) => {
            if (largest) this.pageSize.set(e.op, Math.max(this.pageSize.get(e.op) ?? 0, largest));
          })
          .finally(() => (e.loading = undefined));
      }
    }
    const flat = (e: Entry) => e.pages.flat();
    while (!entry.done && entry.pages.length < o.maxPages && !(entry.pages.length > 0 && o.enough?.(flat(entry)))) {
      await this.nextPage(entry, key, o.use, o.known);
    }
    return {
      records: flat(entry),
      pages: entry.pages.length,
      complete: entry.done,
      fetchedAt: entry.fetchedAt,
      ...(entry.totalItems !== undefined ? { totalItems: entry.totalItems } : {}),
      ...(entry.totalPages !== undefined ? { totalPages: entry.totalPages } : {}),
    };
  }

  /**
   * The entry's next page: the one under way when another reader asked first, the page this reader already has of the
   * same request, else a call charged to this reader.
   */
  private nextPage(entry: Entry, key: string, use: Use, known?: KnownPage): Promise<void> {
    if (entry.loading) return entry.loading;
    const spec = OPERATIONS[entry.op];
    const paged = 'firstPage' in spec;
    const page = (paged ? spec.firstPage : 1) + entry.pages.length;
    const params = paged ? { ...entry.params, page: String(page) } : entry.params;
    const options: CallOptions = {
      ...(this.deadlineMs !== undefined ? { deadlineMs: this.deadlineMs } : {}),
      ...(use.signal ? { signal: use.signal } : {}),
    };
    const had = known && sameRequest(entry.op, known.params, params) ? known.result : undefined;
    if (!had) this.calls++;
    const loading = (had ? Promise.resolve(had) : this.api.call(entry.op, params as ParamsOf<typeof entry.op>, options))
      .then(
        (result) => {
          if (!had) use.meter?.add(entry.op, true);
          const length = result.records.length + result.dropped;
          const largest = Math.max(this.pageSize.get(entry.op) ?? 0, length);
          this.pageSize.set(entry.op, largest);
          if (entry.pages.length === 0) entry.fetchedAt = this.now();
          entry.pages.push(result.records);
          if (result.totalItems !== undefined) entry.totalItems = result.totalItems;
          if (result.totalPages !== undefined) entry.totalPages = result.totalPages;
          // The last page: not paged, empty, past total_pages, or shorter than the largest page seen of this operation.
          entry.done =
            !paged ||
            length === 0 ||
            (entry.totalPages !== undefined && entry.pages.length >= entry.totalPages) ||
            length < largest;
          // Kept before the readers go on, so another process asking next finds it.
          return this.shared?.keep(entry, key, this.cache.ttl);
        },
        (error: unknown) => {
          use.meter?.add(entry.op, false);
          if (entry.pages.length === 0 && this.cache.get(key, { updateAgeOnGet: false }) === entry)
            this.cache.delete(key);
          throw error;
        },
      )
      .finally(() => {
        entry.loading = undefined;
      });
    entry.loading = loading;
    return loading;
  }
}
