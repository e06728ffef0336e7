// Faults, the request log, quota headers, the nested transactions shape and /__sandbox/ control over HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { get, useSandbox } from './helpers.js';

const sb = useSandbox({ key: 'secret-key-42' });
afterEach(() => {
  sb.sandbox.clearFaults();
  sb.sandbox.clearRequests();
});

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${sb.url}/__sandbox/${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });

describe('faults', () => {
  it('status with Retry-After, for `count` requests, then normal answers', async () => {
    sb.sandbox.addFault({ status: 429, retryAfter: 3, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await sb.api('/search-buy', { location_id: '50' });
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('3');
      expect(r.json).toEqual({ success: false, error: expect.any(String), code: 429 });
    }
    expect((await sb.api('/search-buy', { location_id: '50' })).status).toBe(200);
  });

  it('a malformed answer is 200 with a body that is not valid JSON', async () => {
    sb.sandbox.addFault({ malformed: true, count: 1 });
    const r = await sb.api('/search-buy', { location_id: '50' });
    expect(r.status).toBe(200);
    expect(r.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('latency holds back even the headers, so a client timeout fires', async () => {
    sb.sandbox.addFault({ latencyMs: 5_000, count: 1 });
    await expect(
      fetch(`${sb.url}/search-buy?location_id=50`, {
        headers: { 'x-gateway-key': sb.sandbox.key },
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    // The rule was used up by that request; the next one answers at once.
    expect((await sb.api('/search-buy', { location_id: '50' })).status).toBe(200);
  });

  it('path limits a rule to one operation; several rules can be active', async () => {
    sb.sandbox.addFault({ status: 503, path: '/search-rent' });
    sb.sandbox.addFault({ status: 502, path: '/search-agents', count: 1 });
    expect((await sb.api('/search-rent', { location_id: '50' })).status).toBe(503);
    expect((await sb.api('/search-rent', { location_id: '50' })).status).toBe(503);
    expect((await sb.api('/search-agents')).status).toBe(502);
    expect((await sb.api('/search-agents')).status).toBe(200);
    expect((await sb.api('/search-buy', { location_id: '50' })).status).toBe(200);
    sb.sandbox.clearFaults();
    expect((await sb.api('/search-rent', { location_id: '50' })).status).toBe(200);
  });

  it('ratio applies a rule to about that share of requests, the same way for the same seed', async () => {
    const statuses = async () => {
      const s = createSandbox({ seed: 5 });
      const url = await s.listen();
      s.addFault({ status: 500, ratio: 0.3 });
      const out: number[] = [];
      for (let i = 0; i < 60; i++) out.push((await get(url, '/autocomplete-location', { query: 'marina' })).status);
      await s.close();
      return out;
    };
    const a = await statuses();
    const failed = a.filter((x) => x === 500).length;
    expect(failed).toBeGreaterThan(6);
    expect(failed).toBeLessThan(36);
    expect(await statuses()).toEqual(a);
  });

  it('over HTTP: POST and DELETE /__sandbox/faults, and a bad rule is refused with 400', async () => {
    expect((await control('POST', 'faults', { status: 503, retryAfter: 1, count: 1 })).status).toBe(201);
    const r = await sb.api('/search-buy', { location_id: '50' });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect((await control('POST', 'faults', { status: 503 })).status).toBe(201);
    expect((await control('DELETE', 'faults')).status).toBe(200);
    expect((await sb.api('/search-buy', { location_id: '50' })).status).toBe(200);
    const bad = await control('POST', 'faults', { status: 'soon' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('status');
    expect(() => sb.sandbox.addFault({ ratio: 2, status: 500 })).toThrow(/ratio/);
  });
});

describe('request log', () => {
  it('records API requests with params and headers, the key masked everywhere', async () => {
    await sb.api('/search-rent', { location_id: '50', bedrooms: '1' });
    await get(sb.url, '/search-buy', { location_id: '51' }, 'secret-key-42-wrong');
    await control('GET', 'requests');
    const log = sb.sandbox.requests();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      method: 'GET',
      path: '/search-rent',
      params: { location_id: '50', bedrooms: '1' },
      headers: { 'x-gateway-key': '***' },
    });
    expect(log[1]!.headers['x-gateway-key']).toBe('***');
    expect(new Date(log[0]!.at).toString()).not.toBe('Invalid Date');
    const overHttp = await (await control('GET', 'requests')).text();
    expect(overHttp).not.toContain('secret-key-42');
    expect(JSON.stringify(log)).not.toContain('secret-key-42');
    expect(JSON.parse(overHttp)).toHaveLength(2);
    expect((await control('DELETE', 'requests')).status).toBe(200);
    expect(sb.sandbox.requests()).toEqual([]);
  });
});

describe('quota', () => {
  it('sends the gateway headers and answers 429 once the minute is used up', async () => {
    const s = createSandbox({ quota: { perMinute: 3, perDay: 100 } });
    const url = await s.listen();
    try {
      const replies = [];
      for (let i = 0; i < 4; i++) replies.push(await get(url, '/autocomplete-location', { query: 'marina' }));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('3');
      expect(replies[0]!.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(replies[2]!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(replies[0]!.headers.get('x-ratelimit-requests-limit')).toBe('100');
      expect(replies[2]!.headers.get('x-ratelimit-requests-remaining')).toBe('97');
      expect(Number(replies[3]!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(replies[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(replies[3]!.json.code).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('sends no quota headers by default', async () => {
    const r = await sb.api('/autocomplete-location', { query: 'marina' });
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    expect(r.headers.get('x-ratelimit-requests-limit')).toBeNull();
  });
});

describe('transactions in the nested shape', () => {
  it('wraps the same records in data.data.attributes with a summary and paging', async () => {
    const nested = createSandbox({ transactionShape: 'nested' });
    const url = await nested.listen();
    try {
      const params = { location_id: '50', transaction_type: 'sold', page: '2' };
      const n = (await get(url, '/get-get-transactions', params)).json;
      const flat = (await sb.api('/get-get-transactions', params)).json;
      const attrs = n.data.data.attributes;
      expect(attrs.transactions).toEqual(flat.data);
      expect(attrs.page).toBe(2);
      expect(attrs.total_pages).toBe(Math.ceil(attrs.total_items / 15));
      expect(attrs.summary).toMatchObject({
        total_transactions: attrs.total_items,
        average_price: expect.any(Number),
        average_price_per_sqft: expect.any(Number),
      });
      expect(attrs.summary.average_price_per_sqft).toBeGreaterThan(1500);
    } finally {
      await nested.close();
    }
  });
});
