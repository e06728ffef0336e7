// The call budget across restarts: the day's and the month's calls are counted in a real SQLite file, so a
// restarted client (or a crash loop) cannot spend them again. Real sandbox on 127.0.0.1.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type BudgetLimits } from '../../src/api/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createApiUsageRepo, openStore } from '../../src/store/index.js';
import { tempDir } from '../store/helpers.js';

const KEY = 'sk-ledger-test-key-55';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.clearRequests());

/** One run of Manzil: a store on `file` and a client whose budget counts in it. */
async function run(file: string, budget: Partial<BudgetLimits>, baseUrl = sandbox.url!) {
  const store = openStore(file);
  const api = new ApiClient({
    baseUrl,
    key: KEY,
    budget: { maxWaitMs: 0, ...budget },
    ledger: createApiUsageRepo(store, baseUrl),
  });
  // As a start does (app/service.ts openService): what earlier runs spent counts from the first call.
  await api.refreshBudget();
  return {
    api,
    stop: async () => {
      await api.close();
      store.close();
    },
  };
}

describe.each([
  { window: 'daily', limits: { perDay: 2 }, left: 'day' as const },
  { window: 'monthly', limits: { perMonth: 2 }, left: 'month' as const },
])('the $window limit after a restart', ({ window, limits, left }) => {
  it('refuses the next call without contacting the service', async () => {
    const file = path.join(tempDir(), 'manzil.db');
    const a = await run(file, limits);
    expect(a.api.budgetLeft()[left]).toBe(2);
    await a.api.call('search-brokers', {});
    await a.api.call('search-brokers', {});
    await a.stop();
    expect(sandbox.requests()).toHaveLength(2);

    const b = await run(file, limits);
    expect(b.api.budgetLeft()[left]).toBe(0);
    expect(b.api.budgetLeft().blockedForMs).toBeGreaterThan(0);
    const err = (await b.api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('budget');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(`${window} limit of 2 calls`);
    expect(sandbox.requests()).toHaveLength(2);
    await b.stop();
  });
});

describe('the ledger', () => {
  it('counts every attempt, retries included, and keeps each service apart', async () => {
    const file = path.join(tempDir(), 'manzil.db');
    sandbox.addFault({ status: 503, count: 1 });
    const a = await run(file, { perDay: 5, perMonth: 10 });
    await a.api.call('search-brokers', {}); // 503, then 200: two billed calls
    expect(a.api.budgetLeft()).toEqual({ blockedForMs: 0, day: 3, month: 8 });
    await a.stop();

    const store = openStore(file);
    const other = new ApiClient({
      baseUrl: sandbox.url!,
      key: KEY,
      budget: { perDay: 5 },
      ledger: createApiUsageRepo(store, 'https://another.example'),
    });
    expect(other.budgetLeft().day).toBe(5);
    await other.close();
    store.close();
  });

  it("counts a service the same however its base URL is written (a trailing slash, the host's case)", async () => {
    const file = path.join(tempDir(), 'manzil.db');
    const url = sandbox.url!.replace(/\/+$/, '');
    const a = await run(file, { perDay: 3, perMonth: 10 }, url);
    await a.api.call('search-brokers', {});
    await a.api.call('search-brokers', {});
    await a.stop();
    for (const written of [`${url}/`, `${url.replace(/^http:/, 'HTTP:')}/`]) {
      const b = await run(file, { perDay: 3, perMonth: 10 }, written);
      expect(b.api.budgetLeft()).toEqual({ blockedForMs: 0, day: 1, month: 8 });
      await b.stop();
    }
  });

  it('says nothing is left under no limit, and that nothing blocks', async () => {
    const a = await run(path.join(tempDir(), 'manzil.db'), {});
    expect(a.api.budgetLeft()).toEqual({ blockedForMs: 0 });
    await a.stop();
  });
});
