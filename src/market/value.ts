// What a home is worth and would rent for, from public records, pure: an estimate range for the sale price and the
// annual rent, the comparables behind each, the trend's direction and the gross yield, and where an asking price sits.
// With a size: the trend's AED per sqft times the size, widened by the interquartile spread of the live sale listings'
// AED per sqft (the rent: the live rent listings' annual AED per sqft, interquartile, times the size); when fewer than
// MIN_RANGE listings are live, the spread of the recent sales around the same middle (the rent: the recent lettings'
// interquartile range), and the estimate says which it used. Without a size: the interquartile range of the recent
// transactions' prices. Transactions carry no size (the contract has none), so nothing here reads one from them.
// Fewer than MIN_RANGE comparables of both kinds: "too little data", never a guess.
import type { ListingSummary, Transaction } from '../api/records.js';
import { MIN_RANGE } from './definitions.js';
import { bedroomCount, listingFacts, trendPriceFor, typeSlug, type TrendFigures } from './figures.js';
/** Comparables shown as examples under a range. */
const EXAMPLES = 3;
/** A trend change smaller than this (percent, either way) is "flat". */
const FLAT_PCT = 0.5;

export interface ValueAsk {
  bedrooms: number;
  sizeSqft?: number;
  /** A RESIDENTIAL_TYPES slug: "apartment" unless asked. */
  propertyType: string;
  /** A price to place in the range: a sale price, or an annual rent. */
  asking?: { price: number; kind: 'sale' | 'rent' };
}

export interface Range {
  low: number;
  mid: number;
  high: number;
}

/** One comparable as shown: a transaction (date, price) or a listing (price, size, AED/sqft, title, link). */
export interface Comparable {
  price: number;
  date?: string;
  sizeSqft?: number;
  ppsf?: number;
  title?: string;
  url?: string;
}

export type EstimateSource = 'transactions' | 'listings';

export type Estimate =
  | {
      state: 'ok';
      range: Range;
      source: EstimateSource;
      /** Comparables the range stands on, and what they cover ("sales of the last 6 months"). */
      count: number;
      period: string;
      examples: Comparable[];
      /** With a size, for a sale: the trend's AED per sqft the middle stands on, and its month. */
      trend?: { ppsf: number; month: string };
      /** With a size, from transactions: the live listings were too few (how many, of what). */
      fewListings?: { count: number; period: string };
    }
  | {
      state: 'thin';
      source: EstimateSource;
      count: number;
      period: string;
      /** The trend has no price for this bedroom count and type (a sale with a size needs one). */
      noTrend?: true;
      /** With a size: the live listings were too few too (how many, of what). */
      fewListings?: { count: number; period: string };
    };

export interface TrendDirection {
  direction: 'rising' | 'falling' | 'flat';
  /** Percent over `months` months, to the trend's latest month. */
  changePct: number;
  months: number;
  month: string;
}

export interface Position {
  where: 'above' | 'below' | 'within';
  /** Above: past the top; below: under the bottom; within: against the middle (negative is below it). */
  pct: number;
  price: number;
  kind: 'sale' | 'rent';
}

export interface ValueEstimate {
  ask: ValueAsk;
  sale: Estimate;
  rent: Estimate;
  trend?: TrendDirection;
  /** The rent's middle over the sale's, in percent; when both ranges exist. */
  grossYieldPct?: number;
  /** Where the asking price sits in its range; absent when there is no price or no range. */
  position?: Position;
}

/** The quartiles by linear interpolation between ranks (Excel's QUARTILE.INC); undefined for none. */
export function quartiles(values: readonly number[]): Range | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => {
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
  };
  return { low: at(0.25), mid: at(0.5), high: at(0.75) };
}

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** The type of a record when it says one; records that do not are kept (the service filtered them by type). */
const sameType = (label: string | null | undefined, type: string) => !label || typeSlug(label) === type;

/** Transactions of the asked bedroom count and type with a price, newest first as read. */
function comparableTransactions(records: readonly Transaction[], ask: ValueAsk): Transaction[] {
  return records.filter(
    (t) =>
      bedroomCount(t.bedrooms) === ask.bedrooms && sameType(t.property_type, ask.propertyType) && positive(t.price),
  );
}

