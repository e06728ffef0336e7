// Time and size limits of a call, against upstreams that misbehave byte by byte (raw loopback servers) and the sandbox.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ApiClientOptions } from '../../src/api/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { drip, endless, rawServer, until, type RawServer } from './raw-server.js';

const KEY = 'sk-deadline-test-key-77';
let sandbox: Sandbox;
const servers: RawServer[] = [];
const clients: ApiClient[] = [];

const client = (baseUrl: string, extra: Partial<ApiClientOptions> = {}) => {
  const api = new ApiClient({ baseUrl, key: KEY, retry: { baseDelayMs: 10, maxDelayMs: 20 }, ...extra });
  clients.push(api);
  return api;
};

async function failure(work: Promise<unknown>): Promise<{ error: ApiError; ms: number }> {
  const started = performance.now();
  const error = await work.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { error: error as ApiError, ms: performance.now() - started };
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
});
afterAll(() => sandbox.close());
afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  for (const server of servers.splice(0)) await server.close();
  sandbox.clearFaults();
  sandbox.clearRequests();
});

async function serve(handler: Parameters<typeof rawServer>[0]) {
  const server = await rawServer(handler);
  servers.push(server);
  return server;
}

describe('one deadline per call', () => {
  it(
    'cuts off an upstream that drips one byte every 200 ms at the deadline, and does not retry past it',
    { timeout: 20_000 },
    async () => {
      const server = await serve(drip(200));
      // undici's gap-between-chunks timeout (10 s) never fires on a drip; the deadline must.
      const api = client(server.url, { deadlineMs: 600, bodyTimeoutSeconds: 10 });
      const { error, ms } = await failure(api.call('search-brokers', {}));
      expect(error.kind).toBe('timeout');
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/0\.6 s deadline/);
      expect(ms).toBeGreaterThanOrEqual(590);
      // At the deadline, not at the 10 s body time (how close to it: `npm run bench`).
      expect(ms).toBeLessThan(600 + 3000);
      expect(server.requests).toBe(1);
    },
  );

  it(
    'limits each attempt to its whole body time, however steadily the bytes come, then retries',
    { timeout: 15_000 },
    async () => {
      const server = await serve(drip(100));
      const api = client(server.url, {
        deadlineMs: 5000,
        bodyTimeoutSeconds: 0.4,
        retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
      });
      const { error, ms } = await failure(api.call('search-brokers', {}));
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/no complete body within 400 ms/);
      expect(server.requests).toBe(2);
      expect(ms).toBeLessThan(2 * 400 + 2500); // ended by the attempts' body time, well before the 5 s deadline
      expect(api.stats().retries).toBe(1);
    },
  );

  it(
    'counts the wait for a free connection: 48 calls on 2 connections each end within their own deadline',
    { timeout: 30_000 },
    async () => {
      // Queued behind one another, the last would end after 48 × 400 / 2 ≈ 10 s; the first two answer in 0.4 s of the
      // 2.
      sandbox.addFault({ latencyMs: 400, count: 1000 });
      const api = client(sandbox.url!, { connections: 2, deadlineMs: 2000, headersTimeoutSeconds: 20 });
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 48 }, async () => {
          const t0 = performance.now();
          try {
            await api.call('search-brokers', {});
            return { ok: true, ms: performance.now() - t0 };
          } catch (e) {
            return { ok: false, kind: (e as ApiError).kind, ms: performance.now() - t0 };
          }
        }),
      );
      // Each ends near its 2 s deadline, not after its turn in the queue.
      for (const o of outcomes) expect(o.ms).toBeLessThan(2000 + 3000);
      expect(performance.now() - started).toBeLessThan(2000 + 3500);
      // About 2 answers every 400 ms fit in 2 s: some succeed, the rest time out instead of queueing for 10 s.
      const ok = outcomes.filter((o) => o.ok).length;
      expect(ok).toBeGreaterThanOrEqual(2);
      expect(ok).toBeLessThan(48);
      for (const o of outcomes.filter((x) => !x.ok)) expect(o.kind).toBe('timeout');
    },
  );

  it('counts the queue against the headers time of each attempt too', { timeout: 30_000 }, async () => {
    // As above: queued, the last would wait 10 s for its headers; the first two have them in 0.4 s of the 2.
    sandbox.addFault({ latencyMs: 400, count: 1000 });
    const api = client(sandbox.url!, {
      connections: 2,
      deadlineMs: 20_000,
      headersTimeoutSeconds: 2,
      retry: { attempts: 1 },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 48 }, async () => {
        const t0 = performance.now();
        const kind = await api.call('search-brokers', {}).then(
          () => 'ok',
          (e: unknown) => (e as ApiError).kind,
        );
        return { kind, ms: performance.now() - t0 };
      }),
    );
    // Each ends near its 2 s headers time, not after its turn in the queue (nor at the 20 s deadline).
    for (const o of outcomes) expect(o.ms).toBeLessThan(2000 + 3000);
    // The calls queued behind the first answers may not wait for headers any longer.
    const ok = outcomes.filter((o) => o.kind === 'ok').length;
    expect(ok).toBeGreaterThanOrEqual(2);
    expect(ok).toBeLessThan(48);
    for (const o of outcomes.filter((x) => x.kind !== 'ok')) expect(o.kind).toBe('timeout');
  });

  it('lets one call have a longer deadline than the client', { timeout: 5000 }, async () => {
    sandbox.addFault({ latencyMs: 500, count: 2 });
    const api = client(sandbox.url!, { deadlineMs: 200 });
    expect((await failure(api.call('search-brokers', {}))).error.kind).toBe('timeout');
    const result = await api.call('search-brokers', {}, { deadlineMs: 5000 });
    expect(result.records.length).toBeGreaterThan(0);
  });

  it("stops at once when the caller's signal aborts", { timeout: 15_000 }, async () => {
    const server = await serve(drip(200));
    const api = client(server.url, { deadlineMs: 10_000 });
    const controller = new AbortController();
    const pending = failure(api.call('search-brokers', {}, { signal: controller.signal }));
    await until(() => server.requests === 1); // the body is dripping
    const abortedAt = performance.now();
    controller.abort();
    const { error } = await pending;
    expect(error.kind).toBe('cancelled');
    expect(performance.now() - abortedAt).toBeLessThan(3000); // not at the 10 s deadline
  });
});

