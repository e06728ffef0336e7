// The real client against the real sandbox over 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/api/index.js';
import { createLogger } from '../../src/log.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

const KEY = 'sk-live-very-secret-key-0042';
const logLines: string[] = [];
let sandbox: Sandbox;
let url: string;

const client = (extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) =>
  new ApiClient({
    baseUrl: url,
    key: KEY,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    headersTimeoutSeconds: 2,
    logger: createLogger({ level: 'debug', write: (l) => logLines.push(l) }),
    ...extra,
  });

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  url = await sandbox.listen();
});
afterAll(() => sandbox.close());
afterEach(() => {
  sandbox.clearFaults();
  sandbox.clearRequests();
});

/** Parameters that make a realistic call of each operation. */
const SAMPLE: Record<OperationName, Record<string, string>> = {
  'search-buy': { location_id: '50' },
  'search-rent': { location_id: '50', bedrooms: '1,2' },
  'search-commercial-rent': { location_id: '86' },
  'search-commercial-buy': { location_id: '86' },
  'search-new-projects': { location_id: '51' },
  'agent-properties': { agent_id: '' },
  'broker-properties': { broker_id: '' },
  'get-get-transactions': { location_id: '50', transaction_type: 'sold' },
  'get-adrec-transactions': {},
  'property-details': { property_id: '' },
  'search-agents': { location_id: '50' },
  'search-agents-detailed': { location_id: '50' },
  'search-brokers': {},
  'search-brokers-detailed': {},
  'autocomplete-location': { query: 'marina' },
  'real-estate-developer': { location: 'dubai' },
  'price-trend-of-location': { location_id: '50' },
};

describe('every operation', () => {
  it('answers all 17 with validated records, the gateway headers on each request', async () => {
    const api = client();
    const listing = (await api.call('search-buy', { location_id: '50' })).records[0]!;
    const agent = (await api.call('search-agents', {})).records[0]!;
    const broker = (await api.call('search-brokers', {})).records[0]!;
    const fill: Record<string, string> = {
      agent_id: String(agent.id),
      broker_id: String(broker.id),
      property_id: listing.property_id,
    };
    sandbox.clearRequests();
    for (const op of OPERATION_NAMES) {
      const params = Object.fromEntries(Object.entries(SAMPLE[op]).map(([k, v]) => [k, v || fill[k]!]));
      const result = await api.call(op, params);
      expect(result.records.length, op).toBeGreaterThan(0);
      expect(result.dropped, op).toBe(0);
    }
    const log = sandbox.requests();
    expect(log.map((r) => r.path)).toEqual(OPERATION_NAMES.map((op) => OPERATIONS[op].path));
    for (const r of log) {
      expect(r.headers['x-gateway-host']).toBe(new URL(url).host);
      expect(r.headers['x-gateway-key']).toBe('***');
    }
    await api.close();
  });

  it('omits unset parameters instead of sending them empty', async () => {
    const api = client();
    await api.call('search-rent', { location_id: '50', property_type: '', bedrooms: undefined, sort: 'price_asc' });
    expect(sandbox.requests()[0]!.params).toEqual({ location_id: '50', sort: 'price_asc' });
    await api.close();
  });
});