/** Listings of the asked bedroom count and type with a price and a size in sqft: their annual price per sqft. */
function comparableListings(
  records: readonly ListingSummary[],
  ask: ValueAsk,
  kind: 'sale' | 'rent',
): { listing: ListingSummary; price: number; sizeSqft: number; ppsf: number }[] {
  const out = [];
  for (const listing of records) {
    const f = listingFacts(listing, kind);
    if (!f || f.kind !== kind || f.bedrooms !== ask.bedrooms || f.sizeSqft === undefined) continue;
    if (f.propertyType !== undefined && f.propertyType !== ask.propertyType) continue;
    out.push({ listing, price: f.price, sizeSqft: f.sizeSqft, ppsf: f.price / f.sizeSqft });
  }
  return out;
}

/** The interquartile range of transactions' prices (sales, or annual rents). */
export function transactionsEstimate(records: readonly Transaction[], ask: ValueAsk, period: string): Estimate {
  const same = comparableTransactions(records, ask);
  const range = same.length >= MIN_RANGE ? quartiles(same.map((t) => t.price!)) : undefined;
  if (!range) return { state: 'thin', source: 'transactions', count: same.length, period };
  const examples = same
    .slice(0, EXAMPLES)
    .map((t) => ({ price: t.price!, ...(t.transaction_date ? { date: t.transaction_date } : {}) }));
  return { state: 'ok', range, source: 'transactions', count: same.length, period, examples };
}

/**
 * With a size but too few live listings: the trend's AED per sqft times the size, widened by the recent sales' relative
 * spread (their first quartile over their median to their third over it).
 */
function spreadAroundTrend(
  records: readonly Transaction[],
  ask: ValueAsk & { sizeSqft: number },
  centre: { ppsf: number; month: string },
  period: string,
): Estimate {
  const e = transactionsEstimate(records, ask, period);
  if (e.state !== 'ok') return e;
  const mid = centre.ppsf * ask.sizeSqft;
  const range = { low: (mid * e.range.low) / e.range.mid, mid, high: (mid * e.range.high) / e.range.mid };
  return { ...e, range, trend: centre };
}

/** How many live listings are comparables for a sized estimate: of the bedroom count and type, with a size. */
export const sizedComparables = (records: readonly ListingSummary[], ask: ValueAsk, kind: 'sale' | 'rent') =>
  comparableListings(records, ask, kind).length;

/**
 * A range from listings' AED per sqft for a size: the interquartile range times the size, or, given a `centre` AED per
 * sqft (the trend's), that centre times the size widened by the listings' relative spread (Q1/median to Q3/median).
 */
export function listingsEstimate(
  records: readonly ListingSummary[],
  ask: ValueAsk & { sizeSqft: number },
  kind: 'sale' | 'rent',
  period: string,
  centre?: { ppsf: number; month: string },
): Estimate {
  const same = comparableListings(records, ask, kind);
  const q = same.length >= MIN_RANGE ? quartiles(same.map((c) => c.ppsf)) : undefined;
  if (!q) return { state: 'thin', source: 'listings', count: same.length, period };
  const size = ask.sizeSqft;
  const range = centre
    ? {
        low: (centre.ppsf * size * q.low) / q.mid,
        mid: centre.ppsf * size,
        high: (centre.ppsf * size * q.high) / q.mid,
      }
    : { low: q.low * size, mid: q.mid * size, high: q.high * size };
  // The few closest in size to the home asked about.
  const examples = [...same]
    .sort((a, b) => Math.abs(a.sizeSqft - size) - Math.abs(b.sizeSqft - size))
    .slice(0, EXAMPLES)
    .map((c) => ({
      price: c.price,
      sizeSqft: c.sizeSqft,
      ppsf: c.ppsf,
      ...(c.listing.title ? { title: c.listing.title } : {}),
      ...(c.listing.property_url ? { url: c.listing.property_url } : {}),
    }));
  return {
    state: 'ok',
    range,
    source: 'listings',
    count: same.length,
    period,
    examples,
    ...(centre ? { trend: centre } : {}),
  };
}

