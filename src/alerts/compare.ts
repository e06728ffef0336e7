// The comparison step, pure: what a search has seen + what the service shows now -> what to record and post.
// New ids become cards, a price that fell by the threshold below the price the channel was last told becomes one
// price-drop card (so several small cuts add up), and the same flat listed again by another agent is folded into one
// card (in one run) or not posted again (in a later run). What the channel's other alerts have posted counts as posted:
// a listing (or flat) one alert of a channel posted is not posted there again by another, and a drop is measured from
// the lowest price the channel was told.
import type { ListingSummary } from '../api/records.js';
import type { SeenRow, SeenUpdate } from '../store/index.js';
import { fingerprint, sameFlat, type Fingerprint } from '../views/same-flat.js';

export type Listing = ListingSummary;

export interface NewGroup {
  listing: Listing;
  /** The same flat from other agents in this run. */
  copies: Listing[];
}

export interface PriceDrop {
  listing: Listing;
  from: number;
  to: number;
}

/** A listing back on the market after being gone (issue 40), at its price now against the last one seen. */
export interface BackAgain {
  listing: Listing;
  from: number | null;
  to: number | null;
}

export interface Comparison {
  seen: SeenUpdate[];
  fresh: NewGroup[];
  drops: PriceDrop[];
  /** Only for an alert that follows it (`with back on market`): posted instead of a drop, once. */
  back: BackAgain[];
}

export interface CompareOptions {
  /** False on a search's first run: everything is recorded, nothing posted. */
  primed: boolean;
  /** A drop of at least this many percent is posted. */
  priceDropPct: number;
  /** What the other alerts of the search's channel have posted (or counted as posted). */
  channel?: readonly ChannelRow[];
  /**
   * Listings this alert had seen that are back on the market after being gone (alerts/channel.ts decides, from their
   * stories), for an alert that follows it: each is posted as back, with its price, not as a drop.
   */
  back?: ReadonlySet<string>;
}

/** A listing another alert of the channel posted: its id, the flat it is and the price the channel was told. */
export type ChannelRow = Pick<
  SeenRow,
  'propertyId' | 'lastPrice' | 'reportedPrice' | 'locationKey' | 'bedrooms' | 'size'
>;

const flatOf = (s: ChannelRow): Fingerprint => ({
  locationKey: s.locationKey,
  bedrooms: s.bedrooms,
  size: s.size,
  price: s.lastPrice,
});
const lower = (a: number | null | undefined, b: number | null): number | null =>
  a === undefined || a === null ? b : b === null || a < b ? a : b;

/** `seenRows`: what the search has seen, as a list or already by listing id (a run's, read once for its batch). */
export function compare(
  seenRows: readonly SeenRow[] | ReadonlyMap<string, SeenRow>,
  listings: readonly Listing[],
  options: CompareOptions,
): Comparison {
  const seen: ReadonlyMap<string, SeenRow> =
    seenRows instanceof Map ? seenRows : new Map((seenRows as readonly SeenRow[]).map((s) => [s.propertyId, s]));
  const channel = options.channel ?? [];
  // The lowest price the channel was told of each listing its other alerts posted.
  const told = new Map<string, number | null>();
  for (const c of channel) told.set(c.propertyId, lower(told.get(c.propertyId), c.reportedPrice ?? c.lastPrice));
  // Only a run that finds a new listing needs them (most runs of most searches find none).
  let postedFlats: Fingerprint[] | undefined;
  const flats = () => (postedFlats ??= [...[...seen.values()].filter((s) => s.posted), ...channel].map(flatOf));
  const out: Comparison = { seen: [], fresh: [], drops: [], back: [] };
  const done = new Set<string>();
  for (const listing of listings) {
    const id = listing.property_id;
    if (done.has(id)) continue; // the same id twice across pages: count it once
    done.add(id);
    const fp = fingerprint(listing);
    const update: SeenUpdate = {
      propertyId: id,
      price: fp.price,
      locationKey: fp.locationKey,
      bedrooms: fp.bedrooms,
      size: fp.size,
      posted: false,
    };
    const before = seen.get(id);
    // Only what is new or repriced is written (last_seen_at of the rest is touched in one statement per query).
    if (before) {
      // Measured from the price the channel knows (first seen, or the last drop posted), not the last one read.
      // Another alert of the channel may have told it a lower price (its drop card): that one, once per channel.
      const own = before.reportedPrice ?? before.lastPrice;
      const reference = lower(told.get(id), own);
      const threshold = 1 - options.priceDropPct / 100;
      if (options.primed && options.back?.has(id)) {
        // One post: back, at its price against the last one seen; the channel knows this price from now on.
        out.back.push({ listing, from: before.lastPrice, to: fp.price });
        out.seen.push({ ...update, reportedPrice: fp.price, posted: true });
        continue;
      }
      if (
        options.primed &&
        reference !== null &&
        fp.price !== null &&
        fp.price < reference &&
        fp.price <= reference * threshold
      ) {
        out.drops.push({ listing, from: reference, to: fp.price });
        update.reportedPrice = fp.price;
      } else if (reference !== own) update.reportedPrice = reference; // kept, should the other alert go
      if (before.lastPrice !== fp.price || update.reportedPrice !== undefined) out.seen.push(update);
      continue;
    }
    update.reportedPrice = lower(told.get(id), fp.price); // the price the channel knows from now on
    out.seen.push(update);
    if (!options.primed) continue;
    // Posted before, by another alert of the channel or under another agent's id: record it as covered, post nothing.
    if (told.has(id) || flats().some((p) => sameFlat(p, fp))) {
      update.posted = true;
      continue;
    }
    update.posted = true;
    const group = out.fresh.find((g) => sameFlat(fingerprint(g.listing), fp));
    if (group) group.copies.push(listing);
    else out.fresh.push({ listing, copies: [] });
  }
  return out;
}
