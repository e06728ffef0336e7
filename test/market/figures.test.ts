// Pure market figures: medians, buckets, too little data, trend changes, yields, and one listing against its place.
import { describe, expect, it } from 'vitest';
import { listingSummary, priceTrendPoint, transaction } from '../../src/api/records.js';
import {
  bucketOf,
  changePct,
  contextText,
  listingFacts,
  median,
  rentContext,
  saleContext,
  transactionFigures,
  trendFigures,
  yieldFigures,
} from '../../src/market/index.js';

const tx = (bedrooms: number | undefined, price: number | undefined, type = 'Apartment') =>
  transaction.parse({
    id: Math.random().toString(16).slice(2),
    bedrooms,
    price,
    property_type: type,
    transaction_date: '2026-10-20',
  });
const point = (bedroom_id: number, month: number, community_price: number) =>
  priceTrendPoint.parse({
    bedroom_id,
    community_price,
    tower_price: community_price + 50,
    date: new Date(Date.UTC(2026, month, 1)).toISOString(),
    period: '',
    time_frame: '1Y',
  });

describe('median and buckets', () => {
  it('takes the middle value, or the mean of the middle two for an even count', () => {
    expect(median([])).toBeUndefined();
    expect(median([5])).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('groups bedroom counts into studio, 1, 2, 3 and 4+', () => {
    expect([0, 1, 2, 3, 4, 7, '0', '2', 'Studio', undefined, -1, '1.5'].map((b) => bucketOf(b as never))).toEqual([
      'studio',
      '1',
      '2',
      '3',
      '4+',
      '4+',
      'studio',
      '2',
      'studio',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('counts per bucket with their medians, and says too little data under 3 priced transactions', () => {
    const f = transactionFigures([
      tx(1, 100),
      tx(1, 300),
      tx(1, 200),
      tx(1, 400),
      tx(2, 900),
      tx(2, 1100),
      tx(undefined, 50),
      tx(3, undefined),
    ]);
    expect(f).toMatchObject({
      count: 8,
      priced: 7,
      thin: false,
      median: 300,
      total: 8,
      atLeast: false,
      unknownBedrooms: 1,
    });
    const by = Object.fromEntries(f.buckets.map((b) => [b.bucket, b]));
    expect(by['1']).toEqual({ bucket: '1', count: 4, priced: 4, thin: false, median: 250 });
    expect(by['2']).toEqual({ bucket: '2', count: 2, priced: 2, thin: true });
    expect(by['3']).toEqual({ bucket: '3', count: 1, priced: 0, thin: true });
    expect(by.studio).toEqual({ bucket: 'studio', count: 0, priced: 0, thin: true });
    expect(transactionFigures([tx(1, 1), tx(1, 2)]).median).toBeUndefined();
    expect(transactionFigures([tx(1, 1)], { total: 40, atLeast: true })).toMatchObject({ total: 40, atLeast: true });
  });
});

describe('trend', () => {
  // Dec 2025 .. Nov 2026 for 2 bedrooms: 1000 rising 10 a month; the points arrive out of order.
  const twoBed = Array.from({ length: 12 }, (_, i) => point(2, i - 1, 1000 + 10 * i)).reverse();
  it('the latest month per bucket, and its change over 1 and 3 months and over the whole series', () => {
    const f = trendFigures([...twoBed, point(5, 10, 900), point(6, 10, 800)]);
    const two = f.buckets.find((b) => b.bucket === '2')!;
    expect(two.latest).toEqual({ date: '2026-11-01T00:00:00.000Z', period: 'Nov 2026', ppsf: 1110 });
    expect(two.change1m).toBeCloseTo((1110 / 1100 - 1) * 100, 10);
    expect(two.change3m).toBeCloseTo((1110 / 1080 - 1) * 100, 10);
    expect(two.changeSeries).toBeCloseTo((1110 / 1000 - 1) * 100, 10);
    expect(two.series.map((p) => p.ppsf)).toEqual(Array.from({ length: 12 }, (_, i) => 1000 + 10 * i));
    expect(f).toMatchObject({ from: 'Dec 2025', to: 'Nov 2026', timeFrame: '1Y', propertyType: 'apartment' });
    // 4+: the smallest bedroom_id from 4 up.
    expect(f.buckets.find((b) => b.bucket === '4+')).toMatchObject({ bedroomId: 5, latest: { ppsf: 900 } });
    expect(f.buckets.find((b) => b.bucket === '4+')!.change1m).toBeUndefined();
  });

  it('a missing month gives no change rather than comparing with the wrong month', () => {
    const f = trendFigures([point(1, 10, 1100), point(1, 8, 1000)]);
    expect(f.buckets[0]!.change1m).toBeUndefined();
    expect(f.buckets[0]!.change3m).toBeUndefined();
    expect(f.buckets[0]!.changeSeries).toBeCloseTo(10, 10);
    expect(changePct(0, 5)).toBeUndefined();
  });
});

describe('yields and listing context', () => {
  const sold = transactionFigures([tx(1, 1_000_000), tx(1, 1_200_000), tx(1, 1_100_000), tx(2, 2_000_000)]);
  const rented = transactionFigures([
    tx(1, 70_000),
    tx(1, 80_000),
    tx(1, 75_000),
    tx(2, 120_000),
    tx(2, 110_000),
    tx(2, 130_000),
  ]);

  it('gross yield per bucket where both medians exist, with the counts behind it', () => {
    expect(yieldFigures(sold, rented)).toEqual([
      {
        bucket: '1',
        grossYieldPct: (75_000 / 1_100_000) * 100,
        medianRent: 75_000,
        medianPrice: 1_100_000,
        rentedCount: 3,
        soldCount: 3,
      },
    ]);
  });

  const trend = trendFigures(Array.from({ length: 12 }, (_, i) => point(2, i - 1, 2000 + 20 * i)));
  const listing = (period: string, value: number, bedrooms = '2', size = 1000, type = 'Apartment') =>
    listingSummary.parse({
      property_id: '1',
      property_type: type,
      price: { value, currency: 'AED', period, is_hidden: false },
      bedrooms,
      size: { value: size, unit: 'sqft' },
    });

  it('a sale against its area’s latest trend price for its bedroom count', () => {
    const c = saleContext(listingFacts(listing('sell', 2_050_000))!, trend, 'Dubai Marina')!;
    expect(c).toMatchObject({ kind: 'sale', bucket: '2', ppsf: 2050, benchmark: 2220, month: 'Nov 2026' });
    // The benchmark's scope named: the trend is of apartments, and of one month.
    expect(contextText(c)).toBe(
      "8 % below Dubai Marina's 2-bed apartment average of AED 2,220/sqft (price trend, Nov 2026)",
    );
    // Another type than the trend's, no size, unknown bedrooms: no context rather than a guess.
    expect(saleContext(listingFacts(listing('sell', 2_050_000, '2', 1000, 'Villa'))!, trend, 'X')).toBeUndefined();
    expect(saleContext(listingFacts(listing('sell', 2_050_000, '3'))!, trend, 'X')).toBeUndefined();
    expect(
      listingFacts(listingSummary.parse({ property_id: '2', price: { value: 0, is_hidden: true, period: 'sell' } })),
    ).toBeUndefined();
  });

  it('a rent (any period, made yearly) against the median annual rent of its bucket; none when thin', () => {
    const lettings = [tx(2, 120_000), tx(2, 110_000), tx(2, 130_000), tx(2, 500_000, 'Villa')];
    const monthly = listingFacts(listing('monthly', 11_000))!;
    expect(monthly).toMatchObject({
      kind: 'rent',
      price: 132_000,
      bedrooms: 2,
      sizeSqft: 1000,
      propertyType: 'apartment',
    });
    const c = rentContext(monthly, lettings, 'Dubai Marina')!;
    expect(c).toMatchObject({ kind: 'rent', benchmark: 120_000, count: 3 });
    expect(contextText(c)).toBe(
      "10 % above Dubai Marina's 2-bed apartment median rent of AED 120,000 a year (last 30 days, 3 lettings of apartments)",
    );
    // A listing that names no type is set against the lettings of every type, and says so (the villa counts).
    const untyped = listingFacts(listingSummary.parse({ ...listing('yearly', 132_000), property_type: null }))!;
    expect(contextText(rentContext(untyped, lettings, 'Dubai Marina')!)).toBe(
      "6 % above Dubai Marina's 2-bed median rent of AED 125,000 a year (last 30 days, 4 lettings of every type)",
    );
    expect(rentContext(monthly, lettings.slice(1), 'Dubai Marina')).toBeUndefined();
    // The page cap cut the month: the median names the lettings it is of.
    expect(contextText(rentContext(monthly, lettings, 'Dubai Marina', { recent: 120 })!)).toBe(
      "10 % above Dubai Marina's 2-bed apartment median rent of AED 120,000 a year (3 lettings of apartments among the 120 most recent of the last 30 days)",
    );
  });

  it('names an area ending in s with the apostrophe alone, in every context it builds (issue 26)', () => {
    for (const [area, whose] of [
      ['Arabian Ranches', "Arabian Ranches'"],
      ['Emirates Hills', "Emirates Hills'"],
      ['Al Barsha', "Al Barsha's"],
    ] as const) {
      const sale = saleContext(listingFacts(listing('sell', 2_050_000))!, trend, area)!;
      expect(contextText(sale)).toBe(
        `8 % below ${whose} 2-bed apartment average of AED 2,220/sqft (price trend, Nov 2026)`,
      );
      const rent = rentContext(
        listingFacts(listing('yearly', 132_000))!,
        [tx(2, 120_000), tx(2, 110_000), tx(2, 130_000)],
        area,
      )!;
      expect(contextText(rent)).toMatch(new RegExp(`^10 % above ${whose} 2-bed apartment median rent`));
    }
  });
});
