// A short-lived cache of API answers, so paging back and forth or pressing Details twice does not bill again.
// A real LRU with a TTL (lru-cache): at most `maxEntries` answers, each for `ttlMs`; expired ones are dropped
// whenever a new answer is stored, so memory follows use, not uptime. Concurrent identical requests share one call.
import { LRUCache } from 'lru-cache';

export class ResultCache<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, T>;
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(ttlMs: number, maxEntries = 500, now: () => number = Date.now) {
    // ttlResolution 0: read the clock on every check, so an injected clock is obeyed exactly.
    this.entries = new LRUCache<string, T>({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now } });
  }

  /** Answers held now, expired ones excluded. */
  get size(): number {
    this.entries.purgeStale();
    return this.entries.size;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const p = load()
      .then((value) => {
        this.entries.purgeStale();
        this.entries.set(key, value);
        return value;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** Drops expired answers; for a maintenance timer. */
  purgeExpired(): void {
    this.entries.purgeStale();
  }
}
