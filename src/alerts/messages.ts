// What an outbox entry carries (versioned JSON, written by the poller) and the chat message it becomes.
// Rendering happens at delivery time, so a message is built from what was recorded, not from a later fetch.
import { z } from 'zod';
import { formatAed } from '../views/format.js';
import { spanText } from '../views/history.js';
import { listingCard, listingGroupCard } from '../views/listing.js';
import type { Block, Button, Reply } from '../views/model.js';
import type { Listing } from './compare.js';

const searchRef = z.object({ id: z.number(), number: z.number(), summary: z.string() });

const summaryItem = z.union([
  z.object({
    kind: z.literal('new'),
    search: searchRef,
    listing: z.looseObject({ property_id: z.string() }),
    copies: z.number(),
  }),
  z.object({
    kind: z.literal('price_drop'),
    search: searchRef,
    listing: z.looseObject({ property_id: z.string() }),
    from: z.number(),
    to: z.number(),
  }),
]);

const payloadSchema = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    kind: z.literal('new'),
    search: searchRef,
    listing: z.looseObject({ property_id: z.string() }),
    copies: z.number().default(0),
    // The copies themselves (their agents and links); entries queued by releases before them have the count alone.
    others: z.array(z.looseObject({ property_id: z.string() })).optional(),
    // Its history line (issue 40: "first seen 41 days ago · …"), when there is one worth saying.
    history: z.string().optional(),
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('price_drop'),
    search: searchRef,
    listing: z.looseObject({ property_id: z.string() }),
    from: z.number(),
    to: z.number(),
    history: z.string().optional(),
    // Where its listing's first card landed in the channel (issue 40), opaque: posted as a reply in that card's thread.
    thread: z.string().optional(),
  }),
  // A run's threaded price drops in a channel (issue 40): one line in the channel for all of them (./threads.ts).
  // `after`: the drops' dedupe keys (at most DROPS_FOLLOWED): posted only if one of them was sent, not all found on
  // the platform already (a restore re-deciding what had been posted, its line included).
  z.object({ v: z.literal(1), kind: z.literal('drops'), count: z.number(), after: z.array(z.string()).optional() }),
  // Back on the market after being gone (issue 40), at its price now against the last one seen.
  z.object({
    v: z.literal(1),
    kind: z.literal('back'),
    search: searchRef,
    listing: z.looseObject({ property_id: z.string() }),
    from: z.number().nullable(),
    to: z.number().nullable(),
    awayMs: z.number().nullable(),
    history: z.string().optional(),
  }),
  // Gone from the market (let, sold or withdrawn): named from its story, the listing being in no answer any more.
  z.object({
    v: z.literal(1),
    kind: z.literal('gone'),
    search: searchRef,
    propertyId: z.string(),
    title: z.string().nullable(),
    price: z.number().nullable(),
    firstSeenAt: z.number(),
    lastSeenAt: z.number(),
  }),
  z.object({ v: z.literal(1), kind: z.literal('summary'), search: searchRef, more: z.number() }),
  // A daily or weekly alert's one message per period (./summary.ts): its counts and every item it counts.
  z.object({
    v: z.literal(1),
    kind: z.literal('period'),
    search: searchRef,
    every: z.enum(['day', 'week']),
    fresh: z.number(),
    drops: z.number(),
    atLeast: z.boolean(),
    items: z.array(summaryItem),
  }),
  // A channel's cards held in its quiet hours, folded into one message when they end (./summary.ts).
  z.object({
    v: z.literal(1),
    kind: z.literal('quiet'),
    fresh: z.number(),
    drops: z.number(),
    /** New listings counted only (a run's cards past its limit). */
    unlisted: z.number(),
    items: z.array(summaryItem),
    /** Listings found gone meanwhile, for the alerts that follow "gone" (none on payloads from before). */
    gone: z.array(z.object({ search: searchRef, title: z.string(), price: z.number().nullable() })).optional(),
  }),
  z.object({ v: z.literal(1), kind: z.literal('failing'), search: searchRef, error: z.string(), since: z.number() }),
  z.object({ v: z.literal(1), kind: z.literal('recovered'), search: searchRef }),
  z.object({ v: z.literal(1), kind: z.literal('impossible'), search: searchRef, what: z.string() }),
]);

