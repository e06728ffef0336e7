// One listing at a time, priced from its place's AED per sqft: used to build the market and by the clock.
import { AMENITIES, FURNISHING } from '../api/operations.js';
import type { Geography, Area, Style } from './geography.js';
import type { Agent, Broker, Category, Listing } from './model.js';
import type { Rng } from './random.js';

type Weighted<T> = readonly (readonly [T, number])[];

const RESIDENTIAL_BY_STYLE: Record<Style, Weighted<string>> = {
  towers: [
    ['apartment', 85],
    ['penthouse', 4],
    ['duplex', 4],
    ['hotel-apartment', 7],
  ],
  villas: [
    ['villa', 58],
    ['townhouse', 35],
    ['bungalow', 4],
    ['compound', 3],
  ],
  mixed: [
    ['apartment', 50],
    ['villa', 22],
    ['townhouse', 20],
    ['penthouse', 4],
    ['duplex', 4],
  ],
};
const COMMERCIAL_BY_STYLE: Record<Style, Weighted<string>> = {
  towers: [
    ['office-space', 45],
    ['retail', 14],
    ['shop', 12],
    ['show-room', 5],
    ['full-floor', 5],
    ['half-floor', 4],
    ['co-working-space', 5],
    ['business-centre', 6],
    ['whole-building', 1],
  ],
  villas: [
    ['retail', 35],
    ['shop', 35],
    ['villa', 15],
    ['land', 10],
    ['staff-accommodation', 5],
  ],
  mixed: [
    ['office-space', 30],
    ['retail', 20],
    ['shop', 20],
    ['warehouse', 10],
    ['show-room', 8],
    ['land', 6],
    ['labor-camp', 3],
    ['staff-accommodation', 3],
  ],
};

/** Sale price per sqft against the area's, by type. */
const TYPE_FACTOR: Record<string, number> = {
  apartment: 1,
  penthouse: 1.35,
  duplex: 1.1,
  'hotel-apartment': 1.1,
  'full-floor': 0.95,
  'half-floor': 0.95,
  'bulk-rent-unit': 0.85,
  'whole-building': 0.85,
  villa: 1,
  townhouse: 0.9,
  bungalow: 0.85,
  compound: 0.8,
  'office-space': 0.75,
  retail: 1.1,
  shop: 0.9,
  'show-room': 0.9,
  'co-working-space': 1.3,
  'business-centre': 1.1,
  warehouse: 0.35,
  land: 0.45,
  'labor-camp': 0.3,
  'staff-accommodation': 0.4,
  factory: 0.3,
  farm: 0.2,
};
/** Smaller homes cost more per sqft. */
const BEDROOM_FACTOR = [1.08, 1.03, 1, 0.97, 0.95, 0.93, 0.92, 0.9];

const APARTMENT_SIZES: [number, number][] = [
  [380, 520],
  [650, 900],
  [1050, 1450],
  [1500, 2100],
  [2200, 3200],
];
const HOUSE_SIZES: Record<number, [number, number]> = {
  2: [1500, 2100],
  3: [2100, 3200],
  4: [3000, 4600],
  5: [4500, 6800],
  6: [6000, 9500],
  7: [8000, 12000],
};
const COMMERCIAL_SIZES: Record<string, [number, number]> = {
  'office-space': [500, 6000],
  retail: [300, 3000],
  shop: [200, 1500],
  warehouse: [3000, 20000],
  'show-room': [1500, 8000],
  'full-floor': [8000, 20000],
  'half-floor': [4000, 9000],
  'co-working-space': [100, 400],
  'business-centre': [150, 600],
  'whole-building': [30000, 90000],
  villa: [3000, 6000],
  land: [5000, 40000],
  'labor-camp': [10000, 40000],
  'staff-accommodation': [4000, 15000],
};

function bedroomsFor(rng: Rng, type: string): number {
  switch (type) {
    case 'apartment':
    case 'bulk-rent-unit':
      return rng.weighted([
        [0, 15],
        [1, 35],
        [2, 30],
        [3, 15],
        [4, 5],
      ]);
    case 'hotel-apartment':
      return rng.weighted([
        [0, 40],
        [1, 45],
        [2, 15],
      ]);
    case 'penthouse':
      return rng.int(3, 5);
    case 'duplex':
    case 'townhouse':
    case 'bungalow':
      return rng.int(2, 4);
    case 'villa':
      return rng.weighted([
        [3, 25],
        [4, 35],
        [5, 25],
        [6, 10],
        [7, 5],
      ]);
    case 'compound':
      return rng.int(5, 7);
    default:
      return rng.int(2, 4);
  }
}

