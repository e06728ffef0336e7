// Price per square foot of a listing: how commercial space is quoted and compared in the UAE. The service sends a
// price and a size but no price per sqft, and has no filter for it, so it is worked out here, for the card and for the
// filter Manzil applies to what a search returns (bot/pipeline/present.ts).
import { COMMERCIAL_TYPES, RESIDENTIAL_TYPES } from '../api/operations.js';
import { RENT_PERIODS_PER_YEAR as PER_YEAR } from '../market/definitions.js';
import { formatNumber, type PriceLike } from './format.js';

/** A listing's price and size, loosely: any part may be missing. */
export interface SizedListing {
  readonly price?: PriceLike | null | undefined;
  readonly size?:
    { readonly value?: number | null | undefined; readonly unit?: string | null | undefined } | null | undefined;
  readonly floor_plan_area?: number | null | undefined;
  readonly property_type?: string | null | undefined;
}

const SQM = 10.7639;
const SUFFIX: Readonly<Record<string, string>> = {
  yearly: '/yr',
  year: '/yr',
  annual: '/yr',
  annually: '/yr',
  monthly: '/mo',
  month: '/mo',
  weekly: '/wk',
  week: '/wk',
  daily: '/day',
  day: '/day',
};

/** The listing's size in sqft (converted from sqm when it says so), or undefined when it has none. */
export function sizeInSqft(r: SizedListing): number | undefined {
  const value = r.size?.value;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const unit = r.size?.unit?.trim().toLowerCase();
    return unit === 'sqm' || unit === 'm2' ? value * SQM : value;
  }
  const plan = r.floor_plan_area;
  return typeof plan === 'number' && Number.isFinite(plan) && plan > 0 ? plan : undefined;
}

/**
 * AED per sqft (a rent's compared in the period the search asked for, by the one rent-period table); for a rent, in `period` ("yearly", "monthly") when given and the listing says its own period, else in
 * the
 * listing's own. Undefined when the price is hidden or either number is missing: nothing to compare.
 */
export function pricePerSqft(r: SizedListing, period?: string): number | undefined {
  const price = r.price;
  const value = price?.value;
  if (!price || price.is_hidden === true || typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    return undefined;
  const size = sizeInSqft(r);
  if (size === undefined) return undefined;
  const own = price.period?.trim().toLowerCase() ?? '';
  const scale =
    period !== undefined && PER_YEAR[own] !== undefined && PER_YEAR[period] !== undefined
      ? PER_YEAR[own] / PER_YEAR[period]
      : 1;
  return (value * scale) / size;
}

/** `AED 1,450/sqft`, `AED 120/sqft/yr` (the listing's own period), or undefined when it cannot be worked out. */
export function formatPerSqft(r: SizedListing): string | undefined {
  const perSqft = pricePerSqft(r);
  if (perSqft === undefined) return undefined;
  const period = r.price?.period?.trim().toLowerCase() ?? '';
  return `AED ${formatNumber(perSqft, perSqft < 100 ? 2 : 0)}/sqft${SUFFIX[period] ?? ''}`;
}

/** True when `perSqft` is within the bounds (inclusive); a listing whose price per sqft is unknown is not. */
export function withinPerSqft(perSqft: number | undefined, bounds: { min?: number; max?: number }): boolean {
  if (perSqft === undefined) return false;
  // Compared to the cent, as the bound was read: AED 150.004 per sqft is within "under 150".
  const cents = Math.round(perSqft * 100);
  return (
    (bounds.min === undefined || cents >= Math.round(bounds.min * 100)) &&
    (bounds.max === undefined || cents <= Math.round(bounds.max * 100))
  );
}

const label = (type: string) => type.replace(/-/g, ' ');
/**
 * The display labels of types that are only ever commercial ("Office Space", "Show Room"): "villa" is both, so not
 * here.
 */
const COMMERCIAL_ONLY_LABELS = new Set([
  ...COMMERCIAL_TYPES.filter((t) => !(RESIDENTIAL_TYPES as readonly string[]).includes(t)).flatMap((t) => [
    label(t),
    t,
    t.replace(/-/g, ''),
  ]),
  'office',
  'offices',
]);

/** True for a listing whose type is commercial only (an office, a shop, a warehouse), whatever search it came from. */
export function isCommercialType(r: SizedListing): boolean {
  const type = r.property_type?.trim().toLowerCase();
  return type !== undefined && COMMERCIAL_ONLY_LABELS.has(type);
}
