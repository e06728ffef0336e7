// What the API client takes and gives: its options, one call's options and result, and what it tells observers.
import type { BreakerOptions } from './breaker.js';
import type { BudgetLimits, UsageLedger } from './budget.js';
import type { Payer, ShareRefusal } from './payer.js';
import type { RetryPolicy } from './retry.js';
import type { Logger } from '../log.js';

export interface ApiClientOptions {
  baseUrl: string;
  key: string;
  /** `x-gateway-host`; defaults to the base URL's host. */
  host?: string;
  connectTimeoutSeconds?: number;
  /** Per attempt: from its start (queueing for a connection included) to the answer's headers. */
  headersTimeoutSeconds?: number;
  /** Per attempt: from the headers to the end of the whole body. */
  bodyTimeoutSeconds?: number;
  connections?: number;
  /** One deadline per call, across its attempts, Retry-After and budget waits (default 25 s). */
  deadlineMs?: number;
  /** Bodies larger than this are not read to the end; the call fails with kind 'too-large' (default 8 MiB). */
  maxBodyBytes?: number;
  retry?: Partial<RetryPolicy>;
  budget?: Partial<BudgetLimits>;
  /** Counts calls per UTC day and month across restarts; without it they are counted in memory. */
  ledger?: UsageLedger;
  breaker?: Partial<BreakerOptions>;
  logger?: Logger;
  /** For tests: the source of jitter. */
  random?: () => number;
  /** Told of every attempt sent (its status and time) and every call refused unsent (budget, breaker): for metrics. */
  onCall?: (event: CallEvent) => void;
  /** Whether the teams a call is for (payer.ts) may spend one more call this month; a refusal is not sent. */
  share?: (payer: Payer | undefined) => Promise<ShareRefusal | undefined>;
}

/** One attempt, for an observer: `status` is the HTTP status or what happened instead ('timeout', 'budget'...). */
export interface CallEvent {
  operation: string;
  status: string;
  ms: number;
  /** 'refused': nothing was sent (the call budget or the open circuit said no). */
  outcome: 'ok' | 'error' | 'refused';
  /** The teams the call was made for (payer.ts), when it was made for any; and the person, in a shared pool. */
  teams?: readonly string[];
  person?: string;
}

export interface CallOptions {
  /** This call's deadline, instead of the client's (the alerts poller, with nobody waiting, allows longer). */
  deadlineMs?: number;
  /** Stops the call (kind 'cancelled'). */
  signal?: AbortSignal;
}

export interface ApiResult<T> {
  records: T[];
  /** Records that could not be understood at all and were left out. */
  dropped: number;
  message?: string;
  summary?: Record<string, unknown>;
  totalItems?: number;
  totalPages?: number;
}

export interface ApiStats {
  calls: Record<string, number>;
  retries: number;
  failures: number;
  dropped: number;
}

export interface BudgetLeft {
  /** How long before a call would be sent (a Retry-After, a full window, an open circuit); 0: now. */
  blockedForMs: number;
  /** Calls left today (UTC) under the daily limit; undefined when there is none. */
  day?: number;
  /** Calls left this month (UTC) under the monthly limit; undefined when there is none. */
  month?: number;
  /** Set while the circuit breaker is open (the service failed repeatedly): how long it stays open. */
  breakerOpenForMs?: number;
}
