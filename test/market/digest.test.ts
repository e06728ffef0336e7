// An area's digest over the real client and the sandbox on loopback: its numbers against the sandbox's own answers
// (read over raw HTTP and computed here), what it costs, the shared cache, the page cap, failures and the budget.
import { describe, expect, it } from 'vitest';
import { CallMeter, composeAreaDigest, type AreaDigest } from '../../src/market/index.js';
import { DIGEST_KIND, renderDigest } from '../../src/digests/index.js';
import { BUCKET_OF, marketRig, med } from './helpers.js';

const DAY = 86_400_000;
const MARINA = { id: '50', name: 'Dubai Marina' };
const compose = (
  market: Parameters<typeof composeAreaDigest>[0],
  area: { id: string; name: string },
  now: Date,
  days = 7,
) => composeAreaDigest(market, area, { since: new Date(now.getTime() - days * DAY), now });

/** Count and median per bucket (studio..4+) of raw transaction rows, computed here. */
function perBucket(rows: { bedrooms: number; price: number }[]) {
  const out: Record<string, { count: number; median?: number }> = {};
  for (const b of ['studio', '1', '2', '3', '4+']) {
    const prices = rows.filter((t) => BUCKET_OF(t.bedrooms) === b).map((t) => t.price);
    out[b] = { count: prices.length, ...(prices.length >= 3 ? { median: med(prices)! } : {}) };
  }
  return out;
}

describe('an area digest checked against the sandbox', () => {
  it('sold, rented, yields, trend, new listings and projects agree with the raw answers; about ten calls', async () => {
    const rig = await marketRig();
    rig.sandbox.advance(24 * 60);
    const now = rig.sandbox.now();
    rig.sandbox.clearRequests();
    const d = await compose(rig.market, MARINA, now);
    expect(d.state).toBe('ok');
    // The cost: every call the digest made is one the sandbox saw.
    expect(d.calls).toBe(rig.upstream());
    expect(d.calls).toBeGreaterThanOrEqual(6);
    expect(d.calls).toBeLessThanOrEqual(12);
    console.info(`one place's digest (Dubai Marina, nothing cached): ${d.calls} calls`, d.callsByOperation);

    for (const type of ['sold', 'rented'] as const) {
      const rows = await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: type, period: '1m' });
      const part = d[type];
      expect(part.state).toBe('ok');
      expect(part.period.label).toBe('last 30 days');
      expect(part.sources[0]).toMatchObject({
        operation: 'get-get-transactions',
        path: '/get-get-transactions',
        params: { transaction_type: type, period: '1m' },
      });
      expect(part.data!.total).toBe(rows.length);
      expect(part.data!.atLeast).toBe(false);
      expect(part.data!.median).toBe(med(rows.map((t) => t.price)));
      const expected = perBucket(rows);
      for (const b of part.data!.buckets) {
        expect(b.count, `${type} ${b.bucket}`).toBe(expected[b.bucket]!.count);
        expect(b.median, `${type} ${b.bucket}`).toBe(expected[b.bucket]!.median);
        expect(b.thin).toBe(expected[b.bucket]!.median === undefined);
      }
    }

    const sold = perBucket(
      await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'sold', period: '1m' }),
    );
    const rented = perBucket(
      await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'rented', period: '1m' }),
    );
    const yields = ['studio', '1', '2', '3', '4+']
      .filter((b) => sold[b]!.median && rented[b]!.median)
      .map((b) => ({ bucket: b, pct: (rented[b]!.median! / sold[b]!.median!) * 100 }));
    expect(yields.length).toBeGreaterThanOrEqual(2);
    expect(d.yields.data!.map((y) => ({ bucket: y.bucket, pct: y.grossYieldPct }))).toEqual(yields);
    // Believable: the sandbox's Marina yields 6.5 % gross.
    for (const y of yields) expect(y.pct).toBeGreaterThan(5);
    for (const y of yields) expect(y.pct).toBeLessThan(8);

    const points = await rig.raw('/price-trend-of-location', { location_id: '50' });
    expect(d.trend.state).toBe('ok');
    expect(d.trend.period.label).toBe('Dec 2025 to Nov 2026');
    for (let bed = 0; bed <= 4; bed++) {
      const series = points
        .filter((p) => p.bedroom_id === bed)
        .sort((a, b) => a.date.localeCompare(b.date))
        .map((p) => p.community_price as number);
      const b = d.trend.data!.buckets.find((x) => x.bucket === BUCKET_OF(bed))!;
      expect(b.latest.ppsf).toBe(series.at(-1));
      expect(b.change1m).toBeCloseTo((series.at(-1)! / series.at(-2)! - 1) * 100, 9);
      expect(b.change3m).toBeCloseTo((series.at(-1)! / series.at(-4)! - 1) * 100, 9);
      expect(b.changeSeries).toBeCloseTo((series.at(-1)! / series[0]! - 1) * 100, 9);
      expect(b.series).toHaveLength(12);
    }
    // The trend and the sales agree: the 2-bed median AED/sqft of the month's sales sits near the trend's 2-bed price.
    const twoBed = (
      await rig.raw('/get-get-transactions', {
        location_id: '50',
        transaction_type: 'sold',
        period: '1m',
        bedrooms: '2',
      })
    ).map((t) => t.price / t.area_sqft);
    const trend2 = d.trend.data!.buckets.find((b) => b.bucket === '2')!.latest.ppsf;
    expect(Math.abs(med(twoBed)! / trend2 - 1)).toBeLessThan(0.08);

    const since = now.getTime() - 7 * DAY;
    for (const [kind, path] of [
      ['sale', '/search-buy'],
      ['rent', '/search-rent'],
    ] as const) {
      const fresh = (await rig.raw(path, { location_id: '50', sort: 'newest' })).filter(
        (l) => Date.parse(l.listed_date) >= since,
      );
      expect(d.newListings.data![kind]).toEqual({ count: fresh.length, atLeast: false, undated: 0 });
      if (kind !== 'sale') continue;
      const trend = Object.fromEntries(d.trend.data!.buckets.map((b) => [b.bucket, b.latest.ppsf]));
      const ranked = fresh
        .filter((l) => l.property_type === 'Apartment' && !l.price.is_hidden && l.size.value > 0)
        .map((l) => ({
          id: l.property_id,
          diff: (l.price.value / l.size.value / trend[BUCKET_OF(Number(l.bedrooms))]! - 1) * 100,
        }))
        .sort((a, b) => a.diff - b.diff)
        .slice(0, 3);
      expect(ranked.length).toBeGreaterThan(0);
      expect(d.newListings.data!.cheapest.map((c) => ({ id: c.listing.property_id, diff: c.diffPct }))).toEqual(ranked);
    }

    const projects = await rig.raw('/search-new-projects', { location_id: '50', sort: 'newest' });
    expect(d.projects.data!.count).toBe(projects.length);
    expect(d.projects.data!.first.map((p) => [p.name, p.developer, p.handover])).toEqual(
      projects.slice(0, 3).map((p) => [p.name, p.developer_name, p.delivery_date]),
    );
  });
});

