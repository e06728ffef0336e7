// What a period of transactions holds, recomputed straight from the sandbox's data module (its dataset and its days
// of transactions), not through the service or any code under test: the truth a chat reply's figures are checked by.
import { buildDataset, type Dataset } from '../../src/sandbox/dataset.js';
import { dayOf, transactionsOfDay } from '../../src/sandbox/history.js';
import { DEFAULT_START, type Sandbox } from '../../src/sandbox/index.js';
import type { Transaction } from '../../src/sandbox/model.js';

export interface PeriodAsk {
  /** The area's name in the sandbox's geography ("Dubai Marina", "Marina Gate"). */
  area: string;
  kind: 'sold' | 'rented';
  months: 1 | 3 | 6 | 12;
  propertyType?: string;
  bedrooms?: number;
}

export interface PeriodTruth {
  areaId: number;
  /** Newest first, as the service answers `sort=newest`. */
  records: Transaction[];
  count: number;
  median: number | undefined;
  min: number | undefined;
  max: number | undefined;
}

const datasets = new Map<string, Dataset>();

/** The sandbox's dataset for a seed and start, with the transactions of every day up to `now`. */
function datasetAt(seed: number, start: Date, now: number): Dataset {
  const key = `${seed}:${start.getTime()}`;
  let ds = datasets.get(key);
  if (!ds) datasets.set(key, (ds = buildDataset(seed, start)));
  for (let day = ds.transactionsThrough + 1; day <= dayOf(now); day++)
    ds.transactions.push(...transactionsOfDay(ds.seed, ds.geo, day, ds.start));
  ds.transactionsThrough = Math.max(ds.transactionsThrough, dayOf(now));
  return ds;
}

export function medianOf(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The period's transactions as the spec defines them: of the area and everything inside it, of the kind and filters,
 * dated from the same day `months` months back to today, on the sandbox's clock now.
 */
export function periodTruth(sandbox: Sandbox, ask: PeriodAsk, o: { seed?: number; start?: Date } = {}): PeriodTruth {
  const now = sandbox.now().getTime();
  const ds = datasetAt(o.seed ?? 1, o.start ?? DEFAULT_START, now);
  const area = ds.geo.areas.find((p) => p.name === ask.area);
  if (!area) throw new Error(`no place "${ask.area}" in the sandbox`);
  const inside = ds.geo.within(area.id);
  const d = new Date(now);
  const from = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - ask.months, d.getUTCDate()))
    .toISOString()
    .slice(0, 10);
  const today = d.toISOString().slice(0, 10);
  const records = ds.transactions
    .filter(
      (t) =>
        t.kind === ask.kind &&
        inside.has(t.areaId) &&
        (ask.propertyType === undefined || t.type === ask.propertyType) &&
        (ask.bedrooms === undefined || t.bedrooms === ask.bedrooms) &&
        t.date >= from &&
        t.date <= today &&
        t.at <= now,
    )
    .sort((a, b) => b.at - a.at || a.id.localeCompare(b.id));
  const prices = records.map((t) => t.price);
  return {
    areaId: area.id,
    records,
    count: records.length,
    median: medianOf(prices),
    min: prices.length ? Math.min(...prices) : undefined,
    max: prices.length ? Math.max(...prices) : undefined,
  };
}

/** "AED 2,410,000", as replies write an amount. */
export const aed = (n: number) => `AED ${Math.round(n).toLocaleString('en-US')}`;
