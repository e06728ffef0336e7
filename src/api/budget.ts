// The call budget: every call costs the user money (free plans allow a few hundred a month), so the client
// counts calls per operation, honours configured per-minute, per-day and per-month limits, obeys the gateway's
// quota headers and a Retry-After shared by every caller. When a window is full it waits for the next one if
// that is soon, and otherwise refuses clearly.
//
// Day and month windows are UTC calendar periods (`day:2026-11-01`, `month:2026-11`), counted in a UsageLedger
// so that a restart (or a crash loop) cannot spend the day's or the month's calls twice. The minute window is
// kept in memory: a restart takes longer than the minute is worth.

export interface BudgetLimits {
  perMinute?: number;
  /** Calls per UTC calendar day. */
  perDay?: number;
  /** Calls per UTC calendar month. */
  perMonth?: number;
  /** The longest the client will wait for a window to open before refusing. */
  maxWaitMs: number;
}

/**
 * Where calls are counted across restarts and instances (the store implements it). Windows are UTC: see
 * `usageWindows`. The budget decides from what it last read of it (`refresh`) plus its own calls since, so a decision
 * never waits on the database.
 */
export interface UsageLedger {
  /** Adds one call, made at `at` (epoch ms), to each window; each window's count after it. */
  record(windows: string[], at: number): Promise<Record<string, number>>;
  /** Calls counted so far in one window (every instance's); 0 when none. */
  count(window: string): Promise<number>;
}

export interface BudgetDecision {
  /** 0: go now. Otherwise wait this long (when allowed) or refuse. */
  waitMs: number;
  reason?: string;
  /** `limit`: our limits or the gateway's quota; `retry-after`: the service asked every caller to wait. */
  cause?: 'limit' | 'retry-after';
}

export interface BudgetOptions {
  ledger?: UsageLedger;
  /** Told when the ledger fails; the budget then counts in memory until it works again. */
  onLedgerError?: (error: unknown) => void;
}

const MINUTE = 60_000;
/** The longest a single Retry-After may hold every caller back, whatever the service says. */
const MAX_HOLD_MS = 3_600_000;

/** The UTC day and month windows a call at `t` counts in: `day:YYYY-MM-DD` and `month:YYYY-MM`. */
export function usageWindows(t: number): { day: string; month: string } {
  const iso = new Date(t).toISOString();
  return { day: `day:${iso.slice(0, 10)}`, month: `month:${iso.slice(0, 7)}` };
}

