// Stage 3, fetch: one service page of a search (through the shared answer cache, SearchRunner), with what its page
// shows beside the records, read before the layout: market context for listing cards and the whole period behind a
// transactions reply's figures. No state is written here.
import { operationSpec, type OperationName } from '../../api/operations.js';
import type { TransactionsScope } from '../../views/index.js';
import { agentNameOf } from '../agent-name.js';
import { lastPage } from '../button-payloads.js';
import { periodScope } from '../period.js';
import { CARD_OPERATIONS, LISTING_OPERATIONS } from '../render-results.js';
import {
  cursorOf,
  movedUp,
  needsMore,
  SMALLEST_FULL_PAGE,
  takeCards,
  type Cursor,
  type ReadPage,
  type Taken,
} from '../snapshot.js';
import type { AskOptions, SearchOutcome } from '../search.js';
import type { PageView } from './resolve.js';
import type { Stages } from './stages.js';

/** How long a search's answer waits for market context on its cards (a first look-up in an area may take a call). */
const MARKET_CONTEXT_WAIT_MS = 1_500;

/** The pages a chat page of cards read, from where, and the cards it took. */
export interface Window {
  cursor: Cursor;
  pages: ReadPage[];
  taken: Taken;
}

export interface Fetched {
  outcome: SearchOutcome;
  /** For a result shown card by card: what its chat page read and took (present.ts lays it out). */
  window?: Window;
  /** The longest page this operation has answered so far, this one included. */
  longestPage: number;
  /** Market context per listing shown; none when nothing is known. */
  marketContext?: (propertyId: string) => string | undefined;
  /** What a transactions reply's figures cover: the period, read whole. */
  period?: TransactionsScope;
  /** The agent whose listings these are, by name, when their details say it in time. */
  agentName?: string;
  /**
   * Whether the service has anything on another page of the search (fetched now, and cached for Next's press):
   * undefined when it could not tell.
   */
  hasRecords(page: number): Promise<boolean | undefined>;
}

/** `ask.maxAgeMs`: a search typed anew (the bound of a fresh answer); buttons reuse answers for the cache's TTL. */
export async function fetchPage(stages: Stages, view: PageView, ask: AskOptions): Promise<Fetched> {
  const { options, searches } = stages;
  const read = CARD_OPERATIONS.has(view.query.operation) ? await readWindow(stages, view, ask) : undefined;
  const outcome = read?.outcome ?? (await searches.search(view.query, view.location, view.position.page, ask));
  // The period's figures are as fresh as the page beside them: read at most one answer-cache lifetime ago.
  const periodRead = { maxAgeMs: options.resultTtlMs ?? 5 * 60_000, log: options.logger };
  const shown = read ? read.window.taken.cards.flatMap((g) => [g.listing]) : outcome.result.records;
  const [context, period, agentName] = await Promise.all([
    marketContext(options.market, view, outcome.operation, shown),
    periodScope(options.periods, outcome, periodRead),
    agentNameOf(searches, outcome),
  ]);
  return {
    outcome,
    longestPage: searches.longestPage(outcome.operation),
    ...(read ? { window: read.window } : {}),
    ...(context.size > 0 ? { marketContext: (id: string) => context.get(id) } : {}),
    ...(period ? { period } : {}),
    ...(agentName ? { agentName } : {}),
    hasRecords: (page) => searches.hasRecords(view.query, view.location, page),
  };
}

/**
 * The service pages a chat page of cards needs, read as a stream from its cursor (bot/snapshot.ts): the page it starts
 * on, then the following ones while it is not full (one more to know whether there is a Next). When it reads on past
 * its first page, that page is read again unless its answer is fresh (searchFreshMs): rows move up when listings go,
 * and a row that moved onto it would otherwise be missed.
 */
async function readWindow(
  { options, searches }: Stages,
  view: PageView,
  ask: AskOptions,
): Promise<{ outcome: SearchOutcome; window: Window }> {
  const { query, location, surface } = view;
  const cursor = cursorOf(view.position, query.operation, surface.cardsPerPage);
  const want = surface.cardsPerPage;
  const longest = () => Math.max(SMALLEST_FULL_PAGE, searches.longestPage(query.operation));
  const pages: ReadPage[] = [];
  const outcomes: SearchOutcome[] = [];
  const readAt = async (page: number, with_: AskOptions) => {
    const outcome = await searches.search(query, location, page, with_);
    return {
      outcome,
      read: { page, records: outcome.result.records, full: outcome.result.records.length >= longest() },
    };
  };
  const first = await readAt(cursor.page, ask);
  pages.push(first.read);
  outcomes.push(first.outcome);
  const paged = operationSpec(query.operation).firstPage !== undefined;
  // The last record shown moved up to the page before (listings above it went): that page holds what came after it.
  if (paged && cursor.page > (operationSpec(query.operation).firstPage ?? 1) && movedUp(cursor, pages[0]!)) {
    const before = await readAt(cursor.page - 1, { maxAgeMs: options.searchFreshMs ?? 60_000 });
    pages.unshift(before.read);
    outcomes.unshift(before.outcome);
  }
  let taken = takeCards(query.operation, pages, cursor, want);
  while (paged && needsMore(taken, pages) && pages.at(-1)!.page < lastPage(query)) {
    const next = await readAt(pages.at(-1)!.page + 1, ask);
    if (pages.length === 1 && pages[0]!.page === cursor.page) {
      const again = await readAt(cursor.page, { maxAgeMs: options.searchFreshMs ?? 60_000 });
      pages[0] = again.read;
      outcomes[0] = again.outcome;
    }
    pages.push(next.read);
    outcomes.push(next.outcome);
    taken = takeCards(query.operation, pages, cursor, want);
  }
  const last = outcomes.at(-1)!;
  const dropped = outcomes.reduce((n, o) => n + (o.result.dropped ?? 0), 0);
  const outcome = { ...last, result: { ...last.result, ...(dropped ? { dropped } : {}) } };
  return { outcome, window: { cursor, pages, taken } };
}

/**
 * Market context for the listings of a page, from the shared market cache (at most a call or two per area a day).
 * It never holds the answer up: what is not known within MARKET_CONTEXT_WAIT_MS is left out.
 */
async function marketContext(
  market: Stages['options']['market'],
  view: PageView,
  operation: OperationName,
  records: readonly unknown[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!market || !view.location || !LISTING_OPERATIONS.has(operation)) return out;
  const area = view.location;
  const look = async (r: { property_id?: string }) => {
    const text = r.property_id ? await market.listingContext(area, r).catch(() => undefined) : undefined;
    if (text && r.property_id) out.set(r.property_id, text);
  };
  // The first look fetches what the area needs (once a day at most); the others then read it from the cache.
  const [first, ...rest] = records as { property_id?: string }[];
  const all = first ? look(first).then(() => Promise.allSettled(rest.map(look))) : Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, MARKET_CONTEXT_WAIT_MS)))]);
  clearTimeout(timer);
  return new Map(out);
}
