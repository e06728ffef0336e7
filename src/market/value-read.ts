// A value estimate read from the shared market cache (MarketData: the answers digests and cards use, kept for hours):
// the price trend, and either the area's recent sold and rented transactions (no size) or its live sale and rent
// listings (a size; with the transactions too when fewer than MIN_RANGE listings of a kind are live), narrowed to the
// bedroom count and type. A repeat within the cache's life costs no call. The service's failures are thrown as they
// are: an upstream fault is never read as "no data".
import type { MarketData } from './data.js';
import type { TransactionPeriod, Use } from './types.js';
import { sizedComparables, valueEstimate, type ValueAsk, type ValueEstimate } from './value.js';
import { MIN_RANGE } from './definitions.js';
import { trendFigures } from './figures.js';

/** The period of the transactions a range stands on, and the pages of it read at most (the newest first). */
const VALUE_PERIOD: TransactionPeriod = '6m';
const VALUE_PERIOD_WORDS = 'the last 6 months';
const VALUE_PAGES = 2;

export async function readValue(
  market: MarketData,
  area: { id: number | string },
  ask: ValueAsk,
  use: Use = {},
): Promise<ValueEstimate> {
  const id = String(area.id);
  const filters = { property_type: ask.propertyType, bedrooms: String(ask.bedrooms) };
  const trendRead = market.trend(id, use, ask.propertyType);
  const tx = { ...use, maxPages: VALUE_PAGES, filters };
  const recent = (read: { complete: boolean }, words: string) => (read.complete ? words : `most recent ${words}`);
  const periods = {
    sold: `sales of ${VALUE_PERIOD_WORDS}`,
    rented: `lettings of ${VALUE_PERIOD_WORDS}`,
    saleListings: 'sale listings online now',
    rentListings: 'rent listings online now',
  };
  if (ask.sizeSqft !== undefined) {
    const [trend, sale, rent] = await Promise.all([
      trendRead,
      market.listings(id, 'sale', filters, use),
      market.listings(id, 'rent', filters, use),
    ]);
    const newest = (read: { complete: boolean }, words: string) => (read.complete ? words : `newest ${words}`);
    // Too few listings of a kind live: its transactions give the range's spread instead (read only then).
    const few = (records: typeof sale.records, kind: 'sale' | 'rent') =>
      sizedComparables(records, ask, kind) < MIN_RANGE;
    const [sold, rented] = await Promise.all([
      few(sale.records, 'sale') ? market.transactions(id, 'sold', VALUE_PERIOD, tx) : undefined,
      few(rent.records, 'rent') ? market.transactions(id, 'rented', VALUE_PERIOD, tx) : undefined,
    ]);
    return valueEstimate({
      ask,
      trend: trendFigures(trend.points, trend.propertyType),
      saleListings: sale.records,
      rentListings: rent.records,
      ...(sold ? { sold: sold.records } : {}),
      ...(rented ? { rented: rented.records } : {}),
      periods: {
        ...periods,
        ...(sold ? { sold: recent(sold, periods.sold) } : {}),
        ...(rented ? { rented: recent(rented, periods.rented) } : {}),
        saleListings: newest(sale, periods.saleListings),
        rentListings: newest(rent, periods.rentListings),
      },
    });
  }
  const [trend, sold, rented] = await Promise.all([
    trendRead,
    market.transactions(id, 'sold', VALUE_PERIOD, tx),
    market.transactions(id, 'rented', VALUE_PERIOD, tx),
  ]);
  return valueEstimate({
    ask,
    trend: trendFigures(trend.points, trend.propertyType),
    sold: sold.records,
    rented: rented.records,
    periods: { ...periods, sold: recent(sold, periods.sold), rented: recent(rented, periods.rented) },
  });
}
