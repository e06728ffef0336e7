// The chart's input, cleaned: months checked and sorted, values that are not finite numbers dropped, one value per
// month and series, names made unique; and the words that describe it (the alt text, which is also the text fallback).

export type TrendPoint = { /** YYYY-MM */ month: string; value: number };
export type TrendSeries = { name: string; points: readonly TrendPoint[] };

export type Cleaned = {
  /** Series with at least one point, in the order given. */
  series: { name: string; points: TrendPoint[] }[];
  /** Names of the series given with no usable point. */
  empty: string[];
  /** Every month from the first to the last point of any series, in order (the x axis). */
  months: string[];
};

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A bound on the x axis, so a stray year in the data cannot make a chart of thousands of months. */
export const MAX_MONTHS = 120;

export function clean(series: readonly TrendSeries[]): Cleaned {
  const out: Cleaned['series'] = [];
  const empty: string[] = [];
  const names = new Set<string>();
  for (const s of series) {
    let name = s.name.trim() || 'Series';
    for (let n = 2; names.has(name); n++) name = `${s.name.trim() || 'Series'} (${n})`;
    names.add(name);
    const byMonth = new Map<string, number>();
    for (const p of s.points) if (MONTH.test(p.month) && Number.isFinite(p.value)) byMonth.set(p.month, p.value);
    const points = [...byMonth]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([month, value]) => ({ month, value }));
    if (points.length === 0) empty.push(name);
    else out.push({ name, points });
  }
  const all = out.flatMap((s) => s.points.map((p) => p.month)).sort();
  let months = all.length ? monthRange(all[0]!, all[all.length - 1]!) : [];
  if (months.length > MAX_MONTHS) {
    // Keep the latest months only.
    months = months.slice(-MAX_MONTHS);
    const first = months[0]!;
    for (const s of out) s.points = s.points.filter((p) => p.month >= first);
  }
  return { series: out.filter((s) => s.points.length > 0), empty, months };
}

function monthRange(first: string, last: string): string[] {
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
  const out: string[] = [];
  for (let i = index(first), end = index(last); i <= end; i++) {
    out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/** "Dec 2025" */
export function monthLabel(month: string): string {
  return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

/** 2,230 for the values a chart of AED shows; a decimal or two for small values (a yield, an index). */
export function formatValue(v: number): string {
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** "+6.2 %", "-0.4 %", "0.0 %" */
export function formatChange(from: number, to: number): string | null {
  if (from === 0) return null;
  const pct = ((to - from) / Math.abs(from)) * 100;
  const rounded = Math.round(pct * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${(rounded === 0 ? 0 : rounded).toFixed(1)} %`;
}

/**
 * "AED per sqft in Dubai Marina, Dec 2025 to Nov 2026: Studio from 1,650 to 1,702 (+3.2 %); 2 bed from 2,100 to
 * 2,230 (+6.2 %); 4 bed: no data." Short enough to be alt text, complete enough to stand in for the picture.
 */
export function describe(title: string, data: Cleaned): string {
  const t = title.trim().replace(/[.:]$/, '');
  if (data.series.length === 0) return `${t}: no data to chart.`;
  const first = data.months[0]!;
  const last = data.months[data.months.length - 1]!;
  const period = first === last ? monthLabel(first) : `${monthLabel(first)} to ${monthLabel(last)}`;
  const parts = data.series.map(({ name, points }) => {
    const a = points[0]!;
    const b = points[points.length - 1]!;
    if (points.length === 1) return `${name} ${formatValue(a.value)} (${monthLabel(a.month)} only)`;
    const change = formatChange(a.value, b.value);
    const span = a.month === first && b.month === last ? '' : ` (${monthLabel(a.month)} to ${monthLabel(b.month)})`;
    return `${name} from ${formatValue(a.value)} to ${formatValue(b.value)}${change ? ` (${change})` : ''}${span}`;
  });
  for (const name of data.empty) parts.push(`${name}: no data`);
  return `${t}, ${period}: ${parts.join('; ')}.`;
}
