// The market as its clock moves: the last 30 days of transactions never thin out, and a digest long after the start
// still has its medians; and the context a listing card shows, from the shared cache, within its call limits.
import { describe, expect, it } from 'vitest';
import { composeAreaDigest, contextText } from '../../src/market/index.js';
import { BUCKET_OF, marketRig, med } from './helpers.js';

const DAY = 86_400_000;
const MARINA = { id: '50', name: 'Dubai Marina' };

describe('transactions keep arriving as the market clock moves', () => {
  it('after 60 days the last 30 days still hold a month of sales and lettings, the newest dated at the clock', async () => {
    let clock = Date.parse('2026-11-01T00:00:00Z');
    const rig = await marketRig({ market: { now: () => clock } });
    const start = await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'sold', period: '1m' });
    for (let day = 1; day <= 60; day++) {
      rig.sandbox.advance(24 * 60);
      if (day % 20 !== 0) continue;
      for (const type of ['sold', 'rented']) {
        const rows = await rig.raw('/get-get-transactions', {
          location_id: '50',
          transaction_type: type,
          period: '1m',
        });
        expect(rows.length, `${type} after ${day} days`).toBeGreaterThanOrEqual(12);
        expect(rows.length).toBeLessThan(60);
        // None from before the start's month is left, and the newest is of the last few days (it is midnight).
        expect(rows.every((t) => t.transaction_date > '2026-11-01')).toBe(day >= 40);
        expect(
          rows[0].transaction_date >= new Date(rig.sandbox.now().getTime() - 7 * DAY).toISOString().slice(0, 10),
        ).toBe(true);
        expect(rows[0].transaction_date < rig.sandbox.now().toISOString().slice(0, 10)).toBe(true);
      }
      // The whole of Dubai closes something every day: its newest is of yesterday.
      const dubai = await rig.raw('/get-get-transactions', {
        location_id: '2',
        transaction_type: 'sold',
        period: '1m',
      });
      expect(dubai[0].transaction_date).toBe(new Date(rig.sandbox.now().getTime() - DAY).toISOString().slice(0, 10));
    }
    expect(start.length).toBeGreaterThanOrEqual(12);
    // Half a day later, transactions of the new day have arrived, dated at the clock.
    rig.sandbox.advance(12 * 60);
    const today = rig.sandbox.now().toISOString().slice(0, 10);
    const dubai = await rig.raw('/get-get-transactions', { location_id: '2', transaction_type: 'sold', period: '1m' });
    expect(dubai[0].transaction_date).toBe(today);

    clock += 7 * 3_600_000; // past the cache's 6 hours
    const now = rig.sandbox.now();
    const d = await composeAreaDigest(rig.market, MARINA, { since: new Date(now.getTime() - 7 * DAY), now });
    expect(d.state).toBe('ok');
    expect(d.sold.state).toBe('ok');
    expect(d.sold.data!.total).toBeGreaterThanOrEqual(12);
    expect(d.sold.data!.buckets.filter((b) => b.median !== undefined).length).toBeGreaterThanOrEqual(2);
    expect(d.yields.state).toBe('ok');
    // The trend moved on with the clock and the sales follow it.
    expect(d.trend.data!.to).toBe('Dec 2026');
    const two = d.trend.data!.buckets.find((b) => b.bucket === '2')!;
    const sales2 = (
      await rig.raw('/get-get-transactions', {
        location_id: '50',
        transaction_type: 'sold',
        period: '1m',
        bedrooms: '2',
      })
    ).map((t) => t.price / t.area_sqft);
    expect(Math.abs(med(sales2)! / two.latest.ppsf - 1)).toBeLessThan(0.1);
    // A whole day of new listings: the digest reads the newest pages within its cap and says "at least" when cut.
    expect(d.newListings.data!.sale.count).toBeGreaterThan(0);
  });
});