describe('body size cap', () => {
  it('refuses an answer over the cap with a clear error and does not retry it', async () => {
    const api = client(sandbox.url!, { maxBodyBytes: 1024 });
    const { error } = await failure(api.call('search-brokers', {}));
    expect(error.kind).toBe('too-large');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/larger than the 1 KiB limit/);
    expect(sandbox.requests()).toHaveLength(1);
    // The same answer under a cap it fits passes.
    expect((await client(sandbox.url!).call('search-brokers', {})).records.length).toBeGreaterThan(0);
  });

  it('stops reading an endless body without a length once it passes the cap', { timeout: 5000 }, async () => {
    const server = await serve(endless());
    const api = client(server.url, { maxBodyBytes: 256 * 1024, deadlineMs: 4000 });
    const { error, ms } = await failure(api.call('search-brokers', {}));
    expect(error.kind).toBe('too-large');
    expect(ms).toBeLessThan(2500); // at the cap, not at the 4 s deadline
    expect(server.requests).toBe(1);
  });
});

describe('a closed client', () => {
  it('fails at once, sends nothing and does not retry', async () => {
    const api = client(sandbox.url!);
    await api.close();
    const { error, ms } = await failure(api.call('search-brokers', {}));
    expect(error.kind).toBe('closed');
    expect(error.retryable).toBe(false);
    expect(ms).toBeLessThan(2000); // no wait at all; what proves "at once" is that nothing was sent or retried
    expect(sandbox.requests()).toEqual([]);
    expect(api.stats().retries).toBe(0);
  });

  it('stops a call waiting to retry as soon as it is closed', { timeout: 20_000 }, async () => {
    sandbox.addFault({ status: 503, count: 10 });
    // Its first retry waits 5 to 10 s: far beyond the bound below.
    const api = client(sandbox.url!, { retry: { attempts: 4, baseDelayMs: 10_000, maxDelayMs: 20_000 } });
    const pending = failure(api.call('search-brokers', {}));
    await until(() => sandbox.requests().length === 1);
    const closedAt = performance.now();
    await api.close();
    const { error } = await pending;
    expect(error.kind).toBe('closed');
    expect(error.retryable).toBe(false);
    expect(performance.now() - closedAt).toBeLessThan(2500);
    expect(sandbox.requests()).toHaveLength(1);
  });
});
