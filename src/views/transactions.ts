// Historical transactions: a summary (count, median, min, max, median per bedroom count) and a compact table.
// The table is one service page; the figures are the period's, computed over every record of it that was read, and
// they say what they cover: the period and how many records. When the period could not be read, the figures are
// those of the page and say so, never passed off as the period's.
import type { Transaction } from '../api/records.js';
import { MIN_MEDIAN, priceFigure } from '../market/definitions.js';
import { formatAed, formatBeds, formatDate, formatNumber } from './format.js';
import type { Block } from './model.js';
import { textOf } from './parts.js';

const NONE = '–';

/** Every transaction of a period that was read (newest first), for the figures of a reply that shows one page. */
export interface PeriodRecords {
  records: readonly Transaction[];
  /** The period's count: the service's total when it gives one, else the records read. */
  count: number;
  /** The page cap stopped the reading and the service gave no total: the count is a lower bound. */
  atLeast: boolean;
}

/** What a reply's figures are about: the kind of deal, the period in words, and the period's records when read. */
export interface TransactionsScope {
  kind?: 'sold' | 'rented' | undefined;
  /** "the last month", "the last 12 months". */
  period: string;
  /** Absent when the period could not be read: the figures are then the shown page's, said so. */
  whole?: PeriodRecords | undefined;
  /** The number of the table's first row within the period (16 on the second page of 15). */
  firstNumber?: number | undefined;
}

const priceOf = (t: Transaction): number | undefined =>
  typeof t.price === 'number' && Number.isFinite(t.price) && t.price > 0 ? t.price : undefined;

const NOUNS = { sold: ['sale', 'sales'], rented: ['letting', 'lettings'] } as const;
const nounOf = (kind: TransactionsScope['kind'], n: number) =>
  (kind ? NOUNS[kind] : (['transaction', 'transactions'] as const))[n === 1 ? 0 : 1];
const counted = (kind: TransactionsScope['kind'], n: number) => `${formatNumber(n)} ${nounOf(kind, n)}`;

/** A median, or "too little data" under the one minimum sample every answer uses (src/market/definitions.ts). */
const medianText = (prices: readonly number[], why = '') => {
  const m = priceFigure(prices).median;
  return m === undefined ? `too little data${why}` : formatAed(m);
};

/** `median AED 1 · min AED 1 · max AED 1`; undefined when none has a price. */
function figures(records: readonly Transaction[]): string | undefined {
  const prices = records.map(priceOf).filter((p): p is number => p !== undefined);
  if (!prices.length) return undefined;
  const m = medianText(prices, ` (a median needs ${MIN_MEDIAN} prices)`);
  return `median ${m} · min ${formatAed(Math.min(...prices))} · max ${formatAed(Math.max(...prices))}`;
}

/** The summary line and what the per-bedroom medians are of, for the period read or, failing that, the page. */
function summary(
  page: readonly Transaction[],
  scope: TransactionsScope | undefined,
): { text: string; base: readonly Transaction[]; of?: string } {
  const kind = scope?.kind;
  const whole = scope?.whole;
  if (!whole) {
    const shown = `Of the ${counted(kind, page.length)} shown`;
    const f = figures(page);
    const why = scope ? ` (${scope.period} could not be read in full just now)` : '';
    return { text: f ? `${shown}${why}: ${f}` : `${shown}${why}, none has a price.`, base: page, of: 'of those shown' };
  }
  const read = whole.records.length;
  const total = Math.max(whole.count, read);
  const head = `${whole.atLeast ? 'At least ' : ''}${counted(kind, total)} in ${scope.period}`;
  const f = figures(whole.records);
  // Every record of the period was read only when none is known to be missing and the cap did not cut the reading.
  if (!whole.atLeast && read === total)
    return { text: f ? `${head} · ${f}` : `${head}, none with a price.`, base: whole.records };
  const recent = `the ${formatNumber(read)} most recent`;
  return {
    text: f ? `${head}; figures of ${recent}: ${f}` : `${head}; none of ${recent} has a price.`,
    base: whole.records,
    of: recent,
  };
}

/**
 * `Median by bedrooms: Studio AED 55,000 (3) · 1 bed too little data (2)`; undefined when no priced record has a
 * bedroom count.
 */
function perBedroom(records: readonly Transaction[], of: string | undefined): string | undefined {
  const groups = new Map<number, number[]>();
  for (const t of records) {
    const price = priceOf(t);
    if (price === undefined || typeof t.bedrooms !== 'number' || t.bedrooms < 0) continue;
    groups.set(t.bedrooms, [...(groups.get(t.bedrooms) ?? []), price]);
  }
  if (!groups.size) return undefined;
  const parts = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([beds, prices]) => `${formatBeds(beds)} ${medianText(prices)} (${prices.length})`);
  return `Median by bedrooms${of ? ` (${of})` : ''}: ${parts.join(' · ')}`;
}

/** Where the table's rows are within the period read: `Showing 16–28 of 28`. */
function rowsShown(page: readonly Transaction[], scope: TransactionsScope | undefined): string | undefined {
  const whole = scope?.whole;
  if (!whole || scope.firstNumber === undefined) return undefined;
  const first = scope.firstNumber;
  const last = first + page.length - 1;
  // Past the page cap the rows shown are themselves proof of more: "at least" as many as the last one's number.
  const total = whole.atLeast
    ? Math.max(whole.count, whole.records.length, last)
    : Math.max(whole.count, whole.records.length);
  return `Showing ${formatNumber(first)}–${formatNumber(last)} of ${whole.atLeast ? 'at least ' : ''}${formatNumber(total)}`;
}

export function transactionsView(records: readonly Transaction[], scope?: TransactionsScope): Block[] {
  if (!records.length) return [{ kind: 'text', text: 'No transactions were found for this search.' }];
  const rows = records.map((t) => {
    const price = priceOf(t);
    return [
      formatDate(t.transaction_date) ?? NONE,
      textOf(t.property_type) ?? NONE,
      formatBeds(t.bedrooms) ?? NONE,
      price === undefined ? NONE : formatAed(price),
    ];
  });
  const { text, base, of } = summary(records, scope);
  const byBedroom = perBedroom(base, of);
  const shown = rowsShown(records, scope);
  return [
    { kind: 'text', text },
    ...(byBedroom ? [{ kind: 'context', text: byBedroom } as const] : []),
    ...(shown ? [{ kind: 'context', text: shown } as const] : []),
    { kind: 'table', columns: ['Date', 'Type', 'Beds', 'Price'], rows },
  ];
}
