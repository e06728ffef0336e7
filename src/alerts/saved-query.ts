// What a saved search stores: the parsed query and its resolved area, versioned, and the canonical parameters
// that decide which saved searches are one upstream query.
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { OPERATIONS, type OperationName } from '../api/operations.js';
import { ALERTABLE, toParams, wordsSchema, type Query } from '../query/index.js';

// The rule lives with the command language, so the bot offers "Save as alert" by the rule that accepts it.
export { ALERTABLE, notAlertable } from '../query/index.js';

export interface SavedQuery {
  query: Query;
  location: { id: number; name: string };
}

const savedQueryV1 = z.object({
  v: z.literal(1),
  query: z.object({
    operation: z.enum(Object.keys(OPERATIONS) as [OperationName, ...OperationName[]]),
    params: z.record(z.string(), z.string()),
    location: z.string().nullable(),
    unknownWords: z.array(z.string()),
    // Words in and out (issue 40): checked in each run's listings for this alert only (channel.ts), never sent.
    words: wordsSchema,
  }),
  location: z.object({ id: z.number().int().nonnegative(), name: z.string() }),
});

export const encodeSavedQuery = (s: SavedQuery): string => JSON.stringify({ v: 1, ...s });

/** The stored JSON read back, or undefined when it is not a query this release understands. */
export function decodeSavedQuery(json: string): SavedQuery | undefined {
  try {
    const parsed = savedQueryV1.safeParse(JSON.parse(json));
    return parsed.success ? { query: parsed.data.query, location: parsed.data.location } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The endpoint parameters the poller sends for page 1: newest first, no page. Two saved searches with the same
 * canonical parameters are the same upstream query, whoever saved them and in whichever words.
 */
export function canonicalParams(saved: SavedQuery): Record<string, string> {
  return canonical(toParams(saved.query, saved.location.id));
}

/** Endpoint parameters without the page, newest first, in one order. */
function canonical(endpoint: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = { ...endpoint, sort: 'newest' };
  delete params.page;
  return Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
}

const keyOf = (operation: OperationName, params: Record<string, string>) =>
  `${operation}?${new URLSearchParams(params).toString()}`;

export const paramsKey = (saved: SavedQuery): string => keyOf(saved.query.operation, canonicalParams(saved));

/**
 * The params key of the alerts whose polls read the listings of a search's answer (its endpoint parameters, any page,
 * any sort: the same filters hold the same listings), or undefined when no alert can run that operation.
 */
export function pollKeyOf(operation: OperationName, params: Record<string, string>): string | undefined {
  return ALERTABLE.has(operation) ? keyOf(operation, canonical(params)) : undefined;
}

/** When an alert of that service last polled a search's listings (Bot's `lastPolled`), from the store. */
export function lastPollOf(
  repo: { lastPolled(service: string, paramsKey: string): Promise<number | undefined> },
  service: string,
): (operation: OperationName, params: Record<string, string>) => Promise<number | undefined> {
  return async (operation, params) => {
    const key = pollKeyOf(operation, params);
    return key === undefined ? undefined : repo.lastPolled(service, key);
  };
}

/** The operation and parameters back from a key. */
export function fromParamsKey(key: string): { operation: OperationName; params: Record<string, string> } {
  const q = key.indexOf('?');
  return {
    operation: key.slice(0, q) as OperationName,
    params: Object.fromEntries(new URLSearchParams(key.slice(q + 1))),
  };
}

/**
 * The saved query of a search by its id, read once and then kept (a saved query never changes once saved): the cards
 * of a busy run do not each read and decode it again.
 */
export function savedQueryLookup(
  byId: (id: number) => Promise<{ query: string; channel: string } | undefined>,
  max = 2_000,
): (id: number) => Promise<(SavedQuery & { channel: string }) | undefined> {
  const cache = new LRUCache<number, SavedQuery & { channel: string }>({ max, ttl: 5 * 60_000 });
  return async (id) => {
    const cached = cache.get(id);
    if (cached) return cached;
    const row = await byId(id);
    const decoded = row ? decodeSavedQuery(row.query) : undefined;
    // With its channel: the buttons under its cards work there only.
    const saved = decoded && { ...decoded, channel: row!.channel };
    if (saved) cache.set(id, saved);
    return saved;
  };
}
