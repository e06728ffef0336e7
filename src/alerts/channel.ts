// One listing once per channel: what a channel was posted (by any of its alerts) is the memory each alert of the
// channel compares with (compare.ts), and the one post names every alert of the channel that matched it.
import { LRUCache } from 'lru-cache';
import type { Logger } from '../log.js';
import { passesWords, wordsFromKey } from '../query/index.js';
import type {
  AlertsRepo,
  AlertRow,
  ChannelPosted,
  HistoryWrites,
  ListingHistory,
  NewDelivery,
  PostedAlert,
  RunOutcome,
  SeenRow,
  SeenUpdate,
} from '../store/index.js';
import { fingerprint, sameFlat, type Fingerprint } from '../views/same-flat.js';
import { compare, type Comparison, type Listing } from './compare.js';
import type { SearchRef } from './messages.js';
import { historyLine, markGone, storyWrites } from './history.js';
import { follows } from './lifecycle.js';
import { deliveriesFor, goneDelivery, notice } from './plan.js';

/**
 * How a search's comparison is delivered, when not as cards (issue 40): a summary alert's one message per period and
 * its next slot, or cards held for the channel's quiet hours (src/alerts/poller.ts decides).
 */
export type Shape = (
  search: AlertRow,
  cmp: Comparison,
  cards: NewDelivery[],
) => { deliveries: NewDelivery[]; nextRunAt?: number };

export interface GroupRun {
  outcomes: RunOutcome[];
  fresh: number;
  drops: number;
  /** What the run writes of its listings' stories (issue 40); none when no story was read. */
  history?: HistoryWrites;
}

/** What a run knows of its listings' life story (issue 40): the stories read in its transaction, and its fetch. */
export interface StoryInput {
  service: string;
  stories: ReadonlyMap<string, ListingHistory>;
  /**
   * The fetch read the whole result (a short or empty last page) and it listed something: only then is a listing an
   * alert had seen and the fetch did not list missing. A cut, stopped or failed run, or an empty answer, never counts.
   */
  complete: boolean;
}

/** What one search has seen, by listing id (read once for the batch). */
export type OwnRows = ReadonlyMap<string, SeenRow>;
const NONE: OwnRows = new Map();

/**
 * One query's searches compared with what they have seen and with what their channels were posted (`posted`, read in
 * the run's transaction, of its listings and their locations), in order: a search's posts join its channel's memory
 * before the next search of the channel is compared (two alerts of one channel with the same query, saved before "saved twice" was refused).
 */
