// The gateway's quota, when configured: per-minute and per-day windows, each starting at its first request
// (so a test never straddles a wall-clock boundary), with the gateway's headers and 429 when used up.
export interface QuotaOptions {
  perMinute?: number;
  perDay?: number;
}

export interface QuotaVerdict {
  headers: Record<string, string>;
  exceeded: boolean;
  /** Seconds until the exhausted window resets. */
  retryAfter?: number;
}

class Window {
  private start = -Infinity;
  used = 0;
  constructor(
    readonly limit: number,
    readonly lengthMs: number,
  ) {}
  roll(now: number) {
    if (now >= this.start + this.lengthMs) {
      this.start = now;
      this.used = 0;
    }
  }
  resetSeconds(now: number) {
    return Math.max(1, Math.ceil((this.start + this.lengthMs - now) / 1000));
  }
}

export class Quota {
  private readonly minute?: Window;
  private readonly day?: Window;

  constructor(
    options: QuotaOptions,
    private readonly clock: () => number = Date.now,
  ) {
    for (const [k, v] of Object.entries(options)) {
      if (v !== undefined && (!Number.isInteger(v) || v < 1))
        throw new RangeError(`quota.${k} must be a whole number from 1`);
    }
    if (options.perMinute) this.minute = new Window(options.perMinute, 60_000);
    if (options.perDay) this.day = new Window(options.perDay, 86_400_000);
  }

  take(): QuotaVerdict {
    const now = this.clock();
    const windows = [this.minute, this.day].filter((w): w is Window => w !== undefined);
    for (const w of windows) w.roll(now);
    const full = windows.find((w) => w.used >= w.limit);
    if (!full) for (const w of windows) w.used++;
    const headers: Record<string, string> = {};
    // The plan quota is the day's when set, else the minute's.
    const plan = this.day ?? this.minute;
    if (plan) {
      headers['x-ratelimit-requests-limit'] = String(plan.limit);
      headers['x-ratelimit-requests-remaining'] = String(Math.max(0, plan.limit - plan.used));
    }
    if (this.minute) {
      headers['x-ratelimit-limit'] = String(this.minute.limit);
      headers['x-ratelimit-remaining'] = String(Math.max(0, this.minute.limit - this.minute.used));
      headers['x-ratelimit-reset'] = String(this.minute.resetSeconds(now));
    }
    return full ? { headers, exceeded: true, retryAfter: full.resetSeconds(now) } : { headers, exceeded: false };
  }
}
