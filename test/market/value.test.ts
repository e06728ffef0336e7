// The estimate's arithmetic (src/market/value.ts), pure: quartiles, "too little data" under 5 comparables, the sale
// with a size centred on the trend and spread as the listings are, where an asking price sits, the gross yield.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListingSummary, Transaction } from '../../src/api/records.js';
import { trendFigures } from '../../src/market/figures.js';
import { positionIn, quartiles, valueEstimate, type ValueAsk } from '../../src/market/value.js';

const periods = { sold: 'sales', rented: 'lettings', saleListings: 'sale listings', rentListings: 'rent listings' };
const tx = (price: number, bedrooms = 2, type = 'Apartment'): Transaction =>
  ({ id: `${price}-${bedrooms}`, price, bedrooms, property_type: type }) as Transaction;
const listing = (price: number, size: number, period = 'sell', bedrooms = '2'): ListingSummary =>
  ({
    property_id: `${price}-${size}`,
    price: { value: price, period, currency: 'AED' },
    size: { value: size, unit: 'sqft' },
    bedrooms,
    property_type: 'Apartment',
  }) as ListingSummary;
const ask: ValueAsk = { bedrooms: 2, propertyType: 'apartment' };

describe('quartiles', () => {
  it('interpolates between ranks', () => {
    expect(quartiles([1, 2, 3, 4, 5])).toEqual({ low: 2, mid: 3, high: 4 });
    expect(quartiles([10, 20, 30, 40])).toEqual({ low: 17.5, mid: 25, high: 32.5 });
    expect(quartiles([])).toBeUndefined();
  });

  it('keeps low ≤ mid ≤ high within the values, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 60 }), (values) => {
        const q = quartiles(values)!;
        expect(q.low).toBeLessThanOrEqual(q.mid);
        expect(q.mid).toBeLessThanOrEqual(q.high);
        expect(q.low).toBeGreaterThanOrEqual(Math.min(...values));
        expect(q.high).toBeLessThanOrEqual(Math.max(...values));
      }),
    );
  });
});

describe('valueEstimate', () => {
  it('without a size: the interquartile range of the transactions of that bedroom count and type only', () => {
    const sold = [100, 200, 300, 400, 500].map((p) => tx(p * 1000));
    const noise = [tx(9_000_000, 3), tx(9_000_000, 2, 'Villa')];
    const rented = [10, 20, 30, 40, 50].map((p) => tx(p * 1000));
    const v = valueEstimate({ ask, sold: [...sold, ...noise], rented, periods });
    expect(v.sale).toMatchObject({ state: 'ok', count: 5, range: { low: 200_000, mid: 300_000, high: 400_000 } });
    expect(v.rent).toMatchObject({ state: 'ok', range: { mid: 30_000 } });
    expect(v.grossYieldPct).toBe(10);
  });

  it('fewer than 5 comparables is too little data, and no yield', () => {
    const v = valueEstimate({ ask, sold: [1, 2, 3, 4].map((p) => tx(p * 1e6)), rented: [], periods });
    expect(v.sale).toMatchObject({ state: 'thin', count: 4 });
    expect(v.rent).toMatchObject({ state: 'thin', count: 0 });
    expect(v.grossYieldPct).toBeUndefined();
  });

  it('with a size: the trend AED/sqft times the size, spread by the listings; no trend is too little data', () => {
    const trend = trendFigures([
      { bedroom_id: 2, community_price: 1000, date: '2026-10-01T00:00:00Z', period: 'Oct 2026' },
      { bedroom_id: 2, community_price: 1100, date: '2026-11-01T00:00:00Z', period: 'Nov 2026' },
    ] as never);
    // AED/sqft 800, 900, 1000, 1100, 1200: quartiles 900, 1000, 1100.
    const sale = [800, 900, 1000, 1100, 1200].map((ppsf) => listing(ppsf * 1000, 1000));
    const rent = [60, 70, 80, 90, 100].map((ppsf) => listing(ppsf * 1000, 1000, 'yearly'));
    const v = valueEstimate({
      ask: { ...ask, sizeSqft: 1000 },
      trend,
      saleListings: sale,
      rentListings: rent,
      periods,
    });
    expect(v.sale).toMatchObject({ state: 'ok', range: { low: 990_000, mid: 1_100_000, high: 1_210_000 } });
    expect(v.rent).toMatchObject({ state: 'ok', range: { low: 70_000, mid: 80_000, high: 90_000 } });
    expect(v.trend).toMatchObject({ direction: 'rising', months: 1, month: 'Nov 2026' });
    const none = valueEstimate({ ask: { ...ask, sizeSqft: 1000 }, saleListings: sale, rentListings: rent, periods });
    expect(none.sale).toMatchObject({ state: 'thin', noTrend: true });
  });

  it('with a size and fewer than 5 listings: the sales spread around the trend price; both thin is too little data', () => {
    const trend = trendFigures([
      { bedroom_id: 2, community_price: 1500, date: '2026-11-01T00:00:00Z', period: 'Nov 2026' },
    ] as never);
    const few = [listing(1_400_000, 1000), listing(1_600_000, 1000)];
    // Sales 1.2m to 2.0m: quartiles 1.4m, 1.6m, 1.8m, so the range is 7/8 to 9/8 of the trend's 1.5m for 1,000 sqft.
    const sold = [1200, 1400, 1600, 1800, 2000].map((p) => tx(p * 1000));
    const rented = [80, 90, 100, 110, 120].map((p) => tx(p * 1000));
    const sized = { ...ask, sizeSqft: 1000 };
    const v = valueEstimate({ ask: sized, trend, saleListings: few, rentListings: [], sold, rented, periods });
    expect(v.sale).toMatchObject({
      state: 'ok',
      source: 'transactions',
      count: 5,
      range: { low: 1_312_500, mid: 1_500_000, high: 1_687_500 },
      trend: { ppsf: 1500 },
      fewListings: { count: 2, period: 'sale listings' },
    });
    expect(v.rent).toMatchObject({
      state: 'ok',
      source: 'transactions',
      range: { low: 90_000, mid: 100_000, high: 110_000 },
      fewListings: { count: 0 },
    });
    const thin = valueEstimate({ ask: sized, trend, saleListings: few, sold: sold.slice(1), periods });
    expect(thin.sale).toMatchObject({ state: 'thin', count: 4, fewListings: { count: 2 } });
  });

  it('places an asking price above, below or within its range', () => {
    const range = { low: 100, mid: 150, high: 200 };
    expect(positionIn(range, 224, 'sale')).toMatchObject({ where: 'above', pct: 12.000000000000011 });
    expect(positionIn(range, 90, 'sale').where).toBe('below');
    expect(positionIn(range, 150, 'rent')).toMatchObject({ where: 'within', pct: 0 });
    const sold = [100, 200, 300, 400, 500].map((p) => tx(p * 1000));
    const v = valueEstimate({ ask: { ...ask, asking: { price: 448_000, kind: 'sale' } }, sold, rented: [], periods });
    expect(v.position).toMatchObject({ where: 'above', kind: 'sale' });
    expect(Math.round(v.position!.pct)).toBe(12);
  });
});
