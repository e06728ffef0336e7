// The market's past: sale and rental transactions per community, ADREC records for Abu Dhabi districts,
// and monthly price trends (computed on demand, so they always end at the clock's current month).
import type { ADREC_PROPERTY_TYPES } from '../api/operations.js';
import type { Geography, Area } from './geography.js';
import type { AdrecEntry, Transaction } from './model.js';
import { Rng, hash, mulberry32, unit } from './random.js';

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

const TX_TYPES: Record<string, readonly (readonly [string, number])[]> = {
  towers: [
    ['apartment', 88],
    ['penthouse', 4],
    ['duplex', 4],
    ['hotel-apartment', 4],
  ],
  villas: [
    ['villa', 60],
    ['townhouse', 40],
  ],
  mixed: [
    ['apartment', 55],
    ['villa', 25],
    ['townhouse', 20],
  ],
};
const HOUSE = new Set(['villa', 'townhouse']);

/**
 * Transactions a day per unit of a community's listing weight (its share of the market's listings): Dubai Marina
 * (weight 10) closes about 24 sales and 30 lettings in 30 days, about one for every twenty of its new listings at
 * the market clock's pace; a small emirate's community (weight 1) about 2 and 3, too few for a median of its own.
 */
export const TX_PER_WEIGHT_DAY = { sold: 0.08, rented: 0.1 } as const;
/** The days of transactions made before the clock's start (so the `1y` period is full from the first request). */
export const TX_HISTORY_DAYS = 365;

/** The UTC day number of a time (days since the epoch). */
export const dayOf = (t: number) => Math.floor(t / DAY);

const communityCache = new WeakMap<Geography, [Area, readonly Area[]][]>();
/** Every community with its buildings (kept per geography: asked for every day of the market). */
function communitiesOf(geo: Geography): [Area, readonly Area[]][] {
  let list = communityCache.get(geo);
  if (!list) {
    list = geo.areas.filter((p) => p.level === 'community').map((c) => [c, geo.buildingsOf(c.id)]);
    communityCache.set(geo, list);
  }
  return list;
}

/** A value in [0, 1) from whole numbers, without building a string (asked for every added area and day). */
function unitOf(seed: number, id: number, day: number, kind: 'sold' | 'rented'): number {
  return mulberry32(
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
      Math.imul(id, 0xc2b2ae35) ^
      Math.imul(day, 0x27d4eb2f) ^
      (kind === 'sold' ? 1 : 2)) >>>
      0,
  )();
}

/** A Poisson draw (Knuth's method: fine for the small means used here). */
function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  return k;
}

/**
 * The sale and rental transactions of one UTC day, each at a time inside it: drawn from a stream of their own per
 * day, community and kind, so a day's transactions are the same however the clock got there (one advance of 60 days
 * or 2,880 ticks of 30 minutes). Prices follow the area's price trend for the month, type and bedroom count (so a
 * digest's medians, the trend and the yields agree), with a sale's spread of 7 % and a rent's of 10 %.
 */
