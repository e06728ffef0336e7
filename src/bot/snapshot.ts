// A result is a snapshot (issue 38): the chat pages of one search never repeat or skip a listing while the market
// moves. The service has no cursor, no "listed before" filter and no total, only numbered pages whose rows shift as
// listings arrive and go. So a result remembers the keys of the records it has passed over (shown, or filtered out) and
// reads the service's pages as a stream: a record already passed is never shown again; of the rest, those that now
// stand before the last record shown came in since the search (or moved there) and are counted, not interleaved;
// those after it are the next cards, numbered on from the last card shown. Pure: fetch.ts reads the pages it asks for.
import { createHash } from 'node:crypto';
import { operationSpec, type OperationName } from '../api/operations.js';
import type { FlatGroup } from '../views/index.js';
import { cardGroups } from './render-results.js';

/** Where a chat page of a result starts, and what the result has passed over before it. */
export interface Cursor {
  /** The service page the read starts at. */
  page: number;
  /** Cards to pass over before showing (a typed `page 3`; a button from before snapshots). */
  skip: number;
  /** Cards shown before this chat page: its first card is numbered shown + 1 (plus those skipped). */
  shown: number;
  /** The keys of the records passed over before this chat page, in the order they were. */
  seen: string[];
  /** Where each earlier chat page started (for Previous), `seen` as the length of the prefix it had. */
  back: { page: number; skip: number; shown: number; seen: number }[];
  /** The keys of the records found new since the search: said, never shown. */
  arrived: string[];
}

/** Records a result remembers at most: past them, Next is not offered (a narrower search is the way on). */
export const MAX_SEEN = 1_000;

/** Service pages one chat page reads at most (a typed page deep in a result, or a strict per-sqft filter). */
export const MAX_READS = 6;

/** The service's page size is not published (15 to 50 observed); a page shorter than this is surely the last. */
export const SMALLEST_FULL_PAGE = 10;

/** A listing page as the service is observed to send it: what a button from before snapshots counted by. */
const OBSERVED_PAGE = 25;

/** The cards a typed page may pass over (`page 10` of ten cards): deeper, Next is the way on. */
export const MAX_TYPED_SKIP = 90;

/** A chat page as a button row or a typed `page N` stores it (button-payloads.ts's Position). */
export interface StoredPosition {
  page: number;
  offset: number;
  chat?: number | undefined;
  skip?: number | undefined;
  shown?: number | undefined;
  seen?: string[] | undefined;
  back?: Cursor['back'] | undefined;
  arrived?: string[] | undefined;
}

/**
 * The cursor of a stored position: a snapshot's own; a typed `page N`, read from the first page; or a button from
 * before snapshots (a service page and the index of a card on it), read as a skip on that page.
 */
export function cursorOf(at: StoredPosition, op: OperationName, perPage: number): Cursor {
  if (at.seen)
    return {
      page: at.page,
      skip: at.skip ?? 0,
      shown: at.shown ?? 0,
      seen: at.seen,
      back: at.back ?? [],
      arrived: at.arrived ?? [],
    };
  const first = operationSpec(op).firstPage ?? 1;
  if (at.chat !== undefined)
    return { page: first, skip: (at.chat - 1) * perPage, shown: 0, seen: [], back: [], arrived: [] };
  const lastStart = Math.floor((OBSERVED_PAGE - 1) / perPage) * perPage;
  const skip = at.offset === -1 ? lastStart : at.offset;
  return { page: at.page, skip, shown: (at.page - first) * OBSERVED_PAGE, seen: [], back: [], arrived: [] };
}

/** The deepest page that may be typed on a surface of this many cards. */
export const deepestTypedPage = (perPage: number) => Math.floor(MAX_TYPED_SKIP / perPage) + 1;

/** One service page read for a chat page. */
export interface ReadPage {
  page: number;
  records: readonly unknown[];
  /** Whether the page was full: a later page may hold more. */
  full: boolean;
}

export interface Taken {
  /** The cards of this chat page (before any price-per-sqft filter), in order. */
  cards: FlatGroup<unknown>[];
  /** The cards passed over first (the skip), before the filter. */
  skipped: FlatGroup<unknown>[];
  /** Whether the pages read hold cards after these. */
  more: boolean;
  /** The service page of the last card taken (where the next chat page starts reading). */
  lastPage: number;
  /** The keys of every record taken or skipped, in order (the cards and the flats folded into them). */
  passed: string[];
  /** Keys of records found new since the search on these pages (not in `arrived` yet). */
  arrived: string[];
}

