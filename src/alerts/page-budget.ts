// How many pages (calls) a poller run's queries may still read under the call budget.
import type { AlertsApi } from './contracts.js';

/**
 * The calls a run may still make, as pages: a query costs one call per page it reads, up to maxPages. A query starts
 * when the calls left, less the pages reserved by the queries under way, cover maxPages; or, with none under way,
 * when at least one call is left (it then reads at most that many pages). Otherwise it waits for one under way to
 * finish, or, with none under way and nothing left, it is deferred. The count of calls left is read from the client
 * whenever nothing is under way (exact, retries included) and otherwise follows the pages read. A blocked client (rate
 * limit, open breaker) is not a spent budget: its calls fail fast and are recorded.
 */
export class PageBudget {
  private left: number | undefined;
  private reserved = 0;
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  constructor(
    private readonly api: AlertsApi,
    private readonly maxPages: number,
  ) {
    this.left = this.read();
  }

  private read(): number | undefined {
    const left = this.api.budgetLeft?.();
    const limits = left ? [left.day, left.month].filter((n): n is number => n !== undefined) : [];
    return limits.length === 0 ? undefined : Math.max(0, Math.min(...limits));
  }

  /** Pages the next query may read (0: none, it waits for a later run); reserved until `release`. */
  async reserve(): Promise<number> {
    for (;;) {
      if (this.left === undefined) return this.maxPages;
      const free = this.left - this.reserved;
      if (free >= this.maxPages || (this.inFlight === 0 && free >= 1)) {
        const pages = Math.min(this.maxPages, free);
        this.reserved += pages;
        this.inFlight++;
        return pages;
      }
      if (this.inFlight === 0) return 0;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  release(pages: number, used: number): void {
    if (this.left === undefined) return;
    this.reserved -= pages;
    this.inFlight--;
    this.left = this.inFlight === 0 ? this.read() : Math.max(0, this.left - used);
    for (const wake of this.waiters.splice(0)) wake();
  }
}
