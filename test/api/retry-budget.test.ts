import { describe, expect, it } from 'vitest';
import { CallBudget } from '../../src/api/budget.js';
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
});
