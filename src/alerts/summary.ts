// Summaries (issue 40): what a daily or weekly alert posts once per period instead of cards, and what a channel's quiet
// hours fold their held cards into. Each is ONE outbox entry with every item it counts, so the message can show the
// best few as cards and `/alerts more` can page through the rest from the same record, after the fact. Pure.
import type { NewDelivery, OutboxRow, AlertRow } from '../store/index.js';
import { priceOf } from '../views/same-flat.js';
import type { Comparison, Listing } from './compare.js';
import { decodePayload, encodePayload, SUMMARY_CARDS, type DeliveryPayload, type SearchRef } from './messages.js';

/** Lines per page of `/alerts more`. */
export const MORE_PAGE = 10;

export type SummaryItem =
  | { kind: 'new'; search: SearchRef; listing: Listing; copies: number }
  | { kind: 'price_drop'; search: SearchRef; listing: Listing; from: number; to: number };

const ref = (s: AlertRow): SearchRef => ({ id: s.id, number: s.number, summary: s.summary });

/** The best first: new listings as the service ranks them (newest first), then the biggest price drops. */
export function bestFirst(items: readonly SummaryItem[]): SummaryItem[] {
  const cut = (i: SummaryItem) => (i.kind === 'price_drop' ? (i.from - i.to) / i.from : 0);
  return [
    ...items.filter((i) => i.kind === 'new'),
    ...items.filter((i) => i.kind === 'price_drop').sort((a, b) => cut(b) - cut(a)),
  ];
}

/**
 * A summary alert's one delivery for its slot, or none when nothing is new. Its dedupe key is the alert's and the
 * slot's: a run for the same period (after a crash, on another instance) queues nothing more. `atLeast`: the fetch
 * stopped at its page limit with every listing still new, so there were more than it counts.
 */
export function periodSummary(
  search: AlertRow,
  comparison: Pick<Comparison, 'fresh' | 'drops'> & Partial<Pick<Comparison, 'back'>>,
  period: { every: 'day' | 'week'; slot: number; atLeast: boolean },
): NewDelivery | undefined {
  // Back on the market (an alert that follows it): counted as a price drop when it came back cheaper, else as new.
  const back = comparison.back ?? [];
  const cheaper = (b: (typeof back)[number]) => b.from !== null && b.to !== null && b.to < b.from;
  const cmp = {
    fresh: [...comparison.fresh, ...back.filter((b) => !cheaper(b)).map((b) => ({ listing: b.listing, copies: [] }))],
    drops: [
      ...comparison.drops,
      ...back.filter(cheaper).map((b) => ({ listing: b.listing, from: b.from!, to: b.to! })),
    ],
  };
  if (cmp.fresh.length === 0 && cmp.drops.length === 0) return undefined;
  const s = ref(search);
  const items = bestFirst([
    ...cmp.fresh.map((g): SummaryItem => ({ kind: 'new', search: s, listing: g.listing, copies: g.copies.length })),
    ...cmp.drops.map((d): SummaryItem => ({
      kind: 'price_drop',
      search: s,
      listing: d.listing,
      from: d.from,
      to: d.to,
    })),
  ]);
  return {
    searchId: search.id,
    channel: search.channel,
    kind: 'period',
    dedupeKey: `${search.id}:period:${period.slot}`,
    payload: encodePayload({
      v: 1,
      kind: 'period',
      search: s,
      every: period.every,
      fresh: cmp.fresh.length,
      drops: cmp.drops.length,
      atLeast: period.atLeast,
      items,
    }),
  };
}

/** Card kinds held in quiet hours (notices are posted at once: a failing alert is worth knowing about at night). */
export const HELD_KINDS: readonly string[] = ['new', 'price_drop', 'summary', 'back', 'gone'];

/**
 * The one delivery a channel's held cards become when its quiet hours end. Its dedupe key is the channel's and its
 * first held entry's: folding the same entries again (two instances at once) queues it once.
 */
export function foldHeld(channel: string, held: readonly OutboxRow[]): NewDelivery {
  const items: SummaryItem[] = [];
  const gone: { search: SearchRef; title: string; price: number | null }[] = [];
  let more = 0;
  for (const row of held) {
    const p = decodePayload(row.payload);
    if (!p) continue;
    if (p.kind === 'new')
      items.push({ kind: 'new', search: p.search, listing: p.listing as Listing, copies: p.copies });
    else if (p.kind === 'price_drop')
      items.push({ kind: 'price_drop', search: p.search, listing: p.listing as Listing, from: p.from, to: p.to });
    // Back on the market: a price drop when it came back cheaper, else as a new listing.
    else if (p.kind === 'back')
      items.push(
        p.from !== null && p.to !== null && p.to < p.from
          ? { kind: 'price_drop', search: p.search, listing: p.listing as Listing, from: p.from, to: p.to }
          : { kind: 'new', search: p.search, listing: p.listing as Listing, copies: 0 },
      );
    // A run's cards past its limit were counted only: they stay counted.
    else if (p.kind === 'summary') more += p.more;
    else if (p.kind === 'gone')
      gone.push({ search: p.search, title: p.title ?? `Property ${p.propertyId}`, price: p.price });
  }
  const fresh = items.filter((i) => i.kind === 'new').length + more;
  return {
    channel,
    kind: 'quiet',
    dedupeKey: `quiet:${channel}:${held[0]!.id}`,
    payload: encodePayload({
      v: 1,
      kind: 'quiet',
      fresh,
      drops: items.filter((i) => i.kind === 'price_drop').length,
      unlisted: more,
      items: bestFirst(items),
      ...(gone.length > 0 ? { gone } : {}),
    }),
  };
}

/** One line of `/alerts more`: what it is, its price, its link. */
export function itemLine(i: SummaryItem): string {
  const l = i.listing;
  const title = l.title ?? `Property ${l.property_id}`;
  const link = l.property_url ?? l.share_url;
  const price =
    i.kind === 'price_drop'
      ? `AED ${i.from.toLocaleString('en-US')} → AED ${i.to.toLocaleString('en-US')}`
      : priceOf(l) === null
        ? ''
        : `AED ${priceOf(l)!.toLocaleString('en-US')}`;
  const label = i.kind === 'price_drop' ? '📉' : '🏠';
  return [`${label} ${link ? `<${link}|${title}>` : title}`, price, `#${i.search.number}`].filter(Boolean).join(' · ');
}

/** The items of a summary payload past its cards, one page: what `/alerts more` shows. */
export function morePage(
  p: Extract<DeliveryPayload, { kind: 'period' | 'quiet' }>,
  page: number,
): { lines: string[]; left: number; total: number } {
  const rest = (p.items as SummaryItem[]).slice(SUMMARY_CARDS);
  const lines = rest.slice((page - 1) * MORE_PAGE, page * MORE_PAGE).map(itemLine);
  return { lines, left: Math.max(0, rest.length - page * MORE_PAGE), total: rest.length };
}
