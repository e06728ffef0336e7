// How closely the client keeps its time limits, on loopback: the figures the tests leave out, since a loaded machine
// moves them (the tests only tell the limit from the slow path it prevents).
import { ApiClient, ApiError } from '../src/api/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { drip, endless, rawServer, until } from '../test/api/raw-server.js';
import type { BenchResult } from './doc.js';
import { median, ms } from './stats.js';

const KEY = 'bench-api-limits-key';

/** How long `work` takes to fail (it must). */
async function failsIn(work: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  const e = await work().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return performance.now() - t;
}

export async function run(): Promise<BenchResult> {
  const figures: Record<string, string | number> = {};
  // The numbers the document's row is judged by, in ms.
  const at = {
    cut: NaN,
    abort: NaN,
    cap: NaN,
    firstHeld: NaN,
    lastHeld: NaN,
    pastDeadline: NaN,
    circuit: NaN,
    close: NaN,
  };
  const sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  const dripping = await rawServer(drip(200));
  const flood = await rawServer(endless());
  const quick = { baseDelayMs: 10, maxDelayMs: 20 };
  try {
    // A 600 ms deadline against a body dripping one byte every 200 ms (median of 3).
    const cut: number[] = [];
    for (let i = 0; i < 3; i++) {
      const api = new ApiClient({
        baseUrl: dripping.url,
        key: KEY,
        deadlineMs: 600,
        bodyTimeoutSeconds: 10,
        retry: quick,
      });
      cut.push(await failsIn(() => api.call('search-brokers', {})));
      await api.close();
    }
    at.cut = median(cut);
    figures['deadline 600 ms: cut off after'] = ms(at.cut);

    // A caller's signal aborted while the body drips.
    {
      const api = new ApiClient({ baseUrl: dripping.url, key: KEY, deadlineMs: 10_000, retry: quick });
      const controller = new AbortController();
      const before = dripping.requests;
      const pending = failsIn(() => api.call('search-brokers', {}, { signal: controller.signal }));
      await until(() => dripping.requests > before);
      const t = performance.now();
      controller.abort();
      await pending;
      at.abort = performance.now() - t;
      figures['abort: stopped after'] = ms(at.abort);
      await api.close();
    }

    // An endless body without a length, capped at 256 KiB.
    {
      const api = new ApiClient({
        baseUrl: flood.url,
        key: KEY,
        maxBodyBytes: 256 * 1024,
        deadlineMs: 4000,
        retry: quick,
      });
      at.cap = await failsIn(() => api.call('search-brokers', {}));
      figures['endless body, 256 KiB cap: after'] = ms(at.cap);
      await api.close();
    }

    // 30 callers held by one Retry-After: 1 (each waits up to half of it more, at random).
    {
      sandbox.clearRequests();
      sandbox.addFault({ status: 429, retryAfter: 1, count: 1 });
      const api = new ApiClient({ baseUrl: sandbox.url!, key: KEY, retry: quick });
      const first = api.call('search-brokers', {});
      await until(() => api.budgetLeft().blockedForMs > 0);
      await Promise.all([first, ...Array.from({ length: 30 }, () => api.call('search-brokers', {}))]);
      const [refused, ...after] = sandbox.requests().map((r) => Date.parse(r.at));
      at.firstHeld = Math.min(...after) - refused!;
      at.lastHeld = Math.max(...after) - refused!;
      figures['Retry-After 1 s: first held at'] = `+${at.firstHeld} ms (not before +1000)`;
      figures['Retry-After 1 s: last held at'] = `+${at.lastHeld} ms (at most +1500 planned)`;
      await api.close();
      sandbox.clearFaults();
    }

    // 10 callers whose 500 ms deadline ends before a Retry-After: 2, refused unsent.
    {
      sandbox.addFault({ status: 429, retryAfter: 2, count: 1 });
      const api = new ApiClient({ baseUrl: sandbox.url!, key: KEY, deadlineMs: 500, retry: quick });
      await api.call('search-brokers', {}).catch(() => {});
      const t = performance.now();
      await Promise.all(Array.from({ length: 10 }, () => api.call('search-brokers', {}).catch(() => {})));
      at.pastDeadline = performance.now() - t;
      figures['Retry-After past deadline: 10 in'] = ms(at.pastDeadline);
      await api.close();
      sandbox.clearFaults();
    }

    // An open circuit: each call refused unsent (median of 100).
    {
      sandbox.addFault({ status: 503, count: 3 });
      const api = new ApiClient({
        baseUrl: sandbox.url!,
        key: KEY,
        breaker: { failures: 3, cooldownMs: 60_000 },
        retry: { attempts: 1 },
      });
      for (let i = 0; i < 3; i++) await api.call('search-brokers', {}).catch(() => {});
      const refusals: number[] = [];
      for (let i = 0; i < 100; i++) refusals.push(await failsIn(() => api.call('search-brokers', {})));
      at.circuit = median(refusals);
      figures['open circuit: refused in (p50)'] = ms(at.circuit);
      await api.close();
      sandbox.clearFaults();
    }

    // A call sleeping before its retry, stopped by close().
    {
      sandbox.addFault({ status: 503, count: 1 });
      const api = new ApiClient({
        baseUrl: sandbox.url!,
        key: KEY,
        retry: { attempts: 2, baseDelayMs: 10_000, maxDelayMs: 20_000 },
      });
      sandbox.clearRequests();
      const pending = failsIn(() => api.call('search-brokers', {}));
      await until(() => sandbox.requests().length === 1);
      const t = performance.now();
      await api.close();
      await pending;
      at.close = performance.now() - t;
      figures['close: waiting retry stopped in'] = ms(at.close);
      sandbox.clearFaults();
    }
  } finally {
    await dripping.close();
    await flood.close();
    await sandbox.close();
  }
  const row = {
    name: 'How closely the API client keeps its limits on loopback',
    figure: `a 600 ms deadline cuts a dripping body off after ${ms(at.cut)}; an abort stops a call in ${ms(at.abort)}; a 256 KiB cap stops an endless body in ${ms(at.cap)}; after a 429 with Retry-After 1 s the held callers arrive from +${at.firstHeld} ms to +${at.lastHeld} ms; callers whose 500 ms deadline ends first are refused in ${ms(at.pastDeadline)}; an open circuit refuses in ${ms(at.circuit)}; \`close()\` stops a waiting retry in ${ms(at.close)}`,
    goal: 'at the limit, not after it: the deadline within 10 %, held callers from +1,000 to about +1,500 ms, refused before their deadline',
    pass: at.cut <= 660 && at.firstHeld >= 1_000 && at.lastHeld <= 1_550 && at.pastDeadline < 500,
  };
  return { figures, rows: [row] };
}
