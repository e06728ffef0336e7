// Fetching a search's results, and nothing else: no buttons, no replies, no state written.
// The bot presents what this returns; an alerts poller can use the same runner to fetch without touching UI state.
import type { ApiResult } from '../api/client.js';
import { operationSpec, type OperationName } from '../api/operations.js';
import type { Logger } from '../log.js';
import { toParams, type Query } from '../query/index.js';
import { ResultCache, type Freshness } from './result-cache.js';

/** The one thing a search needs of the API client. */
export interface ServiceCaller {
  call<Op extends OperationName>(operation: Op, params: Record<string, string>): Promise<ApiResult<unknown>>;
}

export interface AreaRef {
  id: number;
  name: string;
}

export interface SearchOutcome {
  operation: OperationName;
  params: Record<string, string>;
  result: ApiResult<unknown>;
}

/** The endpoint parameters of a query at a service page (the page is left out for operations without pages). */
export function searchParams(query: Query, location: AreaRef | undefined, page: number): Record<string, string> {
  const spec = operationSpec(query.operation);
  const params = { ...query.params };
  if (spec.firstPage !== undefined) params.page = String(page);
  return toParams({ ...query, params }, location?.id);
}

export interface SearchRunnerOptions {
  /** How long an answer is reused (paging back, Details twice). */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * When an alert last polled the listings this query's answer holds (the store's record: the poll may run in the
   * delivery thread or another instance), or undefined: an answer fetched before it is not reused.
   */
  lastPolled?: (operation: OperationName, params: Record<string, string>) => Promise<number | undefined>;
  /** Where a failure to read `lastPolled` is logged. */
  logger?: Logger;
}

/** How fresh an answer must be: `maxAgeMs` for a search typed anew (unset: the cache's TTL). */
export interface AskOptions {
  maxAgeMs?: number;
}

/**
 * Searches through a short-lived answer cache shared by concurrent askers. It also learns the longest page
 * the service sends per operation, because a page shorter than that is the last one.
 */
export class SearchRunner {
  private readonly results: ResultCache<ApiResult<unknown>>;
  private readonly longest = new Map<OperationName, number>();

  constructor(
    private readonly api: ServiceCaller,
    private readonly options: SearchRunnerOptions = {},
  ) {
    this.results = new ResultCache(options.ttlMs ?? 5 * 60_000, options.maxEntries ?? 500, options.now ?? Date.now);
  }

  async search(
    query: Query,
    location: AreaRef | undefined,
    page: number,
    ask: AskOptions = {},
  ): Promise<SearchOutcome> {
    const params = searchParams(query, location, page);
    const result = await this.fetch(query.operation, params, ask);
    if (operationSpec(query.operation).firstPage !== undefined) {
      this.longest.set(query.operation, Math.max(result.records.length, this.longest.get(query.operation) ?? 0));
    }
    return { operation: query.operation, params, result };
  }

  /**
   * Whether a page of the search has records; undefined when the service could not say (the failure is logged by the
   * client).
   */
  hasRecords(query: Query, location: AreaRef | undefined, page: number): Promise<boolean | undefined> {
    return this.search(query, location, page).then(
      (outcome) => outcome.result.records.length > 0,
      () => undefined,
    );
  }

  /** One answer of the service, cached; the key is the operation and its parameters. */
  fetch(op: OperationName, params: Record<string, string>, ask: AskOptions = {}): Promise<ApiResult<unknown>> {
    const { lastPolled, logger } = this.options;
    const changedAt = async () => {
      try {
        return await lastPolled?.(op, params);
      } catch (error) {
        // Unreadable: an answer held is not trusted, and the service is asked again.
        logger?.warn('last alert poll unreadable; asking the service again', { error });
        return Infinity;
      }
    };
    const fresh: Freshness = { ...ask, ...(lastPolled ? { changedAt } : {}) };
    return this.results.get(`${op}?${new URLSearchParams(params).toString()}`, () => this.api.call(op, params), fresh);
  }

  /**
   * Drops every held answer that lists this property (the service says it is gone): the next view of those pages asks
   * again, so the listing is not shown. How many answers were dropped.
   */
  forgetListing(propertyId: string): number {
    return this.results.drop((answer) =>
      answer.records.some((r) => (r as { property_id?: unknown }).property_id === propertyId),
    );
  }

  /** The longest service page seen for the operation so far (0 when none). */
  longestPage(op: OperationName): number {
    return this.longest.get(op) ?? 0;
  }

  /** Answers held in the cache now. */
  get cachedAnswers(): number {
    return this.results.size;
  }

  purgeExpired(): void {
    this.results.purgeExpired();
  }
}
