// The same flat from several agents: one rule for alerts (folded into one card, not posted again) and for search
// results (one card, "also listed by N other agents"). Same area, same bedrooms, size and price within 2 %.
import type { ListingSummary } from '../api/records.js';

/** Two listings within this fraction of each other in size and price can be the same flat. */
const SAME_FLAT_TOLERANCE = 0.02;

/** What two listings are compared on; alerts keep it for the listings they have posted. */
export interface Fingerprint {
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  price: number | null;
}

/** The part of a listing the rule reads: search results, agents' and brokerages' listings all have it. */
type Comparable = Pick<ListingSummary, 'price' | 'bedrooms' | 'size' | 'location' | 'address'>;

export function fingerprint(l: Comparable): Fingerprint {
  const where = l.location?.id ?? l.location?.full_name ?? l.address?.full_name;
  return {
    locationKey: where ? String(where).trim().toLowerCase() : null,
    bedrooms: l.bedrooms ?? null,
    size: typeof l.size?.value === 'number' && l.size.value > 0 ? l.size.value : null,
    price: priceOf(l),
  };
}

/** The asking price, or null when hidden ("price on request" is never 0). */
export function priceOf(l: Pick<ListingSummary, 'price'>): number | null {
  const p = l.price;
  return p && !p.is_hidden && typeof p.value === 'number' && p.value > 0 ? p.value : null;
}

const near = (a: number | null, b: number | null) =>
  a !== null && b !== null && Math.abs(a - b) <= SAME_FLAT_TOLERANCE * Math.max(a, b);

/** Same area, same bedrooms, size and price within 2 %: one flat, whoever lists it. */
export function sameFlat(a: Fingerprint, b: Fingerprint): boolean {
  return (
    a.locationKey !== null &&
    a.locationKey === b.locationKey &&
    a.bedrooms === b.bedrooms &&
    near(a.size, b.size) &&
    near(a.price, b.price)
  );
}

/** A listing and the same flat from other agents. */
export interface FlatGroup<T> {
  listing: T;
  copies: T[];
}

/**
 * Listings folded by flat, in the order of their first listing: each later copy of a flat joins the group of the first
 * (the one the service ranked highest). The same property id twice (across pages) counts once.
 */
export function foldSameFlats<T extends Comparable & { property_id: string }>(listings: readonly T[]): FlatGroup<T>[] {
  const groups: { group: FlatGroup<T>; print: Fingerprint }[] = [];
  const ids = new Set<string>();
  for (const listing of listings) {
    if (ids.has(listing.property_id)) continue;
    ids.add(listing.property_id);
    const print = fingerprint(listing);
    const same = groups.find((g) => sameFlat(g.print, print));
    if (same) same.group.copies.push(listing);
    else groups.push({ group: { listing, copies: [] }, print });
  }
  return groups.map((g) => g.group);
}
