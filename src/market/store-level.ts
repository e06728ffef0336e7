// The second level behind MarketData's LRU: the store's market cache, which every process and instance on the
// database shares, so the chat side reads what the delivery thread or another instance already fetched. A failure
// here costs only the sharing: the answer is fetched from the service as it would be without it.
import type { OperationName } from '../api/operations.js';
import type { SharedMarketCache } from './types.js';
import { freshAt } from './keys.js';

/** One answer being read page by page, shared by every reader of it. */
export interface Entry {
  op: OperationName;
  params: Record<string, string>;
  pages: unknown[][];
  totalItems?: number;
  totalPages?: number;
  done: boolean;
  fetchedAt: number;
  /** The next page under way, awaited by every reader that wants it. */
  loading?: Promise<void>;
}

export class StoreLevel {
  /** Answers found in the store after the LRU missed. */
  hits = 0;

  constructor(
    private readonly store: SharedMarketCache,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number,
  ) {}

  /**
   * Fills a new entry from the store when it holds the answer at most maxAgeMs old. Returns the largest page it brought
   * (so the reader knows a shorter page is the last), or undefined when it brought none.
   */
  async fill(entry: Entry, key: string, maxAgeMs: number): Promise<number | undefined> {
    try {
      const kept = await this.store.get(key);
      if (!kept || kept.pages.length === 0 || !freshAt(this.now(), kept.fetchedAt, maxAgeMs)) return undefined;
      this.hits++;
      Object.assign(entry, { pages: kept.pages, done: kept.done, fetchedAt: kept.fetchedAt });
      if (kept.totalItems !== undefined) entry.totalItems = kept.totalItems;
      if (kept.totalPages !== undefined) entry.totalPages = kept.totalPages;
      return Math.max(0, ...kept.pages.map((p) => p.length));
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  /** Writes the entry's pages to the store, to be kept ttlMs. */
  async keep(entry: Entry, key: string, ttlMs: number): Promise<void> {
    const { pages, done, fetchedAt, totalItems, totalPages } = entry;
    const kept = {
      pages,
      done,
      fetchedAt,
      ...(totalItems !== undefined ? { totalItems } : {}),
      ...(totalPages !== undefined ? { totalPages } : {}),
    };
    await this.store.put(key, kept, ttlMs).catch(this.onError);
  }
}