/** The trend's direction for the bedroom count: over 3 months when the series has them, else over 1. */
export function trendDirection(trend: TrendFigures | undefined, bedrooms: number): TrendDirection | undefined {
  const b = trend && trendPriceFor(trend, bedrooms);
  if (!b) return undefined;
  const [changePct, months] = b.change3m !== undefined ? [b.change3m, 3] : [b.change1m, 1];
  if (changePct === undefined) return undefined;
  const direction = Math.abs(changePct) < FLAT_PCT ? 'flat' : changePct > 0 ? 'rising' : 'falling';
  return { direction, changePct, months, month: b.latest.period };
}

/** Where a price sits against a range. */
export function positionIn(range: Range, price: number, kind: 'sale' | 'rent'): Position {
  if (price > range.high) return { where: 'above', pct: (price / range.high - 1) * 100, price, kind };
  if (price < range.low) return { where: 'below', pct: (1 - price / range.low) * 100, price, kind };
  return { where: 'within', pct: (price / range.mid - 1) * 100, price, kind };
}

export interface ValueInput {
  ask: ValueAsk;
  trend?: TrendFigures;
  /** The period's sold and rented transactions of the area (newest first): without a size, or with one when too few
   * listings are live. */
  sold?: readonly Transaction[];
  rented?: readonly Transaction[];
  /** With a size: the area's live sale and rent listings. */
  saleListings?: readonly ListingSummary[];
  rentListings?: readonly ListingSummary[];
  /** What the comparables cover, in words: "sales of the last 6 months", "sale listings online now". */
  periods: { sold: string; rented: string; saleListings: string; rentListings: string };
}

/** The whole estimate: both ranges, the trend's direction, the gross yield, and where an asking price sits. */
export function valueEstimate(input: ValueInput): ValueEstimate {
  const { ask, periods } = input;
  let sale: Estimate;
  let rent: Estimate;
  if (ask.sizeSqft !== undefined) {
    const withSize = { ...ask, sizeSqft: ask.sizeSqft };
    const t = input.trend && trendPriceFor(input.trend, ask.bedrooms);
    const centre =
      t && input.trend!.propertyType === ask.propertyType ? { ppsf: t.latest.ppsf, month: t.latest.period } : undefined;
    const saleListings: Estimate = centre
      ? listingsEstimate(input.saleListings ?? [], withSize, 'sale', periods.saleListings, centre)
      : {
          state: 'thin',
          source: 'listings',
          count: comparableListings(input.saleListings ?? [], ask, 'sale').length,
          period: periods.saleListings,
          noTrend: true,
        };
    const rentListings = listingsEstimate(input.rentListings ?? [], withSize, 'rent', periods.rentListings);
    // Too few listings live: the transactions, which say so (a sale's still around the trend's price).
    const few = (listed: Estimate, e: () => Estimate): Estimate =>
      listed.state === 'ok' ? listed : { ...e(), fewListings: { count: listed.count, period: listed.period } };
    // No trend price: nothing to centre the sale on, so no range (the transactions carry no size).
    sale = centre
      ? few(saleListings, () => spreadAroundTrend(input.sold ?? [], withSize, centre, periods.sold))
      : saleListings;
    rent = few(rentListings, () => transactionsEstimate(input.rented ?? [], ask, periods.rented));
  } else {
    sale = transactionsEstimate(input.sold ?? [], ask, periods.sold);
    rent = transactionsEstimate(input.rented ?? [], ask, periods.rented);
  }
  const trend = trendDirection(input.trend, ask.bedrooms);
  const grossYieldPct =
    sale.state === 'ok' && rent.state === 'ok' ? (rent.range.mid / sale.range.mid) * 100 : undefined;
  const asked = ask.asking && (ask.asking.kind === 'sale' ? sale : rent);
  const position =
    ask.asking && asked?.state === 'ok' ? positionIn(asked.range, ask.asking.price, ask.asking.kind) : undefined;
  return {
    ask,
    sale,
    rent,
    ...(trend ? { trend } : {}),
    ...(grossYieldPct !== undefined ? { grossYieldPct } : {}),
    ...(position ? { position } : {}),
  };
}
