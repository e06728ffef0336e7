// Historical transactions: a summary (count, median, min, max, median per bedroom count) and a compact table.
import type { Transaction } from '../api/records.js';
import { formatAed, formatBeds, formatDate } from './format.js';
import type { Block } from './model.js';
import { textOf } from './parts.js';
import { median } from './stats.js';

const NONE = '–';

const priceOf = (t: Transaction): number | undefined => (typeof t.price === 'number' && Number.isFinite(t.price) && t.price > 0 ? t.price : undefined);

function summary(records: readonly Transaction[]): string {
  const prices = records.map(priceOf).filter((p): p is number => p !== undefined);
  const count = `${records.length} ${records.length === 1 ? 'transaction' : 'transactions'}`;
  if (!prices.length) return `${count}, none with a price.`;
  const mid = median(prices)!;
  return `${count} · median ${formatAed(mid)} · min ${formatAed(Math.min(...prices))} · max ${formatAed(Math.max(...prices))}`;
}

/** `Median by bedrooms: Studio AED 55,000 · 1 bed AED 90,000`; undefined when no priced record has a bedroom count. */
function perBedroom(records: readonly Transaction[]): string | undefined {
  const groups = new Map<number, number[]>();
  for (const t of records) {
    const price = priceOf(t);
    if (price === undefined || typeof t.bedrooms !== 'number' || t.bedrooms < 0) continue;
    groups.set(t.bedrooms, [...(groups.get(t.bedrooms) ?? []), price]);
  }
  if (!groups.size) return undefined;
  const parts = [...groups.entries()].sort(([a], [b]) => a - b).map(([beds, prices]) => `${formatBeds(beds)} ${formatAed(median(prices)!)} (${prices.length})`);
  return `Median by bedrooms: ${parts.join(' · ')}`;
}

export function transactionsView(records: readonly Transaction[]): Block[] {
  if (!records.length) return [{ kind: 'text', text: 'No transactions were found for this search.' }];
  const rows = records.map((t) => {
    const price = priceOf(t);
    return [formatDate(t.transaction_date) ?? NONE, textOf(t.property_type) ?? NONE, formatBeds(t.bedrooms) ?? NONE, price === undefined ? NONE : formatAed(price)];
  });
  const byBedroom = perBedroom(records);
  return [
    { kind: 'text', text: summary(records) },
    ...(byBedroom ? [{ kind: 'context', text: byBedroom } as const] : []),
    { kind: 'table', columns: ['Date', 'Type', 'Beds', 'Price'], rows },
  ];
}