function sizeFor(rng: Rng, type: string, bedrooms: number, commercial: boolean): number {
  let range: [number, number];
  if (commercial) range = COMMERCIAL_SIZES[type] ?? [500, 5000];
  else if (['apartment', 'hotel-apartment', 'bulk-rent-unit', 'full-floor'].includes(type))
    range = APARTMENT_SIZES[Math.min(bedrooms, 4)]!;
  else if (type === 'penthouse') range = [2800 + (bedrooms - 3) * 1200, 4500 + (bedrooms - 3) * 1500];
  else range = HOUSE_SIZES[Math.max(2, Math.min(bedrooms, 7))]!;
  return Math.round(rng.between(range[0], range[1]) / 5) * 5;
}

const WATERFRONT = new Set([50, 41, 47, 49, 60, 61, 62, 63, 80, 81, 82, 96]);

function amenitiesFor(rng: Rng, type: string, bedrooms: number, commercial: boolean, communityId: number): string[] {
  const house = ['villa', 'townhouse', 'bungalow', 'compound'].includes(type);
  const p: Record<string, number> = commercial
    ? {
        central_ac: 0.85,
        covered_parking: 0.7,
        security: 0.8,
        concierge: 0.25,
        view_of_water: WATERFRONT.has(communityId) ? 0.2 : 0,
        view_of_landmark: 0.1,
      }
    : {
        central_ac: 0.85,
        balcony: house ? 0.3 : 0.7,
        maids_room: bedrooms >= 2 ? 0.45 : 0.02,
        shared_pool: house ? 0.4 : 0.75,
        shared_gym: house ? 0.4 : 0.75,
        covered_parking: 0.8,
        pets_allowed: 0.3,
        private_garden: house ? 0.75 : 0.02,
        private_pool: house ? 0.35 : 0.02,
        security: 0.75,
        built_in_wardrobes: 0.7,
        view_of_water: WATERFRONT.has(communityId) ? 0.45 : 0.03,
        view_of_landmark: 0.18,
        concierge: house ? 0.05 : 0.35,
        childrens_play_area: 0.45,
        bbq_area: 0.35,
      };
  return AMENITIES.filter((a) => rng.chance(p[a] ?? 0));
}

const ADJECTIVES = [
  'Bright',
  'Spacious',
  'Upgraded',
  'Brand New',
  'Vacant',
  'Luxury',
  'Elegant',
  'Modern',
  'Cosy',
  'Exclusive',
  'Well Kept',
  'Renovated',
];
const HOOKS = [
  'Sea View',
  'Pool View',
  'High Floor',
  'Near Metro',
  'Corner Unit',
  'Park View',
  'Ready to Move',
  'Chiller Free',
  'Motivated Seller',
  'Prime Location',
  'Skyline View',
  'Best Layout',
];
const COMMERCIAL_HOOKS = [
  'Fitted',
  'Shell and Core',
  'Near Metro',
  'Prime Location',
  'High Footfall',
  'Grade A',
  'DEWA Included',
  'Main Road Facing',
];

