// What a run's comparison becomes in the outbox: cards for new listings and price drops (the rest as one summary),
// and the notices that a search keeps failing, works again, or is paused for asking what no listing can be.
import type { NewDelivery, AlertRow, ListingHistory, SeenRow } from '../store/index.js';
import type { compare } from './compare.js';
import { encodePayload, type SearchRef } from './messages.js';

const ref = (s: AlertRow): SearchRef => ({ id: s.id, number: s.number, summary: s.summary });

export function notice(
  s: AlertRow,
  kind: 'failing' | 'recovered' | 'impossible',
  dedupeKey: string,
  extra: Record<string, unknown>,
): NewDelivery {
  return {
    searchId: s.id,
    channel: s.channel,
    kind,
    dedupeKey,
    payload: encodePayload({ v: 1, kind, search: ref(s), ...extra } as never),
  };
}

/** What a run's cards say of their listings' life story (issue 40): each one's history line, and its story. */
export interface CardStory {
  line(propertyId: string): string | undefined;
  story(propertyId: string): ListingHistory | undefined;
  /** Where the listing's first card landed in the channel (channel_posted.message_ref), when known. */
  thread?(propertyId: string): string | undefined;
}

const NO_STORY: CardStory = { line: () => undefined, story: () => undefined };

/** The drops this process planned as replies in their cards' threads, as planned (a copy, held or queued, is not). */
const inThreads = new WeakSet<NewDelivery>();
export const plannedInThread = (d: NewDelivery): boolean => inThreads.has(d);

/** A drop's thread in its payload: under its listing's first card, when the channel knows where that landed. */
const threadOf = (stories: CardStory, id: string) => {
  const thread = stories.thread?.(id);
  return thread === undefined ? {} : { thread };
};

/** A card's history line in its payload, when there is one worth saying. */
const lineOf = (stories: CardStory, id: string) => {
  const history = stories.line(id);
  return history ? { history } : {};
};

/**
 * New listings first, then listings back on the market, then price drops: the first `cards` as cards, the rest as one
 * summary.
 */
export function deliveriesFor(
  search: AlertRow,
  cmp: ReturnType<typeof compare>,
  cards: number,
  at: number,
  stories: CardStory = NO_STORY,
): NewDelivery[] {
  const all: NewDelivery[] = [
    ...cmp.fresh.map((g) => ({
      searchId: search.id,
      channel: search.channel,
      kind: 'new',
      propertyId: g.listing.property_id,
      dedupeKey: `${search.id}:new:${g.listing.property_id}`,
      payload: encodePayload({
        v: 1,
        kind: 'new',
        search: ref(search),
        listing: g.listing,
        copies: g.copies.length,
        others: g.copies,
        ...lineOf(stories, g.listing.property_id),
      }),
    })),
    ...cmp.back.map((b) => {
      const id = b.listing.property_id;
      const story = stories.story(id);
      return {
        searchId: search.id,
        channel: search.channel,
        kind: 'back',
        propertyId: id,
        // Once per channel and return, whichever of its alerts tells it.
        dedupeKey: `back:${search.channel}:${id}:${story?.backAt ?? at}`,
        payload: encodePayload({
          v: 1,
          kind: 'back',
          search: ref(search),
          listing: b.listing,
          from: b.from,
          to: b.to,
          awayMs: story?.awayMs ?? null,
          ...lineOf(stories, id),
        }),
      };
    }),
    ...cmp.drops.map((d) => {
      const thread = threadOf(stories, d.listing.property_id);
      const drop: NewDelivery = {
        searchId: search.id,
        channel: search.channel,
        kind: 'price_drop',
        propertyId: d.listing.property_id,
        dedupeKey: `${search.id}:drop:${d.listing.property_id}:${d.to}`,
        payload: encodePayload({
          v: 1,
          kind: 'price_drop',
          search: ref(search),
          listing: d.listing,
          from: d.from,
          to: d.to,
          ...lineOf(stories, d.listing.property_id),
          ...thread,
        }),
      };
      if ('thread' in thread) inThreads.add(drop);
      return drop;
    }),
  ];
  if (all.length <= cards) return all;
  const more = all.length - cards;
  return [
    ...all.slice(0, cards),
    {
      searchId: search.id,
      channel: search.channel,
      kind: 'summary',
      dedupeKey: `${search.id}:summary:${at}`,
      payload: encodePayload({ v: 1, kind: 'summary', search: ref(search), more }),
    },
  ];
}

/**
 * A listing gone from the market (issue 40: missing from two complete runs in a row), for an alert that follows it:
 * named from its story (its title as last read), once per channel and disappearance.
 */
export function goneDelivery(search: AlertRow, row: SeenRow, story: ListingHistory | undefined): NewDelivery {
  const lastSeenAt = story?.lastSeenAt ?? row.lastSeenAt;
  return {
    searchId: search.id,
    channel: search.channel,
    kind: 'gone',
    propertyId: row.propertyId,
    dedupeKey: `gone:${search.channel}:${row.propertyId}:${lastSeenAt}`,
    payload: encodePayload({
      v: 1,
      kind: 'gone',
      search: ref(search),
      propertyId: row.propertyId,
      title: story?.title ?? null,
      price: story?.lastPrice ?? row.lastPrice,
      firstSeenAt: story?.firstSeenAt ?? row.firstSeenAt,
      lastSeenAt,
    }),
  };
}
