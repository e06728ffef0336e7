// Limits every caller of one client shares: the service's Retry-After and the circuit breaker. Real sandbox on
// 127.0.0.1.
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
  it(
    'holds 30 callers back after one 429 with Retry-After: 2, then they all succeed, arriving spread out',
    { timeout: 20_000 },
    async () => {
      sandbox.addFault({ status: 429, retryAfter: 2, count: 1 });
      // The held callers draw 0 and 1 in turn: none of the extra wait, or all of it (half the Retry-After, 1 s at
      // most).
      let draws = 0;
      const api = client({ random: () => draws++ % 2 });
      const first = api.call('search-brokers', {});
      await until(() => api.budgetLeft().blockedForMs > 0); // the 429 has arrived
      expect(api.budgetLeft().blockedForMs).toBeLessThanOrEqual(2000);
      const rest = Array.from({ length: 30 }, () => api.call('search-brokers', {}));
      const results = await Promise.all([first, ...rest]);
      for (const r of results) expect(r.records.length).toBeGreaterThan(0);

      const [refused, ...after] = arrivals();
      expect(after).toHaveLength(31);
      // Nothing reached the service before its Retry-After had passed (times in whole ms, hence the 1 ms).
      for (const t of after) expect(t).toBeGreaterThanOrEqual(refused! + 2000 - 1);
      // Nor did they all arrive at once when it ended: those that drew 1 waited about a second more, at least half of
      // one unless the host took a second to start them (a timer never fires early: this holds however busy the host).
      expect(draws).toBeGreaterThanOrEqual(31);
      expect(after.filter((t) => t >= refused! + 2000 + 500).length).toBeGreaterThanOrEqual(10);
      expect(Math.max(...after) - Math.min(...after)).toBeGreaterThan(200);
      // Not held again, nor until a deadline (25 s). How long each waits is timed in `npm run bench`.
      expect(Math.max(...after)).toBeLessThan(refused! + 3000 + 3000);
    },
  );

  it(
    'refuses at once, without sending, the callers whose deadline ends before the Retry-After',
    { timeout: 15_000 },
    async () => {
      sandbox.addFault({ status: 429, retryAfter: 5, count: 1 });
      const api = client({ deadlineMs: 3000 });
      const first = await api.call('search-brokers', {}).catch((e: unknown) => e as ApiError);
      expect(first).toMatchObject({ kind: 'http', status: 429, retryable: true });
      const started = performance.now();
      const others = await Promise.all(
        Array.from({ length: 10 }, () => api.call('search-brokers', {}).catch((e: unknown) => e as ApiError)),
      );
      // Not sent (the request count below); and not held until their 3 s deadline either.
      expect(performance.now() - started).toBeLessThan(1500);
      for (const e of others) {
        expect(e).toBeInstanceOf(ApiError);
        expect(e).toMatchObject({ kind: 'http', status: 429, retryable: true });
        expect((e as ApiError).retryAfterSeconds).toBe(5);
      }
      expect(sandbox.requests()).toHaveLength(1);
    },
  );
});

