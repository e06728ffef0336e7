// Query -> what is sent, and small changes to a Query. No defaults are added: unset stays unset.
import { OPERATIONS, type OperationSpec } from '../api/operations.js';
import { parseCommand } from './parse.js';
import type { Query } from './types.js';

/** The exact parameters to send: query.params plus location_id when given and the operation takes one. */
export function toParams(query: Query, locationId?: number | string): Record<string, string> {
  const spec: OperationSpec = OPERATIONS[query.operation];
  const params = { ...query.params };
  if (locationId !== undefined && Object.hasOwn(spec.params, 'location_id')) params.location_id = String(locationId);
  return params;
}

/**
 * The same search at another page, counted from 1 as people count (ADREC's 0-based paging is converted).
 * Operations without pages are returned unchanged.
 */
export function withPage(query: Query, page: number): Query {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a whole number from 1 (got ${page})`);
  const spec: OperationSpec = OPERATIONS[query.operation];
  const first = spec.firstPage;
  if (first === undefined) return query;
  return { ...query, params: { ...query.params, page: String(page - 1 + first) } };
}

/**
 * The `manzil parse` JSON line: {"operation","params","location"}, with "corrections" when the command was read other
 * than as typed (a typo, a range the wrong way round), or {"error"}.
 */
export function parseToJson(
  text: string,
):
  | { operation: string; params: Record<string, string>; location: string | null; corrections?: string[] }
  | { error: string } {
  const parsed = parseCommand(text);
  if (!parsed.ok) return { error: parsed.error };
  const { operation, params, location, corrections } = parsed.query;
  return { operation, params, location, ...(corrections ? { corrections } : {}) };
}
