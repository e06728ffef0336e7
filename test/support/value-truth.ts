// What `/value` should answer, recomputed straight from the sandbox's data module (its dataset, its transactions and
// its price trend), not through the service or any code under test: the interquartile ranges, counts and yields a
// value reply is checked by (docs/value.md says how an estimate is made).
import { buildDataset } from '../../src/sandbox/dataset.js';
import { trendPrice } from '../../src/sandbox/history.js';
import { DEFAULT_START, type Sandbox } from '../../src/sandbox/index.js';
import { periodTruth } from './period-truth.js';

export interface RangeTruth {
  count: number;
  low?: number;
  mid?: number;
  high?: number;
}

/** Quartiles by linear interpolation between ranks (Excel's QUARTILE.INC), written here afresh. */
export function iqr(values: readonly number[]): { low: number; mid: number; high: number } {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    const i = (s.length - 1) * p;
    const f = Math.floor(i);
    const c = Math.ceil(i);
    return s[f]! + (s[c]! - s[f]!) * (i - f);
  };
  return { low: q(0.25), mid: q(0.5), high: q(0.75) };
}

const ranged = (values: number[]): RangeTruth =>
  values.length >= 5 ? { count: values.length, ...iqr(values) } : { count: values.length };

/**
 * Without a size: the newest `pages` pages (15 a page, as the sandbox answers) of the last 6 months' sales and lettings
 * of apartments with that bedroom count.
 */
export function transactionsTruth(sandbox: Sandbox, place: string, bedrooms: number, pages = 2) {
  const of = (kind: 'sold' | 'rented') =>
    ranged(
      periodTruth(sandbox, { area: place, kind, months: 6, propertyType: 'apartment', bedrooms })
        .records.slice(0, pages * 15)
        .map((t) => t.price),
    );
  return { sale: of('sold'), rent: of('rented') };
}

/**
 * With a size: the trend's latest AED per sqft (the place's community) times the size, spread as the middle half of
 * the newest 50 live sale listings' AED per sqft; the rent: the middle half of the newest 50 rent listings' annual AED
 * per sqft, times the size.
 */
export function listingsTruth(sandbox: Sandbox, placeName: string, bedrooms: number, size: number) {
  const ds = buildDataset(1, DEFAULT_START);
  const now = sandbox.now().getTime();
  const place = ds.geo.areas.find((p) => p.name === placeName)!;
  const inside = ds.geo.within(place.id);
  const live = (category: string) =>
    ds.listings
      .filter(
        (l) =>
          !l.withdrawn &&
          l.listedAt <= now &&
          l.category === category &&
          inside.has(l.areaId) &&
          l.type === 'apartment' &&
          l.bedrooms === bedrooms,
      )
      .sort((a, b) => b.listedAt - a.listedAt || b.id - a.id)
      .slice(0, 50)
      .filter((l) => !l.priceHidden && l.size > 0)
      .map((l) => (category.endsWith('rent') ? Math.round(l.price) : l.price) / l.size);
  const d = new Date(now);
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const community = ds.geo.communityOf(place.id) ?? place;
  const trend = trendPrice(1, community, 'apartment', bedrooms, month, DEFAULT_START.getTime());
  const sale = live('residential_sale');
  const rent = live('residential_rent');
  const s = ranged(sale);
  const r = ranged(rent);
  return {
    trend,
    sale: s.mid
      ? {
          count: s.count,
          low: (trend * size * s.low!) / s.mid,
          mid: trend * size,
          high: (trend * size * s.high!) / s.mid,
        }
      : s,
    rent: r.mid ? { count: r.count, low: r.low! * size, mid: r.mid * size, high: r.high! * size } : r,
  };
}

/** "AED 1,720,000": a range's figure as a value reply writes it, to the nearest thousand. */
export const thousands = (n: number) => `AED ${(Math.round(n / 1000) * 1000).toLocaleString('en-US')}`;
