// Price trend of a location: per bedroom count, the latest AED/sqft, its change over the period, and a sparkline.
import type { PriceTrendPoint } from '../api/records.js';
import { formatBeds, formatMonth, formatNumber, parseDate } from './format.js';
import type { Block } from './model.js';
import { textOf } from './parts.js';
import { sparkline } from './sparkline.js';

const NONE = '–';

/**
 * The fewest bedrooms a type's homes have: the service sends studio and 1-bed rows for villas and townhouses too, the
 * same for every type it is asked, and a reader would take them for villas' own prices. They are left out, said so.
 */
const FEWEST_BEDROOMS: Readonly<Record<string, number>> = { villa: 2, townhouse: 2 };

/** The community average when present, else the tower's. */
function valueOf(p: PriceTrendPoint): number | undefined {
  return [p.community_price, p.tower_price].find(
    (n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0,
  );
}

function timeOf(p: PriceTrendPoint): number | undefined {
  return (parseDate(p.date) ?? parseDate(p.period))?.getTime();
}

/** Dated points in date order; when none is dated, the order received. */
function chronological(points: readonly PriceTrendPoint[]): PriceTrendPoint[] {
  const dated = points
    .map((p) => ({ p, t: timeOf(p) }))
    .filter((x): x is { p: PriceTrendPoint; t: number } => x.t !== undefined);
  return dated.length ? dated.sort((a, b) => a.t - b.t).map((x) => x.p) : [...points];
}

/** `+5.2%`, `−3.1%`, `0.0%`; undefined when there is no earlier value to compare with. */
export function percentChange(first: number | undefined, last: number | undefined): string | undefined {
  if (first === undefined || last === undefined || first <= 0) return undefined;
  const change = ((last - first) / first) * 100;
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)}%`;
}

function periodLabel(p: PriceTrendPoint | undefined): string | undefined {
  return p && (formatMonth(p.date) ?? textOf(p.period));
}

/** `propertyType`: the type asked (a slug); rows of bedroom counts that type has no homes of are left out, said so. */
export function trendView(points: readonly PriceTrendPoint[], locationName: string, propertyType?: string): Block[] {
  const area = textOf(locationName) ?? 'this location';
  const fewest = (propertyType && FEWEST_BEDROOMS[propertyType]) || 0;
  const groups = new Map<number, PriceTrendPoint[]>();
  const hidden = new Set<number>();
  for (const p of points) {
    if (typeof p.bedroom_id !== 'number' || p.bedroom_id < 0) continue;
    if (p.bedroom_id < fewest) hidden.add(p.bedroom_id);
    else groups.set(p.bedroom_id, [...(groups.get(p.bedroom_id) ?? []), p]);
  }
  if (!groups.size) return [{ kind: 'text', text: `No price trend data was found for ${area}.` }];

  const ordered = chronological(points);
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([beds, group]) => {
      const series = chronological(group).map(valueOf);
      const known = series.filter((v): v is number => v !== undefined);
      const latest = known.at(-1);
      const change = known.length > 1 ? percentChange(known[0], latest) : undefined;
      return [
        formatBeds(beds) ?? String(beds),
        latest === undefined ? NONE : formatNumber(latest),
        change ?? NONE,
        sparkline(series) || NONE,
      ];
    });
  const from = periodLabel(ordered[0]);
  const to = periodLabel(ordered.at(-1));
  const range = from && to && from !== to ? `, ${from} to ${to}` : '';
  const left = [...hidden].sort((a, b) => a - b).map((b) => (b === 0 ? 'studio' : `${b}-bed`));
  const type = propertyType?.replace(/-/g, ' ');
  const note = left.length
    ? ` The ${left.join(' and ')} rows the service returns for ${type}s are left out: ${type}s have ${fewest} bedrooms or more.`
    : '';
  return [
    { kind: 'table', columns: ['Beds', 'AED/sqft', 'Change', 'Trend'], rows },
    {
      kind: 'context',
      text: `${area}: AED per sqft, latest value; change from the first to the last point${range}.${note}`,
    },
  ];
}
