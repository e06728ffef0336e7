// A short-lived cache of API answers, so paging back and forth or pressing Details twice does not bill again.
// A real LRU with a TTL (lru-cache): at most `maxEntries` answers, each for `ttlMs`; expired ones are dropped
// whenever a new answer is stored, so memory follows use, not uptime. Concurrent identical requests share one call.
// Each answer keeps when its call started, so an asker can refuse one older than what it knows (Freshness).
import { LRUCache } from 'lru-cache';

/** What an asker knows that may make a held answer too old to use. */
export interface Freshness {
  /** An answer whose call started longer ago than this is asked again (a search typed anew). */
  maxAgeMs?: number;
  /**
   * When the answer last changed as far as Manzil knows (an alert poll of the same query); an answer whose call started
   * at or before it is asked again. Read only when an answer is held.
   */
  changedAt?: () => Promise<number | undefined>;
}

interface Held<T> {
  /** When its call started. */
  at: number;
  value: T;
}

export class ResultCache<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, Held<T>>;
  private readonly inFlight = new Map<string, Held<Promise<T>>>();

  constructor(
    ttlMs: number,
    maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {
    // ttlResolution 0: read the clock on every check, so an injected clock is obeyed exactly.
    this.entries = new LRUCache<string, Held<T>>({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now } });
  }

  /** Answers held now, expired ones excluded. */
  get size(): number {
    this.entries.purgeStale();
    return this.entries.size;
  }

  async get(key: string, load: () => Promise<T>, fresh: Freshness = {}): Promise<T> {
    let changed: Promise<number | undefined> | undefined;
    const usable = async (held: { at: number }) => {
      if (fresh.maxAgeMs !== undefined && this.now() - held.at > fresh.maxAgeMs) return false;
      if (!fresh.changedAt) return true;
      const at = await (changed ??= fresh.changedAt());
      return at === undefined || held.at > at;
    };
    const stored = this.entries.get(key);
    if (stored !== undefined && (await usable(stored))) return stored.value;
    const pending = this.inFlight.get(key);
    if (pending && (await usable(pending))) return pending.value;
    const started = this.now();
    const held: Held<Promise<T>> = {
      at: started,
      value: load()
        .then((value) => {
          this.entries.purgeStale();
          // A newer answer stored meanwhile (a later asker's call) is kept.
          if ((this.entries.get(key)?.at ?? -Infinity) <= started) this.entries.set(key, { at: started, value });
          return value;
        })
        .finally(() => {
          if (this.inFlight.get(key) === held) this.inFlight.delete(key);
        }),
    };
    this.inFlight.set(key, held);
    return held.value;
  }

  /**
   * Drops every answer held that `matches` (a listing found gone): the next asker calls again. How many were dropped.
   */
  drop(matches: (value: T) => boolean): number {
    const keys = [...this.entries.entries()].filter(([, held]) => matches(held.value)).map(([key]) => key);
    for (const key of keys) this.entries.delete(key);
    return keys.length;
  }

  /** Drops expired answers; for a maintenance timer. */
  purgeExpired(): void {
    this.entries.purgeStale();
  }
}