describe('circuit breaker', () => {
  // Calls of different operations about different areas: what a whole-service outage looks like to the client.
  const varied = [
    (api: ApiClient) => api.call('search-brokers', {}),
    (api: ApiClient) => api.call('search-rent', { location_id: '50' }),
    (api: ApiClient) => api.call('get-get-transactions', { location_id: '86', transaction_type: 'sold' }),
  ];

  it(
    'fails fast after N consecutive 503s across the service without reaching it, and lets a call through after the cooldown',
    { timeout: 15_000 },
    async () => {
      sandbox.addFault({ status: 503, count: 100 });
      // A cooldown a loaded host cannot outlast between two lines of the test; its end is waited for, not slept.
      const api = client({ breaker: { failures: 3, cooldownMs: 2000 }, retry: { attempts: 1 } });
      for (const call of varied) expect(await call(api).catch((e: unknown) => (e as ApiError).status)).toBe(503);
      expect(sandbox.requests()).toHaveLength(3);

      // Fast: refused without reaching the service (still 3 requests), whatever the call is about.
      const fast = (await api.call('search-agents', {}).catch((e: unknown) => e)) as ApiError;
      expect(fast).toBeInstanceOf(ApiError);
      expect(fast.kind).toBe('unavailable');
      expect(fast.retryable).toBe(true);
      expect(sandbox.requests()).toHaveLength(3);
      expect(api.budgetLeft().blockedForMs).toBeGreaterThan(0);

      sandbox.clearFaults();
      await until(() => api.budgetLeft().blockedForMs === 0, 10_000);
      expect(sandbox.requests()).toHaveLength(3);
      expect((await api.call('search-brokers', {})).records.length).toBeGreaterThan(0);
      expect(sandbox.requests()).toHaveLength(4);
      expect(api.budgetLeft().blockedForMs).toBe(0);
    },
  );

  it('opens on the attempts of one call too, and stops its retries', { timeout: 5000 }, async () => {
    sandbox.addFault({ status: 503, count: 100 });
    const api = client({
      breaker: { failures: 2, cooldownMs: 10_000 },
      retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 20 },
    });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('unavailable');
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect(sandbox.requests()).toHaveLength(2);
  });

  it(
    'counts only consecutive outages: an answer of the same call such as 404 resets the count',
    { timeout: 5000 },
    async () => {
      const api = client({ breaker: { failures: 3, cooldownMs: 10_000 }, retry: { attempts: 1 } });
      const details = (id: string) =>
        api.call('property-details', { property_id: id }).catch((e: unknown) => (e as ApiError).kind);
      sandbox.addFault({ status: 503, count: 2 });
      await details('999999999');
      await details('999999999');
      expect(await details('999999999')).toBe('http'); // a 404: an answer, not an outage
      sandbox.addFault({ status: 503, count: 10 });
      await details('999999999');
      expect(await details('999999999')).toBe('http'); // the fourth failure, but only the second in a row
      expect(await details('999999999')).toBe('http'); // the third in a row: it opens the circuit
      expect(await details('999999999')).toBe('unavailable');
      expect(sandbox.requests()).toHaveLength(6);
    },
  );

  it(
    'one area failing on every operation opens its own circuit only: other areas and operations still answer',
    { timeout: 10_000 },
    async () => {
      // JLT (86) answers 503 to its transactions and its trend, as in a compare where one area fails.
      sandbox.addFault({ status: 503, params: { location_id: '86' } });
      const api = client({ breaker: { failures: 3, cooldownMs: 10_000 }, retry: { attempts: 2, baseDelayMs: 5 } });
      const jlt = () =>
        Promise.all([
          api.call('get-get-transactions', { location_id: '86', transaction_type: 'rented' }),
          api.call('price-trend-of-location', { location_id: '86' }),
        ]).catch((e: unknown) => (e as ApiError).kind);
      for (let i = 0; i < 4; i++) await jlt();
      // JLT is refused without being sent: its circuits are open.
      const sentBefore = sandbox.requests().length;
      expect(await jlt()).toBe('unavailable');
      expect(sandbox.requests()).toHaveLength(sentBefore);
      // Every other area answers, on the same operations and on others (a valuation's listings among them).
      expect(api.budgetLeft().blockedForMs).toBe(0);
      const marina = await api.call('get-get-transactions', { location_id: '50', transaction_type: 'rented' });
      expect(marina.records.length).toBeGreaterThan(0);
      expect((await api.call('price-trend-of-location', { location_id: '51' })).records.length).toBeGreaterThan(0);
      expect((await api.call('search-rent', { location_id: '50' })).records.length).toBeGreaterThan(0);
      expect((await api.call('search-brokers', {})).records.length).toBeGreaterThan(0);
    },
  );

  it('one operation failing in every area leaves the other operations answering', { timeout: 10_000 }, async () => {
    sandbox.addFault({ status: 503, path: '/price-trend-of-location' });
    const api = client({ breaker: { failures: 3, cooldownMs: 10_000 }, retry: { attempts: 1 } });
    for (const id of ['50', '51', '86', '50', '51', '86'])
      expect(
        await api.call('price-trend-of-location', { location_id: id }).catch((e: unknown) => (e as ApiError).kind),
      ).toBe('http');
    expect(api.budgetLeft().blockedForMs).toBe(0);
    expect((await api.call('search-rent', { location_id: '86' })).records.length).toBeGreaterThan(0);
  });
});
