// The market cache's keys (the LRU's and the store's alike) and the dedup of records read over several pages.

/** The cache key: the operation and its parameters in name order. */
export function keyOf(op: string, params: Record<string, string>): string {
  return `${op}?${Object.keys(params)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(params[k]!)}`)
    .join('&')}`;
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
