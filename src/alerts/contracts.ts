// What the poller (./poller.ts), its page reading (./fetch.ts) and its call budget (./page-budget.ts) share: types
// only, in a module that imports none of them, so that each can be read and changed alone.
import type { ApiResult } from '../api/client.js';
import type { OperationName } from '../api/operations.js';

/** What the poller needs of the API client. */
export interface AlertsApi {
  call(
    operation: OperationName,
    params: Record<string, string>,
    options?: { deadlineMs?: number },
  ): Promise<ApiResult<unknown>>;
  /** Calls left under the configured limits (undefined: unlimited), and how long the client is blocked. */
  budgetLeft?(): { blockedForMs: number; day?: number; month?: number };
}

export interface PollerOptions {
  maxPages: number;
  priceDropPct: number;
  /** The deadline of each upstream call: longer than chat's, nobody is waiting. */
  deadlineMs: number;
  /** Cards per search per run; the rest become one summary. */
  cardsPerRun?: number;
  /** Queries fetched at once. */
  concurrency?: number;
  /** A search failing this long is reported once in its channel. */
  failingAfterMs?: number;
  /** The time zone of channels that set none (MANZIL_TIMEZONE): summaries' slots and quiet hours are read in it. */
  timezone?: string;
  /**
   * Days a listing's story is kept after anyone last saw it (MANZIL_HISTORY_DAYS, default 400): older ones are deleted
   * in the run's commit.
   */
  historyDays?: number;
}
