// The call budget: every call costs the user money (free plans allow a few hundred a month), so the client
// counts calls per operation, honours configured per-minute and per-day limits, and obeys the gateway's quota
// headers. When a window is full it waits for the next one if that is soon, and otherwise refuses clearly.

export interface BudgetLimits {
  perMinute?: number;
  perDay?: number;
  /** The longest the client will wait for a window to open before refusing. */
  maxWaitMs: number;
}

export interface BudgetDecision {
  /** 0: go now. Otherwise wait this long (when allowed) or refuse. */
  waitMs: number;
  reason?: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export class CallBudget {
  private readonly calls: number[] = []; // timestamps of the last day's calls, oldest first
  private readonly perOperation = new Map<string, number>();
  /** The gateway said no calls remain until this time. */
  private blockedUntil = 0;
  private blockedReason = '';

  constructor(
    private readonly limits: BudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long a new call must wait, and why. */
  check(): BudgetDecision {
    const t = this.now();
    this.forget(t);
    if (this.blockedUntil > t) return { waitMs: this.blockedUntil - t, reason: this.blockedReason };
    const { perMinute, perDay } = this.limits;
    if (perDay !== undefined && this.calls.length >= perDay) {
      return { waitMs: this.calls[this.calls.length - perDay]! + DAY - t, reason: `the daily limit of ${perDay} calls is reached` };
    }
    if (perMinute !== undefined) {
      const lastMinute = this.calls.filter((c) => c > t - MINUTE);
      if (lastMinute.length >= perMinute) {
        return { waitMs: lastMinute[lastMinute.length - perMinute]! + MINUTE - t, reason: `the limit of ${perMinute} calls a minute is reached` };
      }
    }
    return { waitMs: 0 };
  }

  get maxWaitMs(): number {
    return this.limits.maxWaitMs;
  }

  /**
   * Takes a place for one call when the budget allows it now, in the same synchronous step as the check,
   * so concurrent callers can never both take the last place. Otherwise says how long to wait.
   */
  reserve(operation: string): BudgetDecision {
    const decision = this.check();
    if (decision.waitMs <= 0) this.record(operation);
    return decision;
  }

  /** Records one call (each retry is a call: the gateway bills it). */
  record(operation: string): void {
    this.calls.push(this.now());
    this.perOperation.set(operation, (this.perOperation.get(operation) ?? 0) + 1);
  }

  /** Reads the gateway's quota headers, when present, from an answer. */
  observe(headers: Record<string, string>): void {
    const t = this.now();
    const planRemaining = num(headers['x-ratelimit-requests-remaining']);
    if (planRemaining !== undefined && planRemaining <= 0) {
      // The plan's quota (daily or monthly) is spent; its reset time is not sent. Probe again in an hour.
      this.block(t + 3_600_000, "the service plan's quota is used up");
    }
    const minuteRemaining = num(headers['x-ratelimit-remaining']);
    if (minuteRemaining !== undefined && minuteRemaining <= 0) {
      const reset = num(headers['x-ratelimit-reset']);
      // Reset is seconds from now on most gateways; a value that looks like an epoch is taken as one.
      const until = reset === undefined ? t + MINUTE : reset > 1e9 ? reset * 1000 : t + reset * 1000;
      this.block(until, "the service's per-minute rate limit is reached");
    }
  }

  /** Calls made so far, per operation. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.perOperation);
  }

  private block(until: number, reason: string): void {
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.blockedReason = reason;
    }
  }

  private forget(t: number): void {
    while (this.calls.length > 0 && this.calls[0]! <= t - DAY) this.calls.shift();
  }
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