export type DeliveryPayload = z.output<typeof payloadSchema>;

/** Cards a summary shows; the rest are counted, and paged by `/alerts more`. */
export const SUMMARY_CARDS = 3;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "12 new listings and 2 price drops" ("at least 125 new listings" when the fetch was cut). */
export function counts(fresh: number, drops: number, atLeast = false): string {
  return [
    fresh > 0 ? `${atLeast ? 'at least ' : ''}${plural(fresh, 'new listing')}` : '',
    drops > 0 ? plural(drops, 'price drop') : '',
  ]
    .filter(Boolean)
    .join(' and ');
}
export type SearchRef = z.output<typeof searchRef>;

export const encodePayload = (p: DeliveryPayload): string => JSON.stringify(p);

export function decodePayload(json: string): DeliveryPayload | undefined {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Buttons under alert messages; they need the bot's button state, so the composition root provides them. */
export interface AlertButtons {
  /** Details of one listing. */
  details?(searchId: number, propertyId: string): Promise<Button | undefined>;
  /** The saved search's newest results. */
  showSearch?(searchId: number): Promise<Button | undefined>;
}

/**
 * What an alert message is rendered with besides its payload: its buttons, and the alerts of its channel it matched.
 */
export interface AlertRendering extends AlertButtons {
  /** The alerts of the search's channel that posted this listing (or the same flat), by number (channel.ts). */
  matches?(searchId: number, listing: Listing): Promise<SearchRef[]>;
}

const label = (s: SearchRef) => `Alert #${s.number} · ${s.summary}`;

/** "Alert #2 · …", or "Matches your alerts: #1 …; #3 …" when several alerts of the channel matched the one post. */
const labelOf = (refs: readonly SearchRef[]) =>
  refs.length === 1
    ? label(refs[0]!)
    : `Matches your alerts: ${refs.map((r) => `#${r.number} ${r.summary}`).join('; ')}`;
const numbersOf = (refs: readonly SearchRef[]) =>
  refs.length === 1 ? `alert #${refs[0]!.number}` : `alerts ${refs.map((r) => `#${r.number}`).join(', ')}`;

/** The outbox kinds alerts write; main registers them with `alertKind` (src/outbox/registry.ts's DeliveryKind). */
export const ALERT_KINDS = [
  'new',
  'price_drop',
  'summary',
  'failing',
  'recovered',
  'impossible',
  'period',
  'quiet',
  'back',
  'gone',
  'drops',
] as const;

export const alertKind = (buttons: AlertRendering = {}) => ({
  decode: decodePayload,
  render: (p: DeliveryPayload) => renderDelivery(p, buttons),
  // A listing's first card in a channel: its price drops reply in its thread.
  threadRoots: ['new'],
  follows: (p: DeliveryPayload) => (p.kind === 'drops' ? p.after : undefined),
});

export async function renderDelivery(payload: DeliveryPayload, buttons: AlertRendering = {}): Promise<Reply> {
  const head = (text: string): Block => ({ kind: 'context', text });
  if (payload.kind === 'period' || payload.kind === 'quiet') return renderSummary(payload, buttons);
  if (payload.kind === 'drops') {
    // No count: a run commits in batches, and the line is queued once a run by the first batch with several drops
    // here, so its count would cover that batch only.
    const text = '📉 Price drops in this check: each is a reply to its listing’s first card.';
    return { text, blocks: [{ kind: 'text', text }] };
  }
  const searchId = payload.search.id;
  const card = async (listing: Listing): Promise<Block> => {
    const details = await buttons.details?.(searchId, listing.property_id);
    return { kind: 'card', card: listingCard(listing, details ? { buttons: [details] } : {}) };
  };
  // The listing's history line under its card (issue 40), when the run found one worth saying.
  const story = (p: { history?: string | undefined }): Block[] =>
    p.history ? [{ kind: 'context', text: `🕰️ ${capitalised(p.history)}` }] : [];
  const listingTitle = (l: Listing) => l.title ?? `Property ${l.property_id}`;
  // The alert that queued it, and every other alert of its channel that matched it since.
  const matched = async (listing: Listing): Promise<SearchRef[]> => {
    const found = (await buttons.matches?.(searchId, listing)) ?? [];
    return found.some((r) => r.id === searchId)
      ? found
      : [payload.search, ...found].sort((a, b) => a.number - b.number);
  };
  switch (payload.kind) {
    case 'new': {
      const listing = payload.listing as Listing;
      const refs = await matched(listing);
      const blocks: Block[] = [head(`🔔 New listing · ${labelOf(refs)}`)];
      if (payload.others?.length) {
        // The copies named and linked, as in search results (their Details when they have no link to follow).
        const others = payload.others as Listing[];
        const copyDetails = new Map<string, Button>();
        for (const c of others) {
          const b = await buttons.details?.(searchId, c.property_id);
          if (b) copyDetails.set(c.property_id, b);
        }
        const details = await buttons.details?.(searchId, listing.property_id);
        const copyButtons = (c: unknown) => {
          const b = copyDetails.get((c as Listing).property_id);
          return b ? [b] : [];
        };
        blocks.push({
          kind: 'card',
          card: listingGroupCard(listing, others, { ...(details ? { buttons: [details] } : {}), copyButtons }),
        });
      } else {
        blocks.push(await card(listing));
        if (payload.copies > 0)
          // Only a count is kept of these copies, not who listed them: no agent is named or implied.
          blocks.push(head(`Also listed ${payload.copies} more time${payload.copies === 1 ? '' : 's'}.`));
      }
      blocks.push(...story(payload));
      return { text: `New listing for ${numbersOf(refs)}: ${listingTitle(listing)}`, blocks };
    }
    case 'price_drop': {
      const listing = payload.listing as Listing;
      const refs = await matched(listing);
      const drop = `Price dropped from ${formatAed(payload.from)} to ${formatAed(payload.to)}`;
      return {
        text: `${drop} for ${numbersOf(refs)}: ${listingTitle(listing)}`,
        blocks: [head(`📉 ${drop} · ${labelOf(refs)}`), await card(listing), ...story(payload)],
        ...(payload.thread === undefined ? {} : { thread: payload.thread }),
      };
    }
    case 'back': {
      const listing = payload.listing as Listing;
      const refs = await matched(listing);
      const what = backText(payload);
      return {
        text: `${what} for ${numbersOf(refs)}: ${listingTitle(listing)}`,
        blocks: [head(`↩️ ${what} · ${labelOf(refs)}`), await card(listing), ...story(payload)],
      };
    }
    case 'gone': {
      const title = payload.title ?? `Property ${payload.propertyId}`;
      const price = payload.price === null ? '' : ` at ${formatAed(payload.price)}`;
      const on = spanText(Math.max(payload.lastSeenAt - payload.firstSeenAt, 0));
      const text = `🏁 Gone from the market (let, sold or withdrawn): ${title}${price}, on the market for ${on} as I saw it · ${label(payload.search)}`;
      return { text, blocks: [{ kind: 'text', text }] };
    }
    case 'summary': {
      const text = `…and ${payload.more} more new listing${payload.more === 1 ? '' : 's'} for alert #${payload.search.number} (${payload.search.summary}).`;
      const show = await buttons.showSearch?.(payload.search.id);
      return {
        text,
        blocks: [{ kind: 'text', text }, ...(show ? [{ kind: 'actions' as const, buttons: [show] }] : [])],
      };
    }
    case 'failing': {
      const text = `⚠️ Alert #${payload.search.number} (${payload.search.summary}) has not been able to check for new listings since ${new Date(payload.since).toISOString().slice(0, 16).replace('T', ' ')} UTC: ${payload.error}. I'll keep trying and tell you when it works again.`;
      return { text, blocks: [{ kind: 'text', text }] };
    }
    case 'recovered': {
      const text = `✅ Alert #${payload.search.number} (${payload.search.summary}) is working again; new listings will appear here as before.`;
      return { text, blocks: [{ kind: 'text', text }] };
    }
    case 'impossible': {
      const n = payload.search.number;
      const text = `⏸️ Alert #${n} (${payload.search.summary}) is paused: it asks for ${payload.what}, which no listing has, so it could never find anything. Save the search again with other numbers, then \`/alerts remove ${n}\`.`;
      return { text, blocks: [{ kind: 'text', text }] };
    }
  }
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Back on the market after 3 weeks, at AED 95,000 (was AED 100,000)". */
function backText(p: { from: number | null; to: number | null; awayMs: number | null }): string {
  const after = p.awayMs === null ? '' : ` after ${spanText(p.awayMs)}`;
  const now = p.to === null ? '' : `, at ${formatAed(p.to)}`;
  const was =
    p.from === null || p.to === null || p.from === p.to
      ? p.to === null
        ? ''
        : ' (the same price as before)'
      : ` (was ${formatAed(p.from)}, ${p.to < p.from ? '−' : '+'}${Math.abs(Math.round(((p.to - p.from) / p.from) * 100))} %)`;
  return `Back on the market${after}${now}${was}`;
}

/**
 * A summary: its counts, the best few as cards, and how many more with the command that pages through them. "Since
 * the last summary": a summary alert is run at its slots only, so what is new to it is new since the last one.
 */
/** Gone listings a quiet-hours summary names; the rest it counts. */
const GONE_NAMED = 5;

async function renderSummary(
  p: Extract<DeliveryPayload, { kind: 'period' | 'quiet' }>,
  buttons: AlertRendering,
): Promise<Reply> {
  const what = counts(p.fresh, p.drops, p.kind === 'period' && p.atLeast);
  const head =
    p.kind === 'period'
      ? `📬 ${p.every === 'day' ? 'Daily' : 'Weekly'} summary for alert #${p.search.number} (${p.search.summary}): ${what} since the last summary.`
      : `🌙 While this channel's quiet hours were on: ${[what, p.gone?.length ? `${plural(p.gone.length, 'listing')} gone from the market` : ''].filter(Boolean).join('; ')}.`;
  const blocks: Block[] = [{ kind: 'text', text: head }];
  for (const item of p.items.slice(0, SUMMARY_CARDS)) {
    const listing = item.listing as Listing;
    const details = await buttons.details?.(item.search.id, listing.property_id);
    const heading =
      item.kind === 'price_drop'
        ? `📉 Price dropped from ${formatAed(item.from)} to ${formatAed(item.to)} · ${label(item.search)}`
        : `🔔 New listing · ${label(item.search)}`;
    blocks.push(
      { kind: 'context', text: heading },
      { kind: 'card', card: listingCard(listing, details ? { buttons: [details] } : {}) },
    );
  }
  const rest = p.items.length - Math.min(SUMMARY_CARDS, p.items.length);
  const unlisted = p.kind === 'quiet' ? p.unlisted : 0;
  const more = p.kind === 'period' ? `/alerts more ${p.search.number}` : '/alerts more quiet';
  if (rest > 0) blocks.push({ kind: 'context', text: `…and ${rest} more: \`${more}\` lists them.` });
  if (p.kind === 'quiet' && p.gone?.length) {
    const named = p.gone
      .slice(0, GONE_NAMED)
      .map((g) => `${g.title}${g.price === null ? '' : ` (${formatAed(g.price)})`}`);
    const others = p.gone.length - named.length;
    blocks.push({
      kind: 'context',
      text: `🏁 Gone from the market (let, sold or withdrawn): ${named.join('; ')}${others > 0 ? `; and ${others} more` : ''} · ${[...new Set(p.gone.map((g) => label(g.search)))].join(', ')}`,
    });
  }
  if (unlisted > 0)
    blocks.push({
      kind: 'context',
      text: `${plural(unlisted, 'more new listing')} counted: \`/alerts test <n>\` or the alert's search shows them.`,
    });
  return { text: head, blocks };
}
