// Whether the call budget is low, read from the API client without depending on its type: suggestions as
// someone types are a nicety, so they are the first thing to stop spending calls.

/** What the API client reports of its budget (`ApiClient.budgetLeft()`); counts are undefined when unlimited. */
interface BudgetReport {
  blockedForMs?: unknown;
  day?: unknown;
  month?: unknown;
}

/** Calls kept back for searches: below this many left today or this month, suggestions use only the cache. */
export const SUGGESTION_RESERVE = 10;

/**
 * A `budgetLow` check from any object with a `budgetLeft()` method; undefined when it has none.
 * Low: the budget is blocked (quota or Retry-After), or fewer than `reserve` calls are left today or this month.
 */
export function budgetLowFrom(source: object, reserve = SUGGESTION_RESERVE): (() => boolean) | undefined {
  const budgetLeft: unknown = (source as { budgetLeft?: unknown }).budgetLeft;
  if (typeof budgetLeft !== 'function') return undefined;
  return () => {
    const report: unknown = budgetLeft.call(source);
    if (typeof report !== 'object' || report === null) return false;
    const { blockedForMs, day, month } = report as BudgetReport;
    const under = (n: unknown) => typeof n === 'number' && n < reserve;
    return (typeof blockedForMs === 'number' && blockedForMs > 0) || under(day) || under(month);
  };
}