describe('paging and filters', () => {
  it('pages through results and gets an empty page past the end', async () => {
    const api = client();
    const p1 = await api.call('search-rent', { location_id: '50', page: '1' });
    const p2 = await api.call('search-rent', { location_id: '50', page: '2' });
    const ids1 = p1.records.map((r) => r.property_id);
    const ids2 = p2.records.map((r) => r.property_id);
    expect(ids1.length).toBeGreaterThan(0);
    expect(ids2.some((id) => ids1.includes(id))).toBe(false);
    const far = await api.call('search-rent', { location_id: '50', page: '999' });
    expect(far.records).toEqual([]);
    await api.close();
  });

  it('applies each filter family through the client', async () => {
    const api = client();
    const rent = await api.call('search-rent', {
      location_id: '50',
      bedrooms: '1,2',
      price_max: '150000',
      property_type: 'apartment',
      sort: 'price_asc',
    });
    expect(rent.records.length).toBeGreaterThan(0);
    for (const r of rent.records) {
      expect(['1', '2']).toContain(r.bedrooms);
      expect(r.price?.value ?? 0).toBeLessThanOrEqual(150000);
    }
    const prices = rent.records.map((r) => r.price?.value ?? 0);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    const big = await api.call('search-buy', { location_id: '50', area_min: '2000' });
    for (const r of big.records) expect(r.size?.value ?? 0).toBeGreaterThanOrEqual(2000);

    const tx = await api.call('get-get-transactions', {
      location_id: '50',
      transaction_type: 'sold',
      bedrooms: '2',
      period: '6m',
    });
    for (const t of tx.records) expect(t.bedrooms).toBe(2);

    const adrec = await api.call('get-adrec-transactions', { page: '0', size: '5' });
    expect(adrec.records.length).toBe(5);
    await api.close();
  });

  it('reads transactions in the nested shape some callers report', async () => {
    const nested = createSandbox({ key: KEY, transactionShape: 'nested' });
    const nestedUrl = await nested.listen();
    const api = new ApiClient({ baseUrl: nestedUrl, key: KEY });
    const tx = await api.call('get-get-transactions', { location_id: '50', transaction_type: 'rented' });
    expect(tx.records.length).toBeGreaterThan(0);
    expect(typeof tx.records[0]!.price).toBe('number');
    expect(tx.totalItems).toBeGreaterThan(0);
    await api.close();
    await nested.close();
  });
});

