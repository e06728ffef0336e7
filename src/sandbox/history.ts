// The market's past: sale and rental transactions per community, ADREC records for Abu Dhabi districts,
// and monthly price trends (computed on demand, so they always end at the clock's current month).
import type { ADREC_PROPERTY_TYPES } from '../api/operations.js';
import type { Geography, Place } from './geography.js';
import type { AdrecEntry, Transaction } from './model.js';
import { type Rng, unit } from './random.js';

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

const TX_TYPES: Record<string, readonly (readonly [string, number])[]> = {
  towers: [['apartment', 88], ['penthouse', 4], ['duplex', 4], ['hotel-apartment', 4]],
  villas: [['villa', 60], ['townhouse', 40]],
  mixed: [['apartment', 55], ['villa', 25], ['townhouse', 20]],
};
const HOUSE = new Set(['villa', 'townhouse']);

export function makeTransactions(rng: Rng, geo: Geography, now: number): Transaction[] {
  const out: Transaction[] = [];
  for (const community of geo.places.filter((p) => p.level === 'community')) {
    const buildings = geo.buildingsOf(community.id);
    for (const kind of ['sold', 'rented'] as const) {
      const count = 24 + community.weight * 6;
      for (let i = 0; i < count; i++) {
        const type = rng.weighted(TX_TYPES[community.style]!);
        const house = HOUSE.has(type);
        const place: Place = !house && buildings.length > 0 && rng.chance(0.6) ? rng.pick(buildings) : community;
        const bedrooms = house ? rng.int(2, 5) : type === 'penthouse' ? rng.int(3, 4) : rng.weighted([[0, 15], [1, 35], [2, 30], [3, 15], [4, 5]]);
        const size = Math.round(house ? 1500 + bedrooms * 700 * rng.between(0.8, 1.3) : [450, 780, 1250, 1800, 2700][bedrooms]! * rng.between(0.85, 1.15));
        const sale = size * place.ppsf * rng.between(0.9, 1.08);
        const price = kind === 'sold' ? Math.round(sale / 1000) * 1000 : Math.round((sale * place.rentYield) / 500) * 500;
        out.push({ id: rng.hex(24), kind, placeId: place.id, bedrooms, type, price, size, date: isoDay(now - rng.int(0, 364) * DAY) });
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
export const ADREC_DISTRICT_NAMES = ADREC_DISTRICTS.map(([d]) => d);

const ADREC_WEIGHTS: Partial<Record<(typeof ADREC_PROPERTY_TYPES)[number], number>> = {
  apartment: 45, villa: 18, townhouse: 12, duplex: 3, penthouse: 2, 'plot-residential': 4, 'plot-villa': 4,
  'residential-complex': 1, office: 4, retail: 3, warehouse: 2, workshop: 1, 'plot-other': 1,
};
const SQM: Record<string, [number, number]> = {
  apartment: [40, 180], duplex: [140, 260], penthouse: [200, 450], villa: [280, 700], townhouse: [180, 320],
  'plot-residential': [400, 1500], 'plot-villa': [500, 1200], 'residential-complex': [2000, 8000], office: [60, 900],
  retail: [40, 600], warehouse: [500, 5000], workshop: [200, 1500], 'plot-other': [1000, 10000],
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
          transactionType: rng.weighted([['Sale', 80], ['Mortgage', 15], ['Gift', 5]]),
          transactionDate: dmy(time),
          price: Math.round((areaSqm * aedPerSqm * (plot ? 0.4 : 1) * rng.between(0.88, 1.12)) / 1000) * 1000,
          areaSqm,
          rooms: ['apartment', 'villa', 'townhouse', 'duplex', 'penthouse'].includes(propertyType) ? rng.int(propertyType === 'apartment' ? 0 : 2, 5) : null,
          sequence: rng.weighted([['Primary', 35], ['Secondary', 65]]),
        },
      });
    }
  }
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TREND_TYPE_FACTOR: Record<string, number> = { villa: 0.95, townhouse: 0.88, penthouse: 1.35, duplex: 1.1, 'hotel-apartment': 1.1 };
const TREND_BED_FACTOR = [1.08, 1.03, 1, 0.97, 0.95];

export interface TrendPoint {
  bedroom_id: number;
  community_price: number;
  tower_price: number;
  date: string;
  period: string;
  time_frame: string;
}

/** 12 monthly points per bedroom count (0..4), ending at the clock's month; AED per sqft. */
export function priceTrend(seed: number, geo: Geography, place: Place, type: string, now: number): TrendPoint[] {
  const community = geo.communityOf(place.id) ?? place;
  const end = new Date(now);
  const points: TrendPoint[] = [];
  const growth = 0.004 + unit(seed, 'growth', community.id) * 0.006; // 0.4 to 1 % a month
  for (let bed = 0; bed <= 4; bed++) {
    for (let back = 11; back >= 0; back--) {
      const month = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - back, 1);
      const m = new Date(month);
      const at = (p: Place) =>
        Math.round(p.ppsf * (TREND_TYPE_FACTOR[type] ?? 1) * TREND_BED_FACTOR[bed]! * (1 + growth) ** -back * (0.985 + 0.03 * unit(seed, p.id, type, bed, month)));
      points.push({
        bedroom_id: bed,
        community_price: at(community),
        tower_price: at(place),
        date: m.toISOString(),
        period: `${MONTHS[m.getUTCMonth()]} ${m.getUTCFullYear()}`,
        time_frame: '1Y',
      });
    }
  }
  return points;
}
