// A listing's life story as the alerts write it (issue 40), pure: from the stories read in a run's transaction and
// what its one fetch listed, the rows to write (first seen, each new price, back after being gone), the listings
// merely seen again, and those found gone; and a story as the cards tell it (src/views/history.ts).
import type { HistoryWrites, ListingHistory } from '../store/index.js';
import { storyLine, type Story } from '../views/history.js';
import { priceOf } from '../views/same-flat.js';
import type { Listing } from './compare.js';

/** Prices kept per listing: the first and the latest changes; a listing repriced every day still fits in a row. */
const MAX_PRICES = 50;

type PricePoint = [number, number | null];

export function pricesOf(row: Pick<ListingHistory, 'prices'>): PricePoint[] {
  try {
    const parsed: unknown = JSON.parse(row.prices);
    return Array.isArray(parsed) ? (parsed.filter((p) => Array.isArray(p) && p.length === 2) as PricePoint[]) : [];
  } catch {
    return [];
  }
}

/** The story as the cards tell it. */
export const storyOf = (row: ListingHistory): Story => ({
  firstSeenAt: row.firstSeenAt,
  prices: pricesOf(row),
  timesBack: row.timesBack,
  awayMs: row.awayMs,
});

/** The history line of a row, at `now`, or undefined when there is nothing worth saying. */
export const historyLine = (row: ListingHistory | undefined, now: number): string | undefined =>
  row ? storyLine(storyOf(row), now) : undefined;

/**
 * What one query's run writes of its listings' stories: each listing it read (then `markGone` adds the ones its alerts
 * found gone). Answers the writes and the stories as they are after them (what its cards say).
 */
export function storyWrites(
  service: string,
  listings: readonly Listing[],
  before: ReadonlyMap<string, ListingHistory>,
  at: number,
): { writes: HistoryWrites; after: Map<string, ListingHistory> } {
  const writes: HistoryWrites = { at, rows: [], seen: [], gone: [] };
  const after = new Map(before);
  const done = new Set<string>();
  for (const l of listings) {
    const id = l.property_id;
    if (done.has(id)) continue;
    done.add(id);
    const price = priceOf(l);
    const title = l.title ?? null;
    const row = before.get(id);
    if (!row) {
      const fresh: ListingHistory = {
        service,
        propertyId: id,
        firstSeenAt: at,
        lastSeenAt: at,
        lastPrice: price,
        prices: JSON.stringify([[at, price]]),
        goneSince: null,
        timesBack: 0,
        backAt: null,
        awayMs: null,
        title,
      };
      writes.rows.push(fresh);
      after.set(id, fresh);
      continue;
    }
    const back = row.goneSince !== null;
    const repriced = price !== row.lastPrice;
    if (!back && !repriced && (row.title !== null || title === null)) {
      writes.seen.push(id);
      after.set(id, { ...row, lastSeenAt: Math.max(row.lastSeenAt, at) });
      continue;
    }
    const prices = pricesOf(row);
    if (repriced) prices.push([at, price]);
    const kept = prices.length > MAX_PRICES ? [prices[0]!, ...prices.slice(-(MAX_PRICES - 1))] : prices;
    const next: ListingHistory = {
      ...row,
      lastSeenAt: Math.max(row.lastSeenAt, at),
      lastPrice: price,
      prices: JSON.stringify(kept),
      title: title ?? row.title,
      ...(back ? { goneSince: null, timesBack: row.timesBack + 1, backAt: at, awayMs: at - row.lastSeenAt } : {}),
    };
    writes.rows.push(next);
    after.set(id, next);
  }
  return { writes, after };
}

/** Listings an alert found gone (none of them read by this run): their story says gone from the run's time. */
export function markGone(
  story: { writes: HistoryWrites; after: Map<string, ListingHistory> },
  ids: Iterable<string>,
): void {
  for (const id of ids) {
    const row = story.after.get(id);
    if (!row || row.goneSince !== null || story.writes.gone.includes(id)) continue;
    story.writes.gone.push(id);
    story.after.set(id, { ...row, goneSince: story.writes.at });
  }
}
