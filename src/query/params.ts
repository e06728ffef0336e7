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
 * The parser's reading alone as JSON: {"operation","params","location"}, with "corrections" when the command was read
 * other than as typed (a typo, a range the wrong way round), or {"error"}. `manzil parse` prints the bot's reading
 * instead (src/bot/pipeline/reading.ts), which routes first.
 * @internal Exported for the parser's tests (knip --production ignores it).
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