export function planGroup(
  group: readonly AlertRow[],
  seenRows: ReadonlyMap<number, OwnRows>,
  listings: readonly Listing[],
  posted: readonly ChannelPosted[],
  options: { priceDropPct: number; cardsPerRun: number; shape?: Shape; story?: StoryInput },
  at: number,
): GroupRun {
  // What each channel was posted, by listing id: the run's searches add to it as they are compared.
  const memory = new Map<string, Map<string, ChannelPosted>>();
  const channelOf = (channel: string) => memory.get(channel) ?? memory.set(channel, new Map()).get(channel)!;
  for (const p of posted) channelOf(p.channel).set(p.propertyId, p);
  const run: GroupRun = { outcomes: [], fresh: 0, drops: 0 };
  const keptBy = listingsByWords(listings);
  const input = options.story;
  const story = input ? storyWrites(input.service, listings, input.stories, at) : undefined;
  const line = (id: string) => historyLine(story?.after.get(id), at);
  const listed = new Set(listings.map((l) => l.property_id));
  for (const search of group) {
    const isPrimed = search.primedAt !== null;
    const channel = channelOf(search.channel);
    const own = seenRows.get(search.id) ?? NONE;
    const life = input ? lifeOf(search, own, listed, input) : { missed: [], gone: [], back: new Set<string>() };
    if (story) markGone(story, life.gone);
    const cmp = compare(own, keptBy(search.words), {
      primed: isPrimed,
      priceDropPct: options.priceDropPct,
      channel: [...channel.values()],
      ...(follows(search.lifecycle, 'back') ? { back: life.back } : {}),
    });
    const cards = deliveriesFor(search, cmp, options.cardsPerRun, at, {
      line,
      story: (id) => story?.after.get(id),
      thread: (id) => channel.get(id)?.messageRef ?? undefined,
    });
    // Gone, for an alert that follows it: a listing its channel was posted, once per channel (its dedupe key).
    if (isPrimed && follows(search.lifecycle, 'gone'))
      for (const row of own.values())
        if (row.posted && life.gone.includes(row.propertyId))
          cards.push(goneDelivery(search, row, story?.after.get(row.propertyId)));
    const shaped = options.shape?.(search, cmp, cards) ?? { deliveries: cards };
    const deliveries = shaped.deliveries;
    run.fresh += cmp.fresh.length;
    run.drops += cmp.drops.length;
    if (search.errorReported)
      deliveries.push(notice(search, 'recovered', `${search.id}:recovered:${search.errorSince ?? at}`, {}));
    run.outcomes.push({
      searchId: search.id,
      at,
      seen: cmp.seen,
      deliveries,
      primed: !isPrimed,
      clearError: search.lastError !== null,
      ...(shaped.nextRunAt === undefined ? {} : { nextRunAt: shaped.nextRunAt }),
      ...(life.missed.length > 0 ? { missed: life.missed } : {}),
      ...refreshedOf(own, listed, life.back, cmp.seen),
    });
    // As the store records it (store/channel-posted.ts): a posted row is the channel's, at the lowest price told.
    for (const u of cmp.seen) {
      const before = own.get(u.propertyId);
      if (!(u.posted || before?.posted)) continue;
      const told =
        u.reportedPrice !== undefined ? u.reportedPrice : (before?.reportedPrice ?? before?.lastPrice ?? u.price);
      const { propertyId, locationKey, bedrooms, size } = u;
      const known = channel.get(propertyId)?.reportedPrice ?? null;
      channel.set(propertyId, {
        service: search.service,
        channel: search.channel,
        propertyId,
        // An existing seen row keeps the fingerprint it was first written with, and so does the channel's row.
        ...(before
          ? { locationKey: before.locationKey, bedrooms: before.bedrooms, size: before.size }
          : { locationKey, bedrooms, size }),
        lastPrice: u.price,
        reportedPrice: known === null ? told : told === null ? known : Math.min(known, told),
        messageRef: channel.get(propertyId)?.messageRef ?? null,
      });
    }
  }
  if (story) run.history = story.writes;
  return run;
}

/**
 * The rows a run must mark seen now although it writes nothing else of them (SeenRow.lastSeenAt): listed after a miss,
 * or back on the market since the alert last saw them. The others it lists unchanged are left as they are.
 */
function refreshedOf(
  own: OwnRows,
  listed: ReadonlySet<string>,
  back: ReadonlySet<string>,
  written: readonly SeenUpdate[],
): { refreshed?: string[] } {
  const ids: string[] = [];
  for (const id of listed) {
    const r = own.get(id);
    if (r && (r.missed > 0 || back.has(id))) ids.push(id);
  }
  if (ids.length === 0) return {};
  const rewritten = new Set(written.map((u) => u.propertyId));
  const refreshed = ids.filter((id) => !rewritten.has(id));
  return refreshed.length > 0 ? { refreshed } : {};
}

/**
 * One alert's view of its listings' lives in this run: those it had seen that a complete run did not list (`missed`,
 * counted up to 2), those that makes gone (missed by its previous run too, and seen by nobody since), and those back
 * on the market for it (it had seen them, and their story says gone, or back since it last saw them).
 */