export function typeLabel(slug: string): string {
  return slug
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function titleFor(rng: Rng, type: string, bedrooms: number, commercial: boolean, amenities: readonly string[]): string {
  if (commercial) return `${rng.pick(COMMERCIAL_HOOKS)} ${typeLabel(type)} | ${rng.pick(COMMERCIAL_HOOKS)}`;
  const beds = bedrooms === 0 ? 'Studio' : `${bedrooms} Bedroom`;
  const adjective = rng.pick(ADJECTIVES);
  const hook = rng.pick(HOOKS);
  // Only a listing that has the water view may boast of it (JVC is inland).
  return `${adjective} ${beds} ${typeLabel(type)} | ${hook === 'Sea View' && !amenities.includes('view_of_water') ? 'Community View' : hook}`;
}

/** Who lists where: brokers of an emirate and their agents, weighted by brokerage size. */
export interface Staffing {
  brokersByEmirate: ReadonlyMap<string, readonly Broker[]>;
  agentsByBroker: ReadonlyMap<number, readonly Agent[]>;
}

const CATEGORIES: Weighted<Category> = [
  ['residential_sale', 42],
  ['residential_rent', 40],
  ['commercial_sale', 7],
  ['commercial_rent', 11],
];

/** A listing of a given kind rather than a drawn one: the market clock's Dubai Marina listing of each batch. */
export interface ListingShape {
  category: Category;
  /** Drawn as usual when absent. */
  type?: string;
  bedrooms?: number;
  /** The size range (sqft) instead of the type's usual one. */
  size?: [number, number];
  /** The spread of rents around size x price per sqft x yield; default 0.7-1.1. */
  rentSpread?: [number, number];
}

/**
 * What the first (Dubai Marina) listing of each market batch is, in turn: apartments to rent and to buy, studio to
 * three bedrooms, so the searches a newcomer tries first (`rent marina 2br under 120k`, `rent marina`, `buy marina`)
 * each see a new listing within a few batches. The 2-bedroom rental is older, smaller stock, which rents at the low
 * end of the Marina's range (AED 106-118k a year).
 */
export const MARINA_BATCH_CYCLE: readonly ListingShape[] = [
  { category: 'residential_rent', type: 'apartment', bedrooms: 2, size: [1050, 1100], rentSpread: [0.7, 0.74] },
  { category: 'residential_rent', type: 'apartment', bedrooms: 1 },
  { category: 'residential_rent', type: 'apartment', bedrooms: 0 },
  { category: 'residential_sale', type: 'apartment', bedrooms: 1 },
  { category: 'residential_sale', type: 'apartment', bedrooms: 2 },
  { category: 'residential_sale', type: 'apartment', bedrooms: 3 },
];

export function makeListing(
  rng: Rng,
  geo: Geography,
  staff: Staffing,
  id: number,
  listedAt: number,
  community: Area,
  shape?: ListingShape,
): Listing {
  const category = shape?.category ?? rng.weighted(CATEGORIES);
  const commercial = category.startsWith('commercial');
  const type = shape?.type ?? rng.weighted((commercial ? COMMERCIAL_BY_STYLE : RESIDENTIAL_BY_STYLE)[community.style]);
  const buildings = geo.buildingsOf(community.id);
  const inTower = commercial
    ? ['office-space', 'co-working-space', 'business-centre', 'half-floor'].includes(type)
    : ['apartment', 'penthouse', 'duplex', 'hotel-apartment'].includes(type);
  const area = buildings.length > 0 && inTower && rng.chance(commercial ? 0.3 : 0.6) ? rng.pick(buildings) : community;
  const bedrooms = shape?.bedrooms ?? (commercial ? 0 : bedroomsFor(rng, type));
  const extraBaths = rng.int(0, 2);
  // A studio has one bathroom; draw anyway so the seeded sequence (and so the rest of the dataset) is unchanged.
  const bathrooms = commercial
    ? 1 + Math.min(extraBaths, 1)
    : bedrooms === 0
      ? 1
      : Math.max(1, bedrooms + extraBaths - (bedrooms >= 4 ? 1 : 0));
  const size = shape?.size ? Math.round(rng.between(...shape.size) / 5) * 5 : sizeFor(rng, type, bedrooms, commercial);
  const ppsf = area.ppsf * (TYPE_FACTOR[type] ?? 1) * (commercial ? 1 : BEDROOM_FACTOR[Math.min(bedrooms, 7)]!);
  const sale = category.endsWith('sale');
  const yieldRate = commercial ? 0.08 : area.rentYield;
  // Rents spread wider than sale prices: building age, floor and view move them most (older Marina stock rents far
  // below new towers).
  const raw = sale
    ? size * ppsf * rng.between(0.93, 1.07)
    : size * ppsf * yieldRate * rng.between(...(shape?.rentSpread ?? [0.7, 1.1]));
  const price = Math.max(1000, Math.round(raw / (sale ? 1000 : 500)) * (sale ? 1000 : 500));
  const brokers = staff.brokersByEmirate.get(community.emirate) ?? [];
  const broker = rng.weighted(brokers.map((b) => [b, staff.agentsByBroker.get(b.id)?.length ?? 1] as const));
  const agent = rng.pick(staff.agentsByBroker.get(broker.id) ?? []);
  // Drawn in this order, as the seeded dataset always has been.
  // The batch's Marina listing always shows its price: it is there to be found by a price-bounded search.
  const priceHidden = rng.chance(sale ? 0.05 : 0.02) && !shape;
  const furnishing = commercial
    ? type === 'co-working-space'
      ? 'furnished'
      : 'unfurnished'
    : rng.weighted(FURNISHING.map((f) => [f, f === 'partly' ? 1 : 3] as const));
  const completion = sale && rng.chance(commercial ? 0.05 : 0.18) ? 'off_plan' : 'ready';
  const amenities = amenitiesFor(rng, type, bedrooms, commercial, community.id);
  return {
    id,
    category,
    type,
    areaId: area.id,
    bedrooms,
    bathrooms,
    size,
    price,
    priceHidden,
    furnishing,
    completion,
    amenities,
    agentId: agent.id,
    brokerId: broker.id,
    agentHidden: rng.chance(0.03),
    imageCount: rng.chance(0.04) ? 0 : rng.int(1, 8),
    listedAt,
    boost: rng.next(),
    verified: rng.chance(0.6),
    title: titleFor(rng, type, bedrooms, commercial, amenities),
    withdrawn: false,
  };
}
