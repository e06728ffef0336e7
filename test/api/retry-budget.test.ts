import { describe, expect, it } from 'vitest';
import { CallBudget, usageWindows, type UsageLedger } from '../../src/api/budget.js';
import { DEFAULT_RETRY, backoffMs, isRetryableStatus, parseRetryAfterMs } from '../../src/api/retry.js';

describe('retry policy', () => {
  it('retries rate limits and server faults, never client errors', () => {
    for (const s of [429, 500, 502, 503, 504]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404]) expect(isRetryableStatus(s)).toBe(false);
  });

  it('backs off exponentially with jitter, within the cap', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, policy, () => 0)).toBe(50);
    expect(backoffMs(1, policy, () => 1)).toBe(100);
    expect(backoffMs(3, policy, () => 1)).toBe(400);
    expect(backoffMs(10, policy, () => 1)).toBe(1000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfterMs('2')).toBe(2000);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfterMs('soon')).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });
});

describe('call budget', () => {
  it('opens the minute window again once the oldest call is a minute old', () => {
    let t = 1_000_000;
    const budget = new CallBudget({ perMinute: 2, maxWaitMs: 0 }, () => t);
    budget.record('search-rent');
    t += 10_000;
    budget.record('search-rent');
    expect(budget.check().waitMs).toBe(50_000);
    t += 50_000;
    expect(budget.check().waitMs).toBe(0);
    expect(budget.counts()).toEqual({ 'search-rent': 2 });
  });

  it('refuses for the rest of the day once the daily limit is spent', () => {
    let t = 0;
    const budget = new CallBudget({ perDay: 1, maxWaitMs: 0 }, () => t);
    budget.record('search-buy');
    t += 3_600_000;
    const decision = budget.check();
    expect(decision.waitMs).toBe(23 * 3_600_000);
    expect(decision.reason).toMatch(/daily limit of 1/);
  });

  it("blocks when the gateway's per-minute headers say nothing remains, until its reset", () => {
    let t = 0;
    const budget = new CallBudget({ maxWaitMs: 0 }, () => t);
    budget.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' });
    expect(budget.check().waitMs).toBe(12_000);
    t += 12_000;
    expect(budget.check().waitMs).toBe(0);
  });

  it('opens the daily window again at the next UTC midnight, the monthly one on the first of the next UTC month', () => {
    let t = Date.UTC(2026, 10, 30, 23, 59); // 30 November, a minute before midnight UTC
    const daily = new CallBudget({ perDay: 1, maxWaitMs: 0 }, () => t);
    const monthly = new CallBudget({ perMonth: 1, maxWaitMs: 0 }, () => t);
    daily.record('search-buy');
    monthly.record('search-buy');
    expect(daily.check().waitMs).toBe(60_000);
    expect(monthly.check()).toMatchObject({ waitMs: 60_000, reason: 'the monthly limit of 1 calls is reached' });
    t += 60_000;
    expect(daily.check().waitMs).toBe(0);
    expect(monthly.check().waitMs).toBe(0);
    expect(usageWindows(t)).toEqual({ day: 'day:2026-12-01', month: 'month:2026-12' });
  });

  it("counts in the ledger it is given, so a second budget on the same ledger sees the first one's calls", async () => {
    const counts = new Map<string, number>();
    const ledger: UsageLedger = {
      record: async (windows) =>
        Object.fromEntries(windows.map((w) => [w, counts.set(w, (counts.get(w) ?? 0) + 1).get(w)!])),
      count: async (w) => counts.get(w) ?? 0,
    };
    const t = Date.UTC(2026, 10, 5, 12);
    new CallBudget({ perMonth: 3, maxWaitMs: 0 }, () => t, { ledger }).record('search-rent');
    const later = new CallBudget({ perDay: 5, perMonth: 3, maxWaitMs: 0 }, () => t, { ledger });
    await later.refresh(true);
    expect(later.remaining()).toEqual({ day: 4, month: 2 });
    expect(later.reserve('search-rent').waitMs).toBe(0);
    expect(later.reserve('search-rent').waitMs).toBe(0);
    expect(later.reserve('search-rent').reason).toMatch(/monthly limit of 3/);
    expect(counts.get('month:2026-11')).toBe(3);
  });

  it('keeps counting in memory when the ledger fails, and reports the failure once', async () => {
    const errors: unknown[] = [];
    const broken: UsageLedger = {
      record: () => Promise.reject(new Error('disk I/O error')),
      count: () => Promise.reject(new Error('disk I/O error')),
    };
    const budget = new CallBudget({ perDay: 2, maxWaitMs: 0 }, () => 0, {
      ledger: broken,
      onLedgerError: (e) => errors.push(e),
    });
    expect(budget.reserve('search-buy').waitMs).toBe(0);
    expect(budget.reserve('search-buy').waitMs).toBe(0);
    expect(budget.reserve('search-buy').waitMs).toBeGreaterThan(0);
    await budget.refresh(true);
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(budget.reserve('search-buy').waitMs).toBeGreaterThan(0);
  });

  it('holds every caller back for a Retry-After, and says so', () => {
    let t = 0;
    const budget = new CallBudget({ maxWaitMs: 0 }, () => t);
    budget.holdOff(1500, 'the service asked to wait (429)');
    expect(budget.reserve('search-buy')).toEqual({
      waitMs: 1500,
      reason: 'the service asked to wait (429)',
      cause: 'retry-after',
    });
    t += 1500;
    expect(budget.reserve('search-buy').waitMs).toBe(0);
  });
});