export function transactionsOfDay(seed: number, geo: Geography, day: number, anchor: number): Transaction[] {
  const out: Transaction[] = [];
  const dayStart = day * DAY;
  for (const [community, buildings] of communitiesOf(geo)) {
    for (const kind of ['sold', 'rented'] as const) {
      const mean = community.weight * TX_PER_WEIGHT_DAY[kind];
      // An added area with a small weight has no transaction on most days: one cheap draw says so (the first
      // market's stream is kept as it was).
      if (community.added && unitOf(seed, community.id, day, kind) >= 1 - Math.exp(-mean)) continue;
      const rng = new Rng(hash(seed, 'tx', kind, community.id, day));
      const count = community.added ? 1 + poisson(rng, mean) : poisson(rng, mean);
      for (let i = 0; i < count; i++) {
        const type = rng.weighted(TX_TYPES[community.style]!);
        const house = HOUSE.has(type);
        const area: Area = !house && buildings.length > 0 && rng.chance(0.6) ? rng.pick(buildings) : community;
        const bedrooms = house
          ? rng.int(2, 5)
          : type === 'penthouse'
            ? rng.int(3, 4)
            : rng.weighted([
                [0, 15],
                [1, 35],
                [2, 30],
                [3, 15],
                [4, 5],
              ]);
        const size = Math.round(
          house
            ? 1500 + bedrooms * 700 * rng.between(0.8, 1.3)
            : [450, 780, 1250, 1800, 2700][bedrooms]! * rng.between(0.85, 1.15),
        );
        const at = dayStart + rng.int(0, DAY / 1000 - 1) * 1000;
        const sale = size * trendPrice(seed, area, type, bedrooms, monthOf(at), anchor);
        const price =
          kind === 'sold'
            ? Math.round((sale * rng.between(0.93, 1.07)) / 1000) * 1000
            : Math.round((sale * area.rentYield * rng.between(0.9, 1.1)) / 500) * 500;
        out.push({ id: rng.hex(24), kind, areaId: area.id, bedrooms, type, price, size, date: isoDay(at), at });
      }
    }
  }
  return out;
}

/** [district, communities inside it, AED per sqm]. */
const ADREC_DISTRICTS: [string, string[], number][] = [
  ['Al Reem Island', ['Shams Abu Dhabi', 'Marina Square', 'City Of Lights'], 13500],
  ['Saadiyat Island', ['Saadiyat Beach', 'Saadiyat Cultural District'], 22500],
  ['Yas Island', ['Yas Acres', 'Ansam', 'West Yas'], 16000],
  ['Al Raha Beach', ['Al Bandar', 'Al Muneera', 'Al Zeina'], 15000],
  ['Khalifa City', ['Khalifa City A', 'Al Forsan Village'], 10500],
  ['Al Reef', ['Desert Village', 'Mediterranean Village'], 9500],
  ['Al Shamkha', ['Alreeman', 'Alreeman II'], 7500],
  ['Masdar City', ['Oasis Residences', 'The Gate'], 11500],
  ['Al Raha Gardens', ['Al Raha Gardens'], 11000],
  ['Mohammed Bin Zayed City', ['Mazyad Mall Area', 'Zone 20'], 8000],
  ['Al Maryah Island', ['Maryah Plaza', 'Reem Hills'], 17500],
  ['Al Khalidiyah', ['Khalidiyah Village'], 12000],
  ['Al Bateen', ['Bateen Liwa', 'Al Bateen Park'], 14000],
  ['Al Ghadeer', ['Al Ghadeer Phase 1', 'Al Ghadeer Phase 2'], 7000],
  ['Al Samha', ['Al Samha West'], 6500],
  ['Jubail Island', ['Jubail Terraces'], 19000],
  ['Hydra Village', ['Hydra Village'], 6000],
  ['Al Jurf', ['Al Jurf Gardens'], 18000],
];

const ADREC_WEIGHTS: Partial<Record<(typeof ADREC_PROPERTY_TYPES)[number], number>> = {
  apartment: 45,
  villa: 18,
  townhouse: 12,
  duplex: 3,
  penthouse: 2,
  'plot-residential': 4,
  'plot-villa': 4,
  'residential-complex': 1,
  office: 4,
  retail: 3,
  warehouse: 2,
  workshop: 1,
  'plot-other': 1,
};
const SQM: Record<string, [number, number]> = {
  apartment: [40, 180],
  duplex: [140, 260],
  penthouse: [200, 450],
  villa: [280, 700],
  townhouse: [180, 320],
  'plot-residential': [400, 1500],
  'plot-villa': [500, 1200],
  'residential-complex': [2000, 8000],
  office: [60, 900],
  retail: [40, 600],
  warehouse: [500, 5000],
  workshop: [200, 1500],
  'plot-other': [1000, 10000],
};

