// Small statistics for the summaries: only finite numbers count.

export function finite(values: readonly unknown[]): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** The middle value, or the mean of the two middle values; undefined for no values. */
export function median(values: readonly number[]): number | undefined {
  const sorted = finite(values).sort((a, b) => a - b);
  if (!sorted.length) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