describe('the shared cache', () => {
  it('a second digest within MARKET_CACHE_H costs no call; past it, the data is fetched again', async () => {
    let clock = Date.parse('2026-11-01T06:00:00Z');
    const rig = await marketRig({ market: { now: () => clock, cacheTtlMs: 6 * 3_600_000 } });
    const now = rig.sandbox.now();
    const first = await compose(rig.market, MARINA, now);
    expect(first.calls).toBeGreaterThan(0);
    rig.sandbox.clearRequests();
    clock += 10 * 60_000;
    const second = await compose(rig.market, MARINA, now);
    expect(second.calls).toBe(0);
    expect(rig.upstream()).toBe(0);
    expect(second.sold.data).toEqual(first.sold.data);
    expect(rig.market.estimateCalls('50')).toBe(0);
    // Past the listings' 15 minutes, only the two newest-listing searches are read again: "a couple of calls".
    clock += 10 * 60_000;
    const third = await compose(rig.market, MARINA, now);
    expect(third.callsByOperation).toEqual({ 'search-buy': 1, 'search-rent': 1 });
    clock += 6 * 3_600_000;
    rig.sandbox.clearRequests();
    const later = await compose(rig.market, MARINA, now);
    expect(later.calls).toBe(first.calls);
    expect(rig.upstream()).toBe(first.calls);
  });

  it('ten concurrent digests of one area cost one set of calls', async () => {
    const rig = await marketRig();
    const now = rig.sandbox.now();
    const alone = await compose(rig.newMarket(), MARINA, now);
    rig.sandbox.clearRequests();
    const ten = await Promise.all(Array.from({ length: 10 }, () => compose(rig.market, MARINA, now)));
    expect(rig.upstream()).toBe(alone.calls);
    expect(ten.reduce((s, d) => s + d.calls, 0)).toBe(alone.calls);
    for (const d of ten) expect(d.sold.data).toEqual(alone.sold.data);
    expect(rig.market.stats().calls).toBe(alone.calls);
  });
});