/** A record's identity across pages: the service's id for it, else its content. */
export function recordKey(record: unknown): string {
  const r = record as { property_id?: unknown; listing_id?: unknown; id?: unknown } | null;
  const id = r?.property_id ?? r?.listing_id ?? r?.id;
  if ((typeof id === 'string' && id.length <= 40) || typeof id === 'number') return String(id);
  // No id (ADREC's records): its content, hashed short enough to keep a thousand in a button's row.
  return `#${createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 16)}`;
}

/** A card's keys, its own listing last: the record a later page's read finds its place by (movedUp, the boundary). */
const keysOf = (g: FlatGroup<unknown>) => [...g.copies, g.listing].map(recordKey);

/**
 * The cards a chat page takes from the pages read: `want` after `cursor.skip`, of the records not passed before. A record
 * read twice (the rows moved between two pages' reads) counts once, where it was first.
 */
export function takeCards(op: OperationName, pages: readonly ReadPage[], cursor: Cursor, want: number): Taken {
  const seen = new Set(cursor.seen);
  const arrivedBefore = new Set(cursor.arrived);
  const once = new Set<string>();
  const records: unknown[] = [];
  const pageOf = new Map<string, number>();
  for (const p of pages)
    for (const r of p.records) {
      const key = recordKey(r);
      if (once.has(key)) continue;
      once.add(key);
      records.push(r);
      pageOf.set(key, p.page);
    }
  // The last record shown that is still there: what stands before it and was not shown came in since the search.
  const order = new Map(cursor.seen.map((k, i) => [k, i]));
  let boundary = -1;
  let latest = -1;
  records.forEach((r, i) => {
    const at = order.get(recordKey(r));
    if (at !== undefined && at > latest) [latest, boundary] = [at, i];
  });
  const unseen: unknown[] = [];
  const arrived: string[] = [];
  records.forEach((r, i) => {
    const key = recordKey(r);
    if (seen.has(key) || arrivedBefore.has(key)) return;
    if (i < boundary) arrived.push(key);
    else unseen.push(r);
  });
  // Folded after: a later copy of a flat shown before is a card of its own, never dropped with it.
  const fresh = cardGroups(op, unseen);
  const skipped = fresh.slice(0, cursor.skip);
  const cards = fresh.slice(cursor.skip, cursor.skip + want);
  const last = cards.at(-1) ?? skipped.at(-1);
  return {
    cards,
    skipped,
    more: fresh.length > cursor.skip + want,
    lastPage: last ? pageOf.get(recordKey(last.listing))! : (pages.at(-1)?.page ?? cursor.page),
    passed: [...skipped, ...cards].flatMap(keysOf),
    arrived,
  };
}

/** Whether the last record the result showed is missing from the page its next chat page starts on. */
export function movedUp(cursor: Cursor, page: ReadPage): boolean {
  const last = cursor.seen.at(-1);
  return last !== undefined && !page.records.some((r) => recordKey(r) === last);
}

/** Whether a chat page must read the page after those read to fill itself (or to know whether there is more). */
export function needsMore(taken: Taken, pages: readonly ReadPage[]): boolean {
  return !taken.more && pages.at(-1)?.full === true && pages.length < MAX_READS;
}

/** The cursor of the chat page after this one; `counted`: the cards numbered on this one (its skip included). */
export function nextCursor(cursor: Cursor, taken: Taken, counted: number): Cursor {
  return {
    page: taken.lastPage,
    skip: 0,
    shown: cursor.shown + counted,
    seen: [...cursor.seen, ...taken.passed],
    back: [...cursor.back, { page: cursor.page, skip: cursor.skip, shown: cursor.shown, seen: cursor.seen.length }],
    arrived: [...cursor.arrived, ...taken.arrived].slice(-MAX_SEEN),
  };
}

/** The cursor of the chat page before this one, if any. */
export function previousCursor(cursor: Cursor, taken: Taken, perPage: number): Cursor | undefined {
  const arrived = [...cursor.arrived, ...taken.arrived];
  const start = cursor.back.at(-1);
  if (start) return { ...start, seen: cursor.seen.slice(0, start.seen), back: cursor.back.slice(0, -1), arrived };
  if (cursor.skip === 0) return undefined;
  const skip = Math.max(0, cursor.skip - perPage);
  return { ...cursor, skip, arrived };
}
