// Stage 3, fetch: one service page of a search (through the shared answer cache, SearchRunner), with what its page
// shows beside the records, read before the layout: market context for listing cards and the whole period behind a
// transactions reply's figures. No state is written here.
import type { TransactionsScope } from '../../views/index.js';
import { agentNameOf } from '../agent-name.js';
import { periodScope } from '../period.js';
import { LISTING_OPERATIONS } from '../render-results.js';
import type { AskOptions, SearchOutcome } from '../search.js';
import type { PageView } from './resolve.js';
import type { Stages } from './stages.js';

/** How long a search's answer waits for market context on its cards (a first look-up in an area may take a call). */
const MARKET_CONTEXT_WAIT_MS = 1_500;

export interface Fetched {
  outcome: SearchOutcome;
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
export async function fetchPage({ options, searches }: Stages, view: PageView, ask: AskOptions): Promise<Fetched> {
  const outcome = await searches.search(view.query, view.location, view.position.page, ask);
  // The period's figures are as fresh as the page beside them: read at most one answer-cache lifetime ago.
  const read = { maxAgeMs: options.resultTtlMs ?? 5 * 60_000, log: options.logger };
  const [context, period, agentName] = await Promise.all([
    marketContext(options.market, view, outcome),
    periodScope(options.periods, outcome, read),
    agentNameOf(searches, outcome),
  ]);
  return {
    outcome,
    longestPage: searches.longestPage(outcome.operation),
    ...(context.size > 0 ? { marketContext: (id: string) => context.get(id) } : {}),
    ...(period ? { period } : {}),
    ...(agentName ? { agentName } : {}),
    hasRecords: (page) => searches.hasRecords(view.query, view.location, page),
  };
}

/**
 * Market context for the listings of a page, from the shared market cache (at most a call or two per area a day).
 * It never holds the answer up: what is not known within MARKET_CONTEXT_WAIT_MS is left out.
 */
async function marketContext(
  market: Stages['options']['market'],
  view: PageView,
  outcome: SearchOutcome,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!market || !view.location || !LISTING_OPERATIONS.has(outcome.operation)) return out;
  const area = view.location;
  const look = async (r: { property_id?: string }) => {
    const text = r.property_id ? await market.listingContext(area, r).catch(() => undefined) : undefined;
    if (text && r.property_id) out.set(r.property_id, text);
  };
  // The first look fetches what the area needs (once a day at most); the others then read it from the cache.
  const [first, ...rest] = outcome.result.records as { property_id?: string }[];
  const all = first ? look(first).then(() => Promise.allSettled(rest.map(look))) : Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, MARKET_CONTEXT_WAIT_MS)))]);
  clearTimeout(timer);
  return new Map(out);
}