describe('pages', () => {
  it('the page cap: the count says at least; without a cap every page to a short one', async () => {
    const rig = await marketRig({ market: { maxPages: 1 } });
    const capped = await rig.market.transactions('50', 'rented', '1m');
    expect(capped).toMatchObject({ count: 15, atLeast: true, complete: false, pages: 1 });
    const d = await compose(rig.market, MARINA, rig.sandbox.now());
    expect(d.rented.data).toMatchObject({ total: 15, atLeast: true });
    // The digest's median and table are of the 15 read: it names them, never passing them off as the month's.
    const first = (
      await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'rented', period: '1m' })
    )
      .slice(0, 15)
      .map((t) => t.price);
    const shown = renderDigest({
      v: 1,
      kind: DIGEST_KIND,
      title: 'Dubai Marina',
      since: 0,
      now: Date.now(),
      timezone: 'Asia/Dubai',
      areas: [d],
      charts: [],
    });
    expect(JSON.stringify(shown.blocks)).toContain(
      `Rented: at least 15 in the last 30 days; figures of the 15 most recent: median AED ${Math.round(med(first)!).toLocaleString('en-US')}`,
    );
    const all = await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'rented', period: '1m' });
    expect(all.length).toBeGreaterThan(15);
    const full = await rig.newMarket({ maxPages: 8 }).transactions('50', 'rented', '1m');
    expect(full).toMatchObject({
      count: all.length,
      atLeast: false,
      complete: true,
      pages: Math.ceil(all.length / 15) + (all.length % 15 === 0 ? 1 : 0),
    });
  });

  it('stops at total_pages when the answer gives one, and counts total_items even past the cap', async () => {
    const rig = await marketRig({ sandbox: { transactionShape: 'nested' } });
    const all = await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'rented', period: '1m' });
    rig.sandbox.clearRequests();
    const full = await rig.market.transactions('50', 'rented', '1m');
    expect(full).toMatchObject({
      count: all.length,
      atLeast: false,
      complete: true,
      totalPages: Math.ceil(all.length / 15),
    });
    expect(rig.upstream()).toBe(Math.ceil(all.length / 15));
    // A thin area in a fresh cache: one page, not a second empty one.
    rig.sandbox.clearRequests();
    await rig.newMarket().transactions('91', 'sold', '1m');
    expect(rig.upstream()).toBe(1);
    const capped = await rig.newMarket({ maxPages: 1 }).transactions('50', 'rented', '1m');
    expect(capped).toMatchObject({ count: all.length, atLeast: false, complete: false });
    expect(capped.records).toHaveLength(15);
  });
});

describe('failures and the budget', () => {
  it('a part whose calls fail says it could not be fetched; the rest is there', async () => {
    const rig = await marketRig();
    rig.sandbox.addFault({ status: 503, count: 4, path: '/get-get-transactions' });
    const d = await compose(rig.market, MARINA, rig.sandbox.now());
    expect(d.state).toBe('ok');
    expect(d.sold).toMatchObject({
      state: 'unavailable',
      failure: 'http',
      reason: 'the property service failed to answer',
    });
    expect(d.rented.state).toBe('unavailable');
    expect(d.yields.state).toBe('unavailable');
    expect(d.trend.state).toBe('ok');
    expect(d.projects.state).toBe('ok');
    // Failures are not cached: the next digest fetches them.
    const again = await compose(rig.market, MARINA, rig.sandbox.now());
    expect(again.sold.state).toBe('ok');
    expect(Object.keys(again.callsByOperation)).toEqual(['get-get-transactions']);
  });

  it('an area failing upstream is marked failed with the reason, not thrown; another area is unaffected', async () => {
    const rig = await marketRig({ client: { breaker: { failures: 1000 } } });
    rig.sandbox.addFault({ status: 503, count: 1000 });
    const failed = await compose(rig.market, MARINA, rig.sandbox.now());
    expect(failed.state).toBe('failed');
    expect(failed.failure).toMatchObject({ kind: 'http', reason: 'the property service failed to answer' });
    for (const part of [
      failed.sold,
      failed.rented,
      failed.trend,
      failed.yields,
      failed.newListings,
      failed.projects,
    ] as AreaDigest['sold'][])
      expect(part.state).toBe('unavailable');
    rig.sandbox.clearFaults();
    expect((await compose(rig.market, { id: '86', name: 'Business Bay' }, rig.sandbox.now())).state).toBe('ok');
  });

  it('a digest the budget cannot cover is not started: failed with kind budget, no call made; cached areas still cost nothing', async () => {
    const rig = await marketRig({ client: { budget: { perDay: 14 } } });
    const now = rig.sandbox.now();
    expect(rig.market.coverage(['50'])).toMatchObject({ ok: true, needed: 10, left: 14 });
    const meter = new CallMeter();
    const first = await composeAreaDigest(rig.market, MARINA, {
      since: new Date(now.getTime() - 7 * DAY),
      now,
      meter,
    });
    expect(first.state).toBe('ok');
    expect(meter.calls).toBe(first.calls);
    const cover = rig.market.coverage(['86', '51']);
    expect(cover).toMatchObject({
      ok: false,
      needed: 20,
      left: 14 - first.calls,
      reason: expect.stringContaining('calls'),
    });
    rig.sandbox.clearRequests();
    const postponed = await compose(rig.market, { id: '86', name: 'Business Bay' }, now);
    expect(postponed).toMatchObject({ state: 'failed', failure: { kind: 'budget' }, calls: 0 });
    expect(rig.upstream()).toBe(0);
    // The area cached a moment ago needs nothing.
    expect(rig.market.coverage(['50'])).toMatchObject({ ok: true, needed: 0 });
    expect((await compose(rig.market, MARINA, now)).state).toBe('ok');
  });
});