describe('market context on a listing card', () => {
  it('a sale against the trend, a rent against the whole last 30 days; one read per area and kind', async () => {
    const rig = await marketRig();
    const sale = (
      await rig.api.call('search-buy', { location_id: '50', bedrooms: '2', property_type: 'apartment' })
    ).records.find((l) => !l.price?.is_hidden)!;
    const rent = (
      await rig.api.call('search-rent', { location_id: '50', bedrooms: '1', property_type: 'apartment' })
    ).records.find((l) => !l.price?.is_hidden)!;
    rig.sandbox.clearRequests();

    const s = await rig.market.listingContext(MARINA, sale);
    expect(rig.upstream()).toBe(1);
    const points = await rig.raw('/price-trend-of-location', { location_id: '50' });
    const latest = points
      .filter((p) => p.bedroom_id === 2)
      .sort((a, b) => a.date.localeCompare(b.date))
      .at(-1).community_price;
    const ppsf = sale.price!.value! / sale.size!.value!;
    expect(s).toMatchObject({ kind: 'sale', bucket: '2', benchmark: latest, month: 'Nov 2026' });
    expect(s!.diffPct).toBeCloseTo((ppsf / latest - 1) * 100, 9);
    expect(contextText(s!)).toMatch(
      new RegExp(
        `^(\\d+ % (below|above)|in line with) Dubai Marina's 2-bed apartment average of AED ${latest.toLocaleString('en-US')}/sqft \\(price trend, Nov 2026\\)$`,
      ),
    );

    rig.sandbox.clearRequests();
    const r = await rig.market.listingContext(MARINA, rent);
    const calls = rig.upstream();
    // Every page of the month's lettings (15 a page, to a short one): the card's "last 30 days" is the whole month.
    const lettings = await rig.raw('/get-get-transactions', {
      location_id: '50',
      transaction_type: 'rented',
      period: '1m',
    });
    expect(calls).toBe(Math.floor(lettings.length / 15) + 1);
    const same = lettings
      .filter((t) => BUCKET_OF(t.bedrooms) === '1' && t.property_type === 'Apartment')
      .map((t) => t.price);
    if (same.length >= 3) expect(r).toMatchObject({ kind: 'rent', benchmark: med(same), count: same.length });
    else expect(r).toBeUndefined();

    // More cards of the area cost nothing.
    rig.sandbox.clearRequests();
    await rig.market.listingContext(MARINA, sale);
    await rig.market.listingContext(MARINA, rent);
    expect(rig.upstream()).toBe(0);

    // A digest shares the month's pages the card read: still the whole month, at no call.
    const now = rig.sandbox.now();
    await composeAreaDigest(rig.market, MARINA, { since: new Date(now.getTime() - 7 * DAY), now });
    const month = (
      await rig.raw('/get-get-transactions', { location_id: '50', transaction_type: 'rented', period: '1m' })
    )
      .filter((t) => BUCKET_OF(t.bedrooms) === '1' && t.property_type === 'Apartment')
      .map((t) => t.price);
    rig.sandbox.clearRequests();
    expect(await rig.market.listingContext(MARINA, rent)).toMatchObject({
      kind: 'rent',
      benchmark: med(month),
      count: month.length,
    });
    expect(rig.upstream()).toBe(0);
  });

  it('none when the budget is low, and no second fetch for an area within the day', async () => {
    const low = await marketRig({ client: { budget: { perDay: 20 } } });
    const sale = (
      await low.api.call('search-buy', { location_id: '50', bedrooms: '1', property_type: 'apartment' })
    ).records.find((l) => !l.price?.is_hidden)!;
    low.sandbox.clearRequests();
    expect(await low.market.listingContext(MARINA, sale)).toBeUndefined();
    expect(low.upstream()).toBe(0);

    let clock = Date.parse('2026-11-01T06:00:00Z');
    const rig = await marketRig({ market: { now: () => clock } });
    rig.sandbox.addFault({ status: 503, count: 2, path: '/price-trend-of-location' }); // both attempts of one call
    expect(await rig.market.listingContext(MARINA, sale)).toBeUndefined(); // failed: no guess
    rig.sandbox.clearRequests();
    clock += 3_600_000;
    expect(await rig.market.listingContext(MARINA, sale)).toBeUndefined(); // not again the same day
    expect(rig.upstream()).toBe(0);
    clock += 24 * 3_600_000;
    expect(await rig.market.listingContext(MARINA, sale)).toMatchObject({ kind: 'sale', bucket: '1' });
    expect(rig.upstream()).toBe(1);
  });
});