const dmy = (t: number) => {
  const d = new Date(t);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

export function makeAdrec(rng: Rng, now: number): AdrecEntry[] {
  const types = Object.entries(ADREC_WEIGHTS) as [string, number][];
  const out: AdrecEntry[] = [];
  const today = Math.floor(now / DAY) * DAY;
  for (const [district, communities, aedPerSqm] of ADREC_DISTRICTS) {
    for (let i = 0; i < 60; i++) {
      const propertyType = rng.weighted(types);
      const [lo, hi] = SQM[propertyType]!;
      const areaSqm = Math.round(rng.between(lo, hi));
      const plot = propertyType.startsWith('plot');
      const time = today - rng.int(0, 364) * DAY;
      out.push({
        time,
        record: {
          district,
          community: rng.pick(communities),
          propertyType,
          transactionType: rng.weighted([
            ['Sale', 80],
            ['Mortgage', 15],
            ['Gift', 5],
          ]),
          transactionDate: dmy(time),
          price: Math.round((areaSqm * aedPerSqm * (plot ? 0.4 : 1) * rng.between(0.88, 1.12)) / 1000) * 1000,
          areaSqm,
          rooms: ['apartment', 'villa', 'townhouse', 'duplex', 'penthouse'].includes(propertyType)
            ? rng.int(propertyType === 'apartment' ? 0 : 2, 5)
            : null,
          sequence: rng.weighted([
            ['Primary', 35],
            ['Secondary', 65],
          ]),
        },
      });
    }
  }
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TREND_TYPE_FACTOR: Record<string, number> = {
  villa: 0.95,
  townhouse: 0.88,
  penthouse: 1.35,
  duplex: 1.1,
  'hotel-apartment': 1.1,
};
const TREND_BED_FACTOR = [1.08, 1.03, 1, 0.97, 0.95];

/** The first instant (UTC) of a time's month. */
const monthOf = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const monthsBetween = (from: number, to: number) => {
  const a = new Date(from);
  const b = new Date(to);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
};

/**
 * An area's AED per sqft in one month, for a type and bedroom count (4 and more share the 4's): its community's
 * growth (0.4 to 1 % a month) counted from the month of `anchor` (the clock's start, where the price is the area's
 * own), and a monthly wobble of 1.5 % either way. Fixed for a given month, so a month already passed keeps its price
 * as the clock moves on.
 */
export function trendPrice(
  seed: number,
  area: Area,
  type: string,
  bedrooms: number,
  month: number,
  anchor: number,
): number {
  const growth = 0.004 + unit(seed, 'growth', area.level === 'building' ? area.parentId! : area.id) * 0.006;
  const bed = Math.max(0, Math.min(4, bedrooms));
  return Math.round(
    area.ppsf *
      (TREND_TYPE_FACTOR[type] ?? 1) *
      TREND_BED_FACTOR[bed]! *
      (1 + growth) ** monthsBetween(monthOf(anchor), month) *
      (0.985 + 0.03 * unit(seed, area.id, type, bed, month)),
  );
}

export interface TrendPoint {
  bedroom_id: number;
  community_price: number;
  tower_price: number;
  date: string;
  period: string;
  time_frame: string;
}

/** 12 monthly points per bedroom count (0..4), ending at the clock's month; AED per sqft (see trendPrice). */
export function priceTrend(
  seed: number,
  geo: Geography,
  area: Area,
  type: string,
  now: number,
  anchor: number,
): TrendPoint[] {
  const community = geo.communityOf(area.id) ?? area;
  const end = new Date(now);
  const points: TrendPoint[] = [];
  for (let bed = 0; bed <= 4; bed++) {
    for (let back = 11; back >= 0; back--) {
      const month = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - back, 1);
      const m = new Date(month);
      points.push({
        bedroom_id: bed,
        community_price: trendPrice(seed, community, type, bed, month, anchor),
        tower_price: trendPrice(seed, area, type, bed, month, anchor),
        date: m.toISOString(),
        period: `${MONTHS[m.getUTCMonth()]} ${m.getUTCFullYear()}`,
        time_frame: '1Y',
      });
    }
  }
  return points;
}