describe('errors', () => {
  it('sends nothing for invalid parameters and names the parameter and the allowed values', async () => {
    const api = client();
    const err = await api.call('search-rent', { location_id: '50', furnishing: 'sometimes' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('invalid-params');
    expect((err as ApiError).message).toMatch(/furnishing must be one of: furnished, unfurnished, partly/);
    const missing = await api.call('search-buy', {}).catch((e: unknown) => e);
    expect((missing as ApiError).message).toMatch(/location_id is required/);
    const badDate = await api.call('get-adrec-transactions', { fromDate: '2026-01-01' }).catch((e: unknown) => e);
    expect((badDate as ApiError).problems[0]!.param).toBe('fromDate');
    expect(sandbox.requests()).toEqual([]);
    await api.close();
  });

  it('does not retry 401 and reports it without the key', async () => {
    const api = new ApiClient({
      baseUrl: url,
      key: 'sk-wrong-key-9999',
      logger: createLogger({ write: (l) => logLines.push(l) }),
    });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    expect(sandbox.requests()).toHaveLength(1);
    expect(err.message).not.toContain('sk-wrong-key-9999');
    await api.close();
  });

  it('reports 403 for an operation outside the plan, without retrying', async () => {
    const basic = createSandbox({ key: KEY, plan: 'basic' });
    const basicUrl = await basic.listen();
    const api = new ApiClient({ baseUrl: basicUrl, key: KEY });
    const err = (await api.call('search-agents-detailed', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(403);
    expect(basic.requests()).toHaveLength(1);
    await api.close();
    await basic.close();
  });

  it('reports 404 for an unknown property, distinct from an empty result', async () => {
    const api = client();
    const err = (await api.call('property-details', { property_id: '999999999' }).catch((e: unknown) => e)) as ApiError;
    expect(err.notFound).toBe(true);
    expect(sandbox.requests()).toHaveLength(1);
    await api.close();
  });

  it('does not retry a 400 from the service', async () => {
    sandbox.addFault({ status: 400, count: 1 });
    const api = client();
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(400);
    expect(sandbox.requests()).toHaveLength(1);
    await api.close();
  });
});

describe('retries', () => {
  it('waits for Retry-After on 429 and then succeeds', async () => {
    sandbox.addFault({ status: 429, retryAfter: 1, count: 1 });
    const api = client();
    const started = Date.now();
    const result = await api.call('search-brokers', {});
    expect(result.records.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(sandbox.requests()).toHaveLength(2);
    expect(api.stats().retries).toBe(1);
    await api.close();
  });

  it('survives 503 twice then 200', async () => {
    sandbox.addFault({ status: 503, count: 2 });
    const api = client();
    const result = await api.call('search-rent', { location_id: '50' });
    expect(result.records.length).toBeGreaterThan(0);
    expect(sandbox.requests()).toHaveLength(3);
    await api.close();
  });

  it('gives up after the configured attempts and says the service failed, never "no results"', async () => {
    sandbox.addFault({ status: 503, count: 10 });
    const api = client({ retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 20 } });
    const err = (await api.call('search-rent', { location_id: '50' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.retryable).toBe(true);
    expect(sandbox.requests()).toHaveLength(3);
    await api.close();
  });

  it('fails at once when Retry-After is longer than it will wait', async () => {
    sandbox.addFault({ status: 429, retryAfter: 3600, count: 1 });
    const api = client({ retry: { maxRetryAfterMs: 5000 } });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(429);
    expect(sandbox.requests()).toHaveLength(1);
    await api.close();
  });

  it('retries a malformed (truncated) answer and reports it when it persists', async () => {
    sandbox.addFault({ malformed: true, count: 1 });
    const api = client();
    expect((await api.call('search-brokers', {})).records.length).toBeGreaterThan(0);
    sandbox.addFault({ malformed: true, count: 10 });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('malformed');
    await api.close();
  });

  it('times out a slow answer, retries, and succeeds when the service recovers', async () => {
    sandbox.addFault({ latencyMs: 1500, count: 1 });
    const api = client({ headersTimeoutSeconds: 0.3 });
    const result = await api.call('search-brokers', {});
    expect(result.records.length).toBeGreaterThan(0);
    expect(api.stats().retries).toBe(1);
    sandbox.addFault({ latencyMs: 1500, count: 5 });
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('timeout');
    await api.close();
  });
});

describe('call budget', () => {
  it('refuses beyond the per-minute limit without sending, when the wait is too long', async () => {
    const api = client({ budget: { perMinute: 2, maxWaitMs: 0 } });
    await api.call('search-brokers', {});
    await api.call('search-brokers', {});
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('budget');
    expect(err.message).toMatch(/2 calls a minute/);
    expect(sandbox.requests()).toHaveLength(2);
    expect(api.stats().calls['search-brokers']).toBe(2);
    await api.close();
  });

  it('never exceeds the limit when calls race each other', async () => {
    const api = client({ budget: { perMinute: 2, maxWaitMs: 0 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => api.call('search-brokers', {})));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(outcomes.filter((o) => o.status === 'rejected' && (o.reason as ApiError).kind === 'budget')).toHaveLength(3);
    expect(sandbox.requests()).toHaveLength(2);
    await api.close();
  });

  it("obeys the gateway's quota headers once the plan is used up", async () => {
    const metered = createSandbox({ key: KEY, quota: { perDay: 2 } });
    const meteredUrl = await metered.listen();
    const api = new ApiClient({ baseUrl: meteredUrl, key: KEY, budget: { maxWaitMs: 0 } });
    await api.call('search-brokers', {});
    await api.call('search-brokers', {});
    const err = (await api.call('search-brokers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('budget');
    expect(metered.requests()).toHaveLength(2);
    await api.close();
    await metered.close();
  });
});

describe('secrets', () => {
  it('never writes the key in an error message or a log line', () => {
    // Runs last in this file: every call above logged through `logLines`.
    expect(logLines.length).toBeGreaterThan(5);
    for (const line of logLines) expect(line).not.toContain(KEY);
  });
});
