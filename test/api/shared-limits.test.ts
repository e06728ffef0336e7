// Limits every caller of one client shares: the service's Retry-After and the circuit breaker. Real sandbox on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ApiClientOptions } from '../../src/api/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { until } from './raw-server.js';

const KEY = 'sk-shared-limits-key-31';
let sandbox: Sandbox;
const clients: ApiClient[] = [];

const client = (extra: Partial<ApiClientOptions> = {}) => {
  const api = new ApiClient({ baseUrl: sandbox.url!, key: KEY, retry: { baseDelayMs: 10, maxDelayMs: 20 }, ...extra });
  clients.push(api);
  return api;
};
const arrivals = () => sandbox.requests().map((r) => Date.parse(r.at));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
});
afterAll(() => sandbox.close());
afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  sandbox.clearFaults();
  sandbox.clearRequests();
});

describe('Retry-After is shared by every caller', () => {
  it('holds 30 callers back after one 429 with Retry-After: 1, then they all succeed, arriving spread out', { timeout: 8000 }, async () => {
    sandbox.addFault({ status: 429, retryAfter: 1, count: 1 });
    const api = client();
    const first = api.call('search-brokers', {});
    await until(() => api.budgetLeft().blockedForMs > 0); // the 429 has arrived
    expect(api.budgetLeft().blockedForMs).toBeLessThanOrEqual(1000);
    const rest = Array.from({ length: 30 }, () => api.call('search-brokers', {}));
    const results = await Promise.all([first, ...rest]);
    for (const r of results) expect(r.records.length).toBeGreaterThan(0);

    const [refused, ...after] = arrivals();
    expect(after).toHaveLength(31);
    // Nothing reached the service before its Retry-After had passed (times in whole ms, hence the 1 ms).
    for (const t of after) expect(t).toBeGreaterThanOrEqual(refused! + 1000 - 1);
    // Nor did they all arrive at once when it ended: each waited a random part of half a second more.
    expect(Math.max(...after) - Math.min(...after)).toBeGreaterThan(200);
    // At most half the wait more, with room for a busy host's scheduling (400 ms: CI once needed 108 ms past 100).
    expect(Math.max(...after)).toBeLessThanOrEqual(refused! + 1500 + 400);
  });

  it('refuses at once, without sending, the callers whose deadline ends before the Retry-After', { timeout: 5000 }, async () => {
    sandbox.addFault({ status: 429, retryAfter: 2, count: 1 });
    const api = client({ deadlineMs: 500 });
    const first = await api.call('search-brokers', {}).catch((e: unknown) => e as ApiError);
    expect(first).toMatchObject({ kind: 'http', status: 429, retryable: true });
    const started = performance.now();
    const others = await Promise.all(Array.from({ length: 10 }, () => api.call('search-brokers', {}).catch((e: unknown) => e as ApiError)));
    expect(performance.now() - started).toBeLessThan(100);
    for (const e of others) {
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ kind: 'http', status: 429, retryable: true });
      expect((e as ApiError).retryAfterSeconds).toBe(2);
    }
    expect(sandbox.requests()).toHaveLength(1);
  });
});

describe('circuit breaker', () => {
  it('fails fast after N consecutive 503s without reaching the service, and lets a call through after the cooldown', { timeout: 5000 }, async () => {
    sandbox.addFault({ status: 503, count: 100 });
    const api = client({ breaker: { failures: 3, cooldownMs: 300 }, retry: { attempts: 1 } });
    for (let i = 0; i < 3; i++) expect(await api.call('search-brokers', {}).catch((e: unknown) => (e as ApiError).status)).toBe(503);
    expect(sandbox.requests()).toHaveLength(3);

    const started = performance.now();
    const fast = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(performance.now() - started).toBeLessThan(50);
    expect(fast).toBeInstanceOf(ApiError);
    expect(fast.kind).toBe('unavailable');
    expect(fast.retryable).toBe(true);
    expect(sandbox.requests()).toHaveLength(3);
    expect(api.budgetLeft().blockedForMs).toBeGreaterThan(0);

    sandbox.clearFaults();
    await wait(350);
    expect((await api.call('search-brokers', {})).records.length).toBeGreaterThan(0);
    expect(sandbox.requests()).toHaveLength(4);
    expect(api.budgetLeft().blockedForMs).toBe(0);
  });

  it('opens on the attempts of one call too, and stops its retries', { timeout: 5000 }, async () => {
    sandbox.addFault({ status: 503, count: 100 });
    const api = client({ breaker: { failures: 2, cooldownMs: 10_000 }, retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 20 } });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('unavailable');
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect(sandbox.requests()).toHaveLength(2);
  });

  it('counts only consecutive outages: an answer such as 404 resets the count', { timeout: 5000 }, async () => {
    const api = client({ breaker: { failures: 3, cooldownMs: 10_000 }, retry: { attempts: 1 } });
    const outage = () => api.call('search-brokers', {}).catch((e: unknown) => (e as ApiError).kind);
    sandbox.addFault({ status: 503, count: 2 });
    await outage();
    await outage();
    expect(await api.call('property-details', { property_id: '999999999' }).catch((e: unknown) => (e as ApiError).status)).toBe(404);
    sandbox.addFault({ status: 503, count: 10 });
    await outage();
    expect(await outage()).toBe('http'); // the fifth failure, but only the second in a row
    expect(await outage()).toBe('http'); // the third in a row: it opens the circuit
    expect(await outage()).toBe('unavailable');
    expect(sandbox.requests()).toHaveLength(6);
  });
});
