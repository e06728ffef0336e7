// Areas side by side, for `/compare`: per area and bedroom count, the median sale price and annual rent of the last 3
// months (rents over 12 months where 3 are too thin), the trend's AED per sqft and its change over the series, the gross
// yield, the transactions behind each figure and the listings live now. Every figure covers its whole period: one
// bedroom count reads the period narrowed to it, every count reads the area's period once, unnarrowed, and splits it
// by bedrooms, so both quote what a transactions reply of the same scope does. From the market cache the digests use;
// an area the service fails for is named, and the others still answer. No chat knowledge here.
import { reasonOf } from './digest.js';
import type { MarketData } from './data.js';
import type { PriceFigure } from './definitions.js';
import {
  BUCKETS,
  bucketOf,
  transactionFigures,
  trendFigures,
  type Bucket,
  type TransactionFigures,
  type TrendBucket,
} from './figures.js';
import type { TransactionsResult, Use } from './types.js';

export interface CompareOptions {
  /** A bedroom count (0: studio); absent: every count. */
  bedrooms?: number;
  /** Which listings are counted: for rent, for sale; absent: both. */
  kind?: 'rent' | 'buy';
}

/**
 * A period is read to its end, up to this many pages (900 transactions at the service's 15 a page): a guard against a
 * read without end, not a cost goal. Past it the medians are the newest transactions' and the counts say "at least".
 */
export const WHOLE_PERIOD_PAGES = 60;

export interface ListingsCount {
  count: number;
  /** More were listed than were read. */
  atLeast: boolean;
}

/** One bedroom count of one area. A thin figure has its counts and no median: "too little data". */
export interface CompareCell {
  bucket: Bucket;
  /** `atLeast`: the period had more transactions than were read; the counts are lower bounds. */
  sale: PriceFigure & { atLeast: boolean };
  rent: PriceFigure & { months: 3 | 12; atLeast: boolean };
  /** The trend's latest AED per sqft and its change over the series (12 months); absent without a trend. */
  ppsf?: number;
  change12m?: number;
  /** Median rent over median price, in percent, when neither is thin. */
  grossYieldPct?: number;
}

export interface AreaComparison {
  area: { id: string; name: string };
  state: 'ok' | 'failed';
  /** Why the area could not be compared, in words (the precise error is on the client's log line). */
  reason?: string;
  cells: CompareCell[];
  listings: { sale?: ListingsCount; rent?: ListingsCount };
  /** The trend's series of the bucket charted. */
  trend?: TrendBucket;
}

export interface Comparison {
  bedrooms?: number;
  kind?: 'rent' | 'buy';
  /** The buckets compared, in order. */
  buckets: Bucket[];
  areas: AreaComparison[];
}

/** Compares the areas, one after another (they share the cache). Never throws for the service's failures. */
export async function compareAreas(
  market: MarketData,
  areas: readonly { id: string | number; name: string }[],
  options: CompareOptions = {},
  use: Use = {},
): Promise<Comparison> {
  const bucket = options.bedrooms === undefined ? undefined : bucketOf(options.bedrooms);
  const buckets = bucket ? [bucket] : [...BUCKETS];
  const out: AreaComparison[] = [];
  for (const a of areas) out.push(await compareArea(market, { id: String(a.id), name: a.name }, buckets, options, use));
  return {
    buckets,
    areas: out,
    ...(options.bedrooms !== undefined ? { bedrooms: options.bedrooms } : {}),
    ...(options.kind ? { kind: options.kind } : {}),
  };
}

async function compareArea(
  market: MarketData,
  area: { id: string; name: string },
  buckets: Bucket[],
  options: CompareOptions,
  use: Use,
): Promise<AreaComparison> {
  // Every count: the area's period unnarrowed, split by bedrooms below (the same records a narrowed read gives).
  const filters = options.bedrooms !== undefined ? { bedrooms: String(options.bedrooms) } : {};
  const tx = (type: 'sold' | 'rented', period: '3m' | '1y') =>
    market.transactions(area.id, type, period, { ...use, filters, maxPages: WHOLE_PERIOD_PAGES });
  const figures = (r: TransactionsResult): TransactionFigures =>
    transactionFigures(r.records, { total: r.count, atLeast: r.atLeast });
  const listingKinds = options.kind === 'rent' ? ['rent'] : options.kind === 'buy' ? ['sale'] : ['sale', 'rent'];
  try {
    const [sold, rented, trend, ...live] = await Promise.all([
      tx('sold', '3m'),
      tx('rented', '3m'),
      market.trend(area.id, use),
      ...listingKinds.map((k) =>
        market.liveListings(area.id, k as 'sale' | 'rent', {
          ...use,
          ...(options.bedrooms !== undefined ? { bedrooms: options.bedrooms } : {}),
        }),
      ),
    ]);
    const soldFig = figures(sold);
    const rentFig = figures(rented);
    const thinRent = (f: TransactionFigures) => buckets.some((b) => f.buckets.find((x) => x.bucket === b)!.thin);
    // Three months of lettings too few to say: a year of them, said so in the cell. Not when the 3 months were read
    // in part (past the guard: their thinness would be the guard's).
    const year = thinRent(rentFig) && rented.complete ? await tx('rented', '1y') : undefined;
    const yearFig = year && figures(year);
    const trendFig = trendFigures(trend.points, trend.propertyType);
    const cells = buckets.map((bucket): CompareCell => {
      const sale = soldFig.buckets.find((x) => x.bucket === bucket)!;
      let rent: CompareCell['rent'] = {
        ...rentFig.buckets.find((x) => x.bucket === bucket)!,
        months: 3,
        atLeast: !rented.complete,
      };
      if (rent.thin && yearFig)
        rent = { ...yearFig.buckets.find((x) => x.bucket === bucket)!, months: 12, atLeast: !year!.complete };
      const t = trendFig.buckets.find((x) => x.bucket === bucket);
      return {
        bucket,
        sale: { ...strip(sale), atLeast: !sold.complete },
        rent: { ...strip(rent), months: rent.months, atLeast: rent.atLeast },
        ...(t ? { ppsf: t.latest.ppsf } : {}),
        ...(t?.changeSeries !== undefined ? { change12m: t.changeSeries } : {}),
        ...(sale.median && rent.median ? { grossYieldPct: (rent.median / sale.median) * 100 } : {}),
      };
    });
    const listings: AreaComparison['listings'] = {};
    listingKinds.forEach(
      (k, i) => (listings[k as 'sale' | 'rent'] = { count: live[i]!.count, atLeast: live[i]!.atLeast }),
    );
    const charted = trendFig.buckets.find((x) => x.bucket === (buckets.length === 1 ? buckets[0] : '2'));
    return { area, state: 'ok', cells, listings, ...(charted ? { trend: charted } : {}) };
  } catch (error) {
    return { area, state: 'failed', reason: reasonOf(error).reason, cells: [], listings: {} };
  }
}

const strip = (f: PriceFigure): PriceFigure => ({
  count: f.count,
  priced: f.priced,
  thin: f.thin,
  ...(f.median !== undefined ? { median: f.median } : {}),
});
