// What a run's comparison becomes in the outbox: cards for new listings and price drops (the rest as one summary),
// and the notices that a search keeps failing, works again, or is paused for asking what no listing can be.
import type { NewDelivery, AlertRow } from '../store/index.js';
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

/** New listings first, then price drops: the first `cards` as cards, the rest as one summary. */
export function deliveriesFor(
  search: AlertRow,
  cmp: ReturnType<typeof compare>,
  cards: number,
  at: number,
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
      }),
    })),
    ...cmp.drops.map((d) => ({
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
      }),
    })),
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