function lifeOf(
  search: AlertRow,
  own: OwnRows,
  listed: ReadonlySet<string>,
  input: StoryInput,
): { missed: string[]; gone: string[]; back: Set<string> } {
  const missed: string[] = [];
  const gone: string[] = [];
  const back = new Set<string>();
  for (const id of listed) {
    const row = own.get(id);
    const s = row && input.stories.get(id);
    if (s && (s.goneSince !== null || (s.backAt !== null && s.backAt > row!.lastSeenAt))) back.add(id);
  }
  // Only a complete run of a primed alert tells what is missing: the rest need not look at what it did not list.
  if (!input.complete || search.primedAt === null) return { missed, gone, back };
  for (const row of own.values()) {
    if (listed.has(row.propertyId)) continue;
    const s = input.stories.get(row.propertyId);
    if (row.missed < 2) missed.push(row.propertyId);
    // The second complete run in a row without it; its previous run already missed it, and nobody saw it since.
    if (row.missed === 1 && s && (s.goneSince !== null || s.lastSeenAt < (search.lastRunAt ?? 0)))
      gone.push(row.propertyId);
  }
  return { missed, gone, back };
}

/**
 * The one fetch's listings each alert of the query keeps: all of them, or those that pass its words in and out (issue
 * 40). Words are not part of the params key, so alerts that differ only in them share the fetch; each is compared with
 * its own listings only, filtered once per distinct words in the group.
 */
export function listingsByWords(listings: readonly Listing[]): (wordsKey: string) => readonly Listing[] {
  const kept = new Map<string, readonly Listing[]>([['', listings]]);
  return (key) => {
    let mine = kept.get(key);
    if (!mine) {
      const words = wordsFromKey(key);
      mine = words ? listings.filter((l) => passesWords(words, l)) : listings;
      kept.set(key, mine);
    }
    return mine;
  };
}

/** The listings' ids and locations: a run reads what its channels were posted of these only (the same flat shares a location). */
export function postedQueryOf(listings: readonly Listing[]): { propertyIds: string[]; locationKeys: string[] } {
  const keys = new Set<string>();
  for (const l of listings) {
    const k = fingerprint(l).locationKey;
    if (k !== null) keys.add(k);
  }
  return { propertyIds: [...new Set(listings.map((l) => l.property_id))], locationKeys: [...keys] };
}

const flatOf = (p: PostedAlert): Fingerprint => ({
  locationKey: p.locationKey,
  bedrooms: p.bedrooms,
  size: p.size,
  price: p.lastPrice,
});

/**
 * The alerts of a search's channel that have this listing (or the same flat) as posted, by number: what its one post
 * names, read as it is rendered, so alerts whose runs committed after it was queued are named too.
 */
export function matchingAlerts(repo: Pick<AlertsRepo, 'byId' | 'postedAlerts'>, logger?: Logger) {
  // Where each alert posts (its service and channel never change): read once per alert, not once per post. An alert
  // removed since is no matter: its entries went with it, and the read below names only alerts still there.
  const places = new LRUCache<number, Place>({ max: 2_000 });
  const placeOf = async (searchId: number): Promise<Place | undefined> => {
    const known = places.get(searchId);
    if (known) return known;
    const search = await repo.byId(searchId);
    if (!search) return undefined;
    const place = { service: search.service, channel: search.channel };
    places.set(searchId, place);
    return place;
  };
  return async (searchId: number, listing: Listing): Promise<SearchRef[]> => {
    try {
      return await matching(repo, await placeOf(searchId), listing);
    } catch (error) {
      // The names are not worth holding the post back: it names the alert that queued it.
      logger?.warn('could not read which alerts of the channel match a listing; the post names its own alert', {
        searchId,
        error,
      });
      return [];
    }
  };
}

interface Place {
  service: string;
  channel: string;
}

async function matching(
  repo: Pick<AlertsRepo, 'postedAlerts'>,
  search: Place | undefined,
  listing: Listing,
): Promise<SearchRef[]> {
  if (!search) return [];
  const print = fingerprint(listing);
  const rows = await repo.postedAlerts({
    service: search.service,
    channels: [search.channel],
    propertyIds: [listing.property_id],
    locationKeys: print.locationKey === null ? [] : [print.locationKey],
  });
  const refs = new Map<number, SearchRef>();
  for (const r of rows)
    if (r.propertyId === listing.property_id || sameFlat(flatOf(r), print))
      refs.set(r.searchId, { id: r.searchId, number: r.number, summary: r.summary });
  return [...refs.values()].sort((a, b) => a.number - b.number);
}
