// One definition per market figure, for every answer that quotes one (a listing card, a transactions reply, a digest,
// `/compare`, `/value`): the smallest sample each figure needs, the median, the rent periods a price is quoted in, the
// service's periods in words, and whose homes a figure is of. Pure and importing nothing, so the views may use it as
// well as src/market.

/** A median needs at least this many records with a price; fewer: "too little data", no median. */
export const MIN_MEDIAN = 3;
/** A range (value's interquartile spread) needs at least this many comparables; fewer: "too little data". */
export const MIN_RANGE = 5;

/** How many of each rent period make a year: the one table for turning a listed rent into an annual one. */
export const RENT_PERIODS_PER_YEAR: Readonly<Record<string, number>> = {
  yearly: 1,
  year: 1,
  annual: 1,
  annually: 1,
  monthly: 12,
  month: 12,
  weekly: 52,
  week: 52,
  daily: 365,
  day: 365,
};

/** The service's transaction periods in words; a search without one gets the service's default, 12 months. */
export const PERIOD_WORDS: Readonly<Record<string, string>> = {
  '1m': 'the last month',
  '3m': 'the last 3 months',
  '6m': 'the last 6 months',
  '1y': 'the last 12 months',
};

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** The middle value; with an even count the mean of the middle two. Undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A median price and what it stands on. */
export interface PriceFigure {
  /** Records counted (read). */
  count: number;
  /** Of them, with a price: the median's base. */
  priced: number;
  /** Absent when thin. */
  median?: number;
  /** Fewer than MIN_MEDIAN priced: "too little data". */
  thin: boolean;
}

/** The median of the positive prices, or thin (no median) when fewer than MIN_MEDIAN have one. */
export function priceFigure(prices: readonly (number | null | undefined)[]): PriceFigure {
  const priced = prices.filter(positive);
  const thin = priced.length < MIN_MEDIAN;
  const m = thin ? undefined : median(priced);
  return { count: prices.length, priced: priced.length, thin, ...(m !== undefined ? { median: m } : {}) };
}

const plural = (type: string) => type.replace(/-/g, ' ').replace(/(s|x|sh|ch)$/, '$1e') + 's';

/**
 * Whose figure it is, in words: "2-bed apartments", "studio homes of every type", "homes of every type". A figure names
 * its scope (area, bedrooms, property type, period, count); this is its bedrooms and type.
 */
export function homesWords(bedrooms: number | '4+' | undefined, propertyType?: string): string {
  const beds = bedrooms === undefined ? '' : bedrooms === 0 ? 'studio ' : `${bedrooms}-bed `;
  return propertyType ? `${beds}${plural(propertyType)}` : `${beds}homes of every type`;
}