function nextUtcDay(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

function nextUtcMonth(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Counts per window, kept in memory (only the few newest windows). */
class WindowCounts {
  private readonly counts = new Map<string, number>();
  add(window: string, n = 1): void {
    this.counts.set(window, (this.counts.get(window) ?? 0) + n);
    if (this.counts.size > 64) this.counts.delete(this.counts.keys().next().value!); // old windows only
  }
  /** Raises a window to `n` (counts only grow within a window: an older read never lowers one). */
  raise(window: string, n: number): void {
    if (n > this.get(window)) this.counts.set(window, n);
  }
  get(window: string): number {
    return this.counts.get(window) ?? 0;
  }
}

/** How often, at most, the ledger is read again for other instances' calls. */
const REFRESH_MS = 1_000;

/**
 * The gateway's quota headers: `x-ratelimit-requests-remaining` (the plan) and `x-ratelimit-remaining` (per minute).
 */
export interface ServiceQuota {
  plan?: number;
  minute?: number;
}

export class CallBudget {
  private readonly lastMinute: number[] = []; // timestamps of the last minute's calls, oldest first
  private readonly perOperation = new Map<string, number>();
  /** This process's calls: the counts when there is no ledger, and when it fails. */
  private readonly memory = new WindowCounts();
  /** What the ledger last said (every instance's calls), and this process's calls it has not confirmed yet. */
  private readonly stored = new WindowCounts();
  private readonly unconfirmed = new WindowCounts();
  private readonly ledger: UsageLedger | undefined;
  private readonly onLedgerError: (error: unknown) => void;
  private ledgerFailing = false;
  private refreshing: Promise<void> | undefined;
  /** Ledger writes under way. */
  private readonly writing = new Set<Promise<unknown>>();
  private refreshedAt = -Infinity;
  /** No call may be sent before this time (the gateway's quota headers or a Retry-After). */
  private blockedUntil = 0;
  private blockedReason = '';
  private blockedCause: 'limit' | 'retry-after' = 'limit';
  /** What the gateway's quota headers said last: calls left on the plan and in its minute window. */
  private lastQuota: ServiceQuota = {};

  constructor(
    private readonly limits: BudgetLimits,
    private readonly now: () => number = Date.now,
    options: BudgetOptions = {},
  ) {
    this.ledger = options.ledger;
    this.onLedgerError = options.onLedgerError ?? (() => {});
  }

  /** How long a new call must wait, and why. */
  check(): BudgetDecision {
    const t = this.now();
    this.forget(t);
    if (this.blockedUntil > t)
      return { waitMs: this.blockedUntil - t, reason: this.blockedReason, cause: this.blockedCause };
    const { perMinute, perDay, perMonth } = this.limits;
    const windows = usageWindows(t);
    if (perMonth !== undefined && this.count(windows.month) >= perMonth) {
      return {
        waitMs: nextUtcMonth(t) - t,
        reason: `the monthly limit of ${perMonth} calls is reached`,
        cause: 'limit',
      };
    }
    if (perDay !== undefined && this.count(windows.day) >= perDay) {
      return { waitMs: nextUtcDay(t) - t, reason: `the daily limit of ${perDay} calls is reached`, cause: 'limit' };
    }
    if (perMinute !== undefined && this.lastMinute.length >= perMinute) {
      const oldest = this.lastMinute[this.lastMinute.length - perMinute]!;
      return {
        waitMs: oldest + MINUTE - t,
        reason: `the limit of ${perMinute} calls a minute is reached`,
        cause: 'limit',
      };
    }
    return { waitMs: 0 };
  }

  get maxWaitMs(): number {
    return this.limits.maxWaitMs;
  }

  /**
   * Takes a slot for one call when the budget allows it now, in the same synchronous step as the check,
   * so concurrent callers can never both take the last slot. Otherwise says how long to wait.
   */
  reserve(operation: string): BudgetDecision {
    const decision = this.check();
    if (decision.waitMs <= 0) this.record(operation);
    return decision;
  }

  /** Records one call (each retry is a call: the gateway bills it). */
  record(operation: string): void {
    const t = this.now();
    this.lastMinute.push(t);
    this.perOperation.set(operation, (this.perOperation.get(operation) ?? 0) + 1);
    const { day, month } = usageWindows(t);
    this.memory.add(day);
    this.memory.add(month);
    if (!this.ledger) return;
    this.unconfirmed.add(day);
    this.unconfirmed.add(month);
    const write = this.ledger
      .record([day, month], t)
      .then(
        (counts) => {
          this.ledgerWorks();
          for (const [window, n] of Object.entries(counts)) this.stored.raise(window, n);
        },
        (error: unknown) => this.ledgerFailed(error),
      )
      .finally(() => {
        this.unconfirmed.add(day, -1);
        this.unconfirmed.add(month, -1);
        this.writing.delete(write);
      });
    this.writing.add(write);
  }

  /** Settles once every ledger write under way has (never rejects: a failed write is reported as it fails). */
  async settled(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  /**
   * Reads the ledger's counts for now's windows (other instances' calls, and those of earlier runs): at once when
   * `force`, else at most once a second. Never rejects: a failing ledger leaves the memory counts to decide.
   */
  refresh(force = false): Promise<void> {
    if (!this.ledger) return Promise.resolve();
    if (this.refreshing) return this.refreshing;
    const t = this.now();
    if (!force && t - this.refreshedAt < REFRESH_MS) return Promise.resolve();
    const ledger = this.ledger;
    const { day, month } = usageWindows(t);
    // Counted from the try, not its success: a failing ledger is not asked again by every call.
    this.refreshedAt = t;
    this.refreshing = Promise.all([ledger.count(day), ledger.count(month)])
      .then(
        ([d, m]) => {
          this.ledgerWorks();
          this.stored.raise(day, d);
          this.stored.raise(month, m);
        },
        (error: unknown) => this.ledgerFailed(error),
      )
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Calls this month (UTC), every instance's as last read, and this one's since. */
  callsThisMonth(): number {
    return this.count(usageWindows(this.now()).month);
  }

  /** Calls left under the configured day and month limits; undefined when that window is unlimited. */
  remaining(): { day?: number; month?: number } {
    const windows = usageWindows(this.now());
    const { perDay, perMonth } = this.limits;
    return {
      ...(perDay !== undefined ? { day: Math.max(0, perDay - this.count(windows.day)) } : {}),
      ...(perMonth !== undefined ? { month: Math.max(0, perMonth - this.count(windows.month)) } : {}),
    };
  }

  /** The service answered with Retry-After: no caller sends anything until then (held at most an hour). */
  holdOff(waitMs: number, reason: string): void {
    this.block(this.now() + Math.min(waitMs, MAX_HOLD_MS), reason, 'retry-after');
  }

  /** Reads the gateway's quota headers, when present, from an answer. */
  observe(headers: Record<string, string>): void {
    const t = this.now();
    const planRemaining = num(headers['x-ratelimit-requests-remaining']);
    const minuteLeft = num(headers['x-ratelimit-remaining']);
    if (planRemaining !== undefined || minuteLeft !== undefined) {
      this.lastQuota = {
        ...(planRemaining !== undefined ? { plan: planRemaining } : {}),
        ...(minuteLeft !== undefined ? { minute: minuteLeft } : {}),
      };
    }
    if (planRemaining !== undefined && planRemaining <= 0) {
      // The plan's quota (daily or monthly) is spent; its reset time is not sent. Probe again in an hour.
      this.block(t + 3_600_000, "the service plan's quota is used up", 'limit');
    }
    if (minuteLeft !== undefined && minuteLeft <= 0) {
      const reset = num(headers['x-ratelimit-reset']);
      // Reset is seconds from now on most gateways; a value that looks like an epoch is taken as one.
      const until = reset === undefined ? t + MINUTE : reset > 1e9 ? reset * 1000 : t + reset * 1000;
      this.block(until, "the service's per-minute rate limit is reached", 'limit');
    }
  }

  /** The service's own quota as its last answer told it (absent before any answer with quota headers). */
  serviceQuota(): ServiceQuota {
    return { ...this.lastQuota };
  }

  /** Calls made so far by this process, per operation. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.perOperation);
  }

  /**
   * Calls in a window: the ledger's last word plus this process's calls it has not confirmed; this process's own
   * count when that is higher (the ledger failing, or read before these calls).
   */
  private count(window: string): number {
    const memory = this.memory.get(window);
    if (!this.ledger || this.ledgerFailing) return memory;
    return Math.max(this.stored.get(window) + this.unconfirmed.get(window), memory);
  }

  private ledgerWorks(): void {
    this.ledgerFailing = false;
  }

  /** Reported once per failing spell; the memory counts decide meanwhile. */
  private ledgerFailed(error: unknown): void {
    if (!this.ledgerFailing) this.onLedgerError(error);
    this.ledgerFailing = true;
  }

  private block(until: number, reason: string, cause: 'limit' | 'retry-after'): void {
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.blockedReason = reason;
      this.blockedCause = cause;
    }
  }

  private forget(t: number): void {
    while (this.lastMinute.length > 0 && this.lastMinute[0]! <= t - MINUTE) this.lastMinute.shift();
  }
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
