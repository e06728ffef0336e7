// The market cache's keys (the LRU's and the store's alike), when an answer is fresh, and the dedup of records read
// over several pages.
import { OPERATIONS, type OperationName, type ParamSpec } from '../api/operations.js';

/** The cache key: the operation and its parameters in name order. */
export function keyOf(op: string, params: Record<string, string>): string {
  return `${op}?${Object.keys(params)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(params[k]!)}`)
    .join('&')}`;
}

/** Whether two requests of an operation ask the same: their parameters equal once the service's defaults are filled. */
export function sameRequest(
  op: OperationName,
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
) {
  const spec: Readonly<Record<string, ParamSpec>> = OPERATIONS[op].params;
  const filled = (params: Readonly<Record<string, string>>) => {
    const out: Record<string, string> = { ...params };
    for (const [name, param] of Object.entries(spec))
      if (out[name] === undefined && param.default !== undefined) out[name] = param.default;
    return out;
  };
  return keyOf(op, filled(a)) === keyOf(op, filled(b));
}

export function uniqueBy<T>(items: readonly T[], id: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = id(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * An answer fetched later than now on the market's clock (a market started afresh behind it) describes another
 * market: not used. Within this much, it is the clocks of two instances that differ.
 */
const FUTURE_SKEW_MS = 5 * 60_000;

/** Whether an answer fetched at `fetchedAt` is at most maxAgeMs old at `now`, on the market's clock. */
export const freshAt = (now: number, fetchedAt: number, maxAgeMs: number) =>
  now - fetchedAt <= maxAgeMs && fetchedAt - now <= FUTURE_SKEW_MS;
