// The price-per-sqft filter of a search ("offices in dmcc under 150 per sqft"): the service has no such parameter, so
// Manzil keeps, of each page the service returns, the listings within the bounds, and the reply says it did.
import { operationSpec, type OperationName } from '../api/operations.js';
import type { Query } from '../query/index.js';
import { formatNumber, pricePerSqft, withinPerSqft, type SizedListing } from '../views/index.js';

export interface PerSqftFilter {
  /** True for a listing within the bounds; one without a price or a size is left out (it cannot be compared). */
  keeps(listing: unknown): boolean;
  /** What the reply says of the filter: how many of the listings fetched for this page are within it. */
  said(kept: number, fetched: number, more: boolean): string;
}

const PERIOD_WORDS: Readonly<Record<string, string>> = {
  yearly: ' a year',
  monthly: ' a month',
  weekly: ' a week',
  daily: ' a day',
};

/** The filter of a query with a price per sqft, or undefined when it has none. */
export function perSqftFilter(query: Query, operation: OperationName): PerSqftFilter | undefined {
  const bounds = query.perSqft;
  if (!bounds || (bounds.min === undefined && bounds.max === undefined)) return undefined;
  // A rent's price per sqft is compared in the period the search is in (yearly unless a month is said).
  const rent = operation.endsWith('-rent');
  const spec = operationSpec(operation).params as Record<string, { default?: string }>;
  const period = rent ? (query.params.rent_frequency ?? spec.rent_frequency?.default ?? 'yearly') : undefined;
  const aed = (n: number) => `AED ${formatNumber(n, n < 100 ? 2 : 0)}`;
  const range =
    bounds.min !== undefined && bounds.max !== undefined
      ? `${aed(bounds.min)} to ${formatNumber(bounds.max, bounds.max < 100 ? 2 : 0)}`
      : bounds.max !== undefined
        ? `up to ${aed(bounds.max)}`
        : `at least ${aed(bounds.min!)}`;
  const what = `${range} per sqft${period ? (PERIOD_WORDS[period] ?? '') : ''}`;
  return {
    keeps: (listing) => withinPerSqft(pricePerSqft(listing as SizedListing, period), bounds),
    said: (kept, fetched, more) =>
      `The property service has no price-per-sqft filter, so I kept the listings at ${what}: ${kept} of the ${fetched} on this page of results${more ? '; Next looks further' : ''}.`,
  };
}
