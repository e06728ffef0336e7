// Market figures from the service's records, pure: medians per bedroom count, the price trend's latest value and
// its changes, gross yields, and where one listing stands against its place. Numbers are kept unrounded; whoever
// shows them rounds. A figure with too little behind it is marked thin and left without a median, never guessed.
import type { ListingSummary, PriceTrendPoint, Transaction } from '../api/records.js';
import { parseDate, possessive } from '../views/format.js';
import { homesWords, priceFigure, RENT_PERIODS_PER_YEAR, type PriceFigure } from './definitions.js';

/** Bedroom counts as a digest groups them: studio, 1, 2, 3, and 4 or more. */
export type Bucket = 'studio' | '1' | '2' | '3' | '4+';
export const BUCKETS: readonly Bucket[] = ['studio', '1', '2', '3', '4+'];

/** A bedroom count (a number, numeric text, or "studio") as its bucket; undefined when unknown. */
export function bucketOf(bedrooms: number | string | null | undefined): Bucket | undefined {
  const n = bedroomCount(bedrooms);
  if (n === undefined) return undefined;
  return n === 0 ? 'studio' : n >= 4 ? '4+' : (String(n) as Bucket);
}

export function bedroomCount(bedrooms: number | string | null | undefined): number | undefined {
  if (typeof bedrooms === 'string' && /^\s*studio\s*$/i.test(bedrooms)) return 0;
  const n = typeof bedrooms === 'string' && bedrooms.trim() !== '' ? Number(bedrooms) : bedrooms;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** "studio", "1-bed", "4+-bed": for sentences. */
export const bucketLabel = (b: Bucket) => (b === 'studio' ? 'studio' : `${b}-bed`);

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** (to / from - 1) in percent; undefined without two positive values. */
export function changePct(from: number | undefined, to: number | undefined): number | undefined {
  return positive(from) && positive(to) ? (to / from - 1) * 100 : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions

export interface BucketFigure extends PriceFigure {
  bucket: Bucket;
}

export interface TransactionFigures extends PriceFigure {
  /** The period's count: the service's total when it gives one, else the transactions read. */
  total: number;
  /** The page cap stopped the reading before the end and the service gave no total: "at least `total`". */
  atLeast: boolean;
  /** Every bucket, in order, empty ones included (count 0). */
  buckets: BucketFigure[];
  /** Transactions without a bedroom count (in the overall figures only). */
  unknownBedrooms: number;
}

/** Counts and median prices, overall and per bucket, of transactions (annual rents for rented ones). */
export function transactionFigures(
  records: readonly Transaction[],
  options: { total?: number; atLeast?: boolean } = {},
): TransactionFigures {
  const byBucket = new Map<Bucket, (number | null | undefined)[]>(BUCKETS.map((b) => [b, []]));
  let unknownBedrooms = 0;
  for (const t of records) {
    const b = bucketOf(t.bedrooms);
    if (b) byBucket.get(b)!.push(t.price);
    else unknownBedrooms++;
  }
  return {
    ...priceFigure(records.map((t) => t.price)),
    total: Math.max(options.total ?? 0, records.length),
    atLeast: options.atLeast ?? false,
    buckets: BUCKETS.map((bucket) => ({ bucket, ...priceFigure(byBucket.get(bucket)!) })),
    unknownBedrooms,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Price trend

export interface TrendPoint {
  /** The month's first day, ISO (UTC); absent when the point is not dated. */
  date?: string;
  /** The service's label ("Nov 2026") or one made from the date. */
  period: string;
  /** AED per sqft: the community price, else the tower price (as the trend view reads it). */
  ppsf: number;
}

export interface TrendBucket {
  bucket: Bucket;
  /** The service's bedroom_id behind the bucket. */
  bedroomId: number;
  first: TrendPoint;
  latest: TrendPoint;
  /** Change of the latest month against the month before, in percent; absent without that month. */
  change1m?: number;
  /** Against three months before. */
  change3m?: number;
  /** Over the whole series: first point to last. */
  changeSeries?: number;
  /** The whole series, oldest first (for a chart). */
  series: TrendPoint[];
}

export interface TrendFigures {
  /** The property type the series is for (the service's default: apartment). */
  propertyType: string;
  buckets: TrendBucket[];
  /** The series' first and last month labels. */
  from?: string;
  to?: string;
  /** The service's `time_frame` ("1Y"). */
  timeFrame?: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function monthStart(p: PriceTrendPoint): number | undefined {
  const d = parseDate(p.date) ?? parseDate(p.period);
  return d && Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

const monthIndex = (t: number) => new Date(t).getUTCFullYear() * 12 + new Date(t).getUTCMonth();

/** The price trend per bucket: latest AED/sqft, its changes over 1 and 3 months and over the series. */
export function trendFigures(points: readonly PriceTrendPoint[], propertyType = 'apartment'): TrendFigures {
  const byBedroom = new Map<number, PriceTrendPoint[]>();
  for (const p of points) {
    if (!Number.isInteger(p.bedroom_id) || p.bedroom_id < 0) continue;
    byBedroom.set(p.bedroom_id, [...(byBedroom.get(p.bedroom_id) ?? []), p]);
  }
  // One bedroom_id per bucket: 4+ takes 4 when the service has it, else the smallest above.
  const chosen = new Map<Bucket, number>();
  for (const id of [...byBedroom.keys()].sort((a, b) => a - b)) {
    const b = bucketOf(id)!;
    if (!chosen.has(b)) chosen.set(b, id);
  }
  const buckets: TrendBucket[] = [];
  let from: TrendPoint | undefined;
  let to: TrendPoint | undefined;
  for (const bucket of BUCKETS) {
    const id = chosen.get(bucket);
    if (id === undefined) continue;
    const series = seriesOf(byBedroom.get(id)!);
    if (series.length === 0) continue;
    const first = series[0]!;
    const latest = series.at(-1)!;
    const back = (months: number) => {
      if (latest.point.month === undefined) return series.at(-1 - months)?.point;
      const target = monthIndex(latest.point.month) - months;
      return series.find((s) => s.point.month !== undefined && monthIndex(s.point.month) === target)?.point;
    };
    const c1 = changePct(back(1)?.ppsf, latest.point.ppsf);
    const c3 = changePct(back(3)?.ppsf, latest.point.ppsf);
    const cs = series.length > 1 ? changePct(first.point.ppsf, latest.point.ppsf) : undefined;
    buckets.push({
      bucket,
      bedroomId: id,
      first: first.out,
      latest: latest.out,
      series: series.map((s) => s.out),
      ...(c1 !== undefined ? { change1m: c1 } : {}),
      ...(c3 !== undefined ? { change3m: c3 } : {}),
      ...(cs !== undefined ? { changeSeries: cs } : {}),
    });
    if (!from || (first.point.month ?? 0) < monthOf(from)) from = first.out;
    if (!to || (latest.point.month ?? 0) > monthOf(to)) to = latest.out;
  }
  const timeFrame = points.find((p) => typeof p.time_frame === 'string')?.time_frame ?? undefined;
  return {
    propertyType,
    buckets,
    ...(from ? { from: from.period } : {}),
    ...(to ? { to: to.period } : {}),
    ...(timeFrame ? { timeFrame } : {}),
  };
}

const monthOf = (p: TrendPoint) => (p.date ? Date.parse(p.date) : 0);

interface SeriesEntry {
  point: { month?: number; ppsf: number };
  out: TrendPoint;
}

/** One value per month, oldest first; when nothing is dated, the order received. */
function seriesOf(points: readonly PriceTrendPoint[]): SeriesEntry[] {
  const entries: SeriesEntry[] = [];
  const seen = new Set<number>();
  const dated = points.some((p) => monthStart(p) !== undefined);
  for (const p of points) {
    const ppsf = [p.community_price, p.tower_price].find(positive);
    if (ppsf === undefined) continue;
    const month = monthStart(p);
    if (dated && month === undefined) continue;
    if (month !== undefined) {
      if (seen.has(month)) continue;
      seen.add(month);
    }
    const label =
      typeof p.period === 'string' && p.period.trim() !== ''
        ? p.period.trim()
        : month !== undefined
          ? `${MONTHS[new Date(month).getUTCMonth()]} ${new Date(month).getUTCFullYear()}`
          : '';
    entries.push({
      point: { ...(month !== undefined ? { month } : {}), ppsf },
      out: { ...(month !== undefined ? { date: new Date(month).toISOString() } : {}), period: label, ppsf },
    });
  }
  return dated ? entries.sort((a, b) => a.point.month! - b.point.month!) : entries;
}

/** The latest trend price of a bedroom count (4 and more: the 4+ bucket). */
export function trendPriceFor(
  trend: TrendFigures,
  bedrooms: number | string | null | undefined,
): TrendBucket | undefined {
  const b = bucketOf(bedrooms);
  return b && trend.buckets.find((x) => x.bucket === b);
}

// ---------------------------------------------------------------------------------------------------------------
// Gross yield

export interface YieldFigure {
  bucket: Bucket;
  /** Median annual rent / median sale price, in percent. */
  grossYieldPct: number;
  medianRent: number;
  medianPrice: number;
  rentedCount: number;
  soldCount: number;
}

/** Per bucket where both medians exist (neither thin). */
export function yieldFigures(sold: TransactionFigures, rented: TransactionFigures): YieldFigure[] {
  const out: YieldFigure[] = [];
  for (const bucket of BUCKETS) {
    const s = sold.buckets.find((x) => x.bucket === bucket);
    const r = rented.buckets.find((x) => x.bucket === bucket);
    if (!s?.median || !r?.median) continue;
    out.push({
      bucket,
      grossYieldPct: (r.median / s.median) * 100,
      medianRent: r.median,
      medianPrice: s.median,
      rentedCount: r.priced,
      soldCount: s.priced,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// One listing against its place

export interface ListingFacts {
  kind: 'sale' | 'rent';
  /** The sale price, or the rent per year. */
  price: number;
  bedrooms?: number;
  sizeSqft?: number;
  /** The type as a slug ("apartment", "hotel-apartment"); absent when not given. */
  propertyType?: string;
}

/** The slug of a type label: "Hotel Apartment" -> "hotel-apartment". */
export const typeSlug = (label: string) => label.trim().toLowerCase().replace(/\s+/g, '-');

/**
 * What a listing record says of itself for comparisons: a sale (price period `sell`) or a rent (per year, from any
 * period), its bedrooms and size in sqft. Undefined when the price is hidden or missing, or its kind unknown
 * (`kind` tells it when the record does not: a search-buy answer is sales).
 */
export function listingFacts(
  listing: Pick<ListingSummary, 'price' | 'bedrooms' | 'size' | 'property_type'>,
  kind?: 'sale' | 'rent',
): ListingFacts | undefined {
  const price = listing.price;
  if (!price || price.is_hidden || !positive(price.value)) return undefined;
  const period = typeof price.period === 'string' ? price.period.toLowerCase() : undefined;
  const k = period === 'sell' || period === 'sale' ? 'sale' : period && RENT_PERIODS_PER_YEAR[period] ? 'rent' : kind;
  if (!k) return undefined;
  const perYear = k === 'rent' && period !== undefined ? (RENT_PERIODS_PER_YEAR[period] ?? 1) : 1;
  const unit = listing.size?.unit?.toLowerCase();
  const size =
    listing.size && positive(listing.size.value) && (!unit || unit === 'sqft') ? listing.size.value : undefined;
  const bedrooms = bedroomCount(listing.bedrooms);
  return {
    kind: k,
    price: price.value * perYear,
    ...(bedrooms !== undefined ? { bedrooms } : {}),
    ...(size !== undefined ? { sizeSqft: size } : {}),
    ...(listing.property_type ? { propertyType: typeSlug(listing.property_type) } : {}),
  };
}

export type ListingContext =
  | {
      kind: 'sale';
      areaName: string;
      bucket: Bucket;
      /** The listing's AED per sqft. */
      ppsf: number;
      /** The area's latest trend price for the bucket, and its month. */
      benchmark: number;
      month: string;
      /** The trend's property type (a slug): the benchmark is of that type only. */
      propertyType: string;
      /** (ppsf / benchmark - 1) in percent: negative is below. */
      diffPct: number;
      source: 'price-trend-of-location';
    }
  | {
      kind: 'rent';
      areaName: string;
      bucket: Bucket;
      annualRent: number;
      /** The median annual rent of the bucket (same type) over the last 30 days, and how many lettings. */
      benchmark: number;
      count: number;
      /** Set when the page cap cut the period: the median is of the bucket among this many most recent lettings. */
      recent?: number;
      /** The listing's type (a slug) when it says one: the lettings counted are of that type only; absent: every type. */
      propertyType?: string;
      diffPct: number;
      source: 'get-get-transactions';
    };

/** A sale against the trend price of its bedroom count, when the type is the trend's and both are known. */
export function saleContext(facts: ListingFacts, trend: TrendFigures, areaName: string): ListingContext | undefined {
  if (facts.kind !== 'sale' || facts.sizeSqft === undefined || facts.bedrooms === undefined) return undefined;
  if (facts.propertyType !== undefined && facts.propertyType !== trend.propertyType) return undefined;
  const t = trendPriceFor(trend, facts.bedrooms);
  if (!t) return undefined;
  const ppsf = facts.price / facts.sizeSqft;
  return {
    kind: 'sale',
    areaName,
    bucket: t.bucket,
    ppsf,
    benchmark: t.latest.ppsf,
    month: t.latest.period,
    propertyType: trend.propertyType,
    diffPct: (ppsf / t.latest.ppsf - 1) * 100,
    source: 'price-trend-of-location',
  };
}

/** A rent against the median of the last 30 days' lettings of its bucket (and type, when known); none when thin. */
export function rentContext(
  facts: ListingFacts,
  rented: readonly Transaction[],
  areaName: string,
  o: { recent?: number } = {},
): ListingContext | undefined {
  const bucket = bucketOf(facts.bedrooms);
  if (facts.kind !== 'rent' || !bucket) return undefined;
  const same = rented.filter(
    (t) =>
      bucketOf(t.bedrooms) === bucket &&
      (facts.propertyType === undefined || !t.property_type || typeSlug(t.property_type) === facts.propertyType),
  );
  const f = priceFigure(same.map((t) => t.price));
  if (f.median === undefined) return undefined;
  return {
    kind: 'rent',
    areaName,
    bucket,
    annualRent: facts.price,
    benchmark: f.median,
    count: f.priced,
    ...(o.recent !== undefined ? { recent: o.recent } : {}),
    ...(facts.propertyType !== undefined ? { propertyType: facts.propertyType } : {}),
    diffPct: (facts.price / f.median - 1) * 100,
    source: 'get-get-transactions',
  };
}

const aed = (n: number) => `AED ${Math.round(n).toLocaleString('en-US')}`;

/**
 * Where a listing stands, with the benchmark's scope in words: "8 % below Dubai Marina's 2-bed apartment average of AED
 * 2,230/sqft (price trend, Nov 2026)", "34 % below Dubai Marina's 2-bed apartment median rent of AED 174,000 a year
 * (last 30 days, 8 lettings of apartments)"; "in line with" within half a percent.
 */
export function contextText(c: ListingContext): string {
  const pct = Math.round(Math.abs(c.diffPct));
  const where = pct === 0 ? 'in line with' : `${pct} % ${c.diffPct < 0 ? 'below' : 'above'}`;
  const type = c.propertyType?.replace(/-/g, ' ');
  const whose = `${possessive(c.areaName)} ${bucketLabel(c.bucket)}${type ? ` ${type}` : ''}`;
  if (c.kind === 'sale') return `${where} ${whose} average of ${aed(c.benchmark)}/sqft (price trend, ${c.month})`;
  const lettings = `${c.count} ${c.count === 1 ? 'letting' : 'lettings'} of ${homesWords(undefined, c.propertyType).replace(/^homes of /, '')}`;
  const counted =
    c.recent === undefined
      ? `last 30 days, ${lettings}`
      : `${lettings} among the ${c.recent} most recent of the last 30 days`;
  return `${where} ${whose} median rent of ${aed(c.benchmark)} a year (${counted})`;
}
