// Query -> one line saying back what was understood:
// "2-bedroom apartments for rent in Dubai Marina, up to AED 120,000 a year, newest first".
import { wordsSummary } from './words.js';
import type { AMENITIES } from '../api/operations.js';
import { OPERATIONS, type OperationSpec } from '../api/operations.js';
import { amountText, grouped, PLUS_UP_TO } from './numbers.js';
import type { Query } from './types.js';
import { EMIRATE_PHRASES } from './vocabulary.js';

const TYPE_NAMES: Record<string, string> = {
  apartment: 'apartments',
  villa: 'villas',
  townhouse: 'townhouses',
  penthouse: 'penthouses',
  compound: 'compounds',
  duplex: 'duplexes',
  'full-floor': 'full floors',
  'half-floor': 'half floors',
  'whole-building': 'whole buildings',
  'bulk-rent-unit': 'bulk rent units',
  bungalow: 'bungalows',
  'hotel-apartment': 'hotel apartments',
  'office-space': 'offices',
  retail: 'retail spaces',
  warehouse: 'warehouses',
  shop: 'shops',
  'show-room': 'showrooms',
  land: 'plots of land',
  factory: 'factories',
  'labor-camp': 'labour camps',
  'staff-accommodation': 'staff accommodation',
  'business-centre': 'business centres',
  'co-working-space': 'co-working spaces',
  farm: 'farms',
};

const AMENITY_NAMES: Record<(typeof AMENITIES)[number], string> = {
  central_ac: 'central A/C',
  balcony: 'a balcony',
  maids_room: "a maid's room",
  shared_pool: 'a pool',
  shared_gym: 'a gym',
  covered_parking: 'covered parking',
  pets_allowed: 'pets allowed',
  private_garden: 'a private garden',
  private_pool: 'a private pool',
  security: 'security',
  built_in_wardrobes: 'built-in wardrobes',
  view_of_water: 'a water view',
  view_of_landmark: 'a landmark view',
  concierge: 'a concierge',
  childrens_play_area: "a children's play area",
  bbq_area: 'a BBQ area',
};

const SORT_NAMES: Record<string, string> = {
  newest: 'newest first',
  oldest: 'oldest first',
  featured: 'featured first',
  price_asc: 'cheapest first',
  price_desc: 'most expensive first',
  low_price: 'lowest price first',
  high_price: 'highest price first',
  delivery_earliest: 'earliest handover first',
  delivery_latest: 'latest handover first',
  most_sales: 'most sales',
  most_rentals: 'most rentals',
  most_properties: 'most listings',
  most_agents: 'most agents',
};

const FREQUENCY_NAMES: Record<string, string> = {
  yearly: 'a year',
  monthly: 'a month',
  weekly: 'a week',
  daily: 'a day',
};
const PERIOD_NAMES: Record<string, string> = {
  '1y': 'last 12 months',
  '6m': 'last 6 months',
  '3m': 'last 3 months',
  '1m': 'last month',
};
const CATEGORY_NAMES: Record<string, string> = {
  residential_sale: 'residential sale',
  residential_rent: 'residential rent',
  commercial_sale: 'commercial sale',
  commercial_rent: 'commercial rent',
};
const FURNISHING_NAMES: Record<string, string> = {
  furnished: 'furnished',
  unfurnished: 'unfurnished',
  partly: 'partly furnished',
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const list = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** "2", "1,2", "0,1,2", "3,4,5,6,7" -> "2-bedroom", "1- and 2-bedroom", "studio to 2-bedroom", "3+ bedroom". */
function bedroomWords(text: string): string {
  const n = text.split(',').map(Number);
  const contiguous = n.every((v, k) => k === 0 || v === n[k - 1]! + 1);
  const one = (v: number) => (v === 0 ? 'studio' : `${v}-bedroom`);
  if (n.length === 1) return one(n[0]!);
  if (contiguous && n.at(-1) === PLUS_UP_TO && n.length > 2) return `${n[0]}+ bedroom`;
  if (contiguous && n.length > 2)
    return n[0] === 0 ? `studio to ${n.at(-1)}-bedroom` : `${n[0]}- to ${n.at(-1)}-bedroom`;
  return list(n.map((v, k) => (v === 0 ? 'studio' : k < n.length - 1 ? `${v}-` : `${v}-bedroom`)));
}

/** "2", "1,2", "1,2,3" -> "2 bathrooms", "1 or 2 bathrooms", "1 to 3 bathrooms". */
function roomCount(text: string, noun: string): string {
  const n = text.split(',').map(Number);
  const unit = (v: number) => (v === 1 ? noun : `${noun}s`);
  if (n.length === 1) return n[0] === 0 && noun === 'bedroom' ? 'studios' : `${n[0]} ${unit(n[0]!)}`;
  const contiguous = n.every((v, k) => k === 0 || v === n[k - 1]! + 1);
  if (contiguous && n.length > 2) return `${n[0]} to ${n.at(-1)} ${noun}s`;
  return `${n.slice(0, -1).join(', ')} or ${n.at(-1)} ${noun}s`;
}

/** "AED 80,000 to 120,000 a year", "up to 2,000 sqft", "at least 1,000 sqft". */
function bounds(
  min: string | undefined,
  max: string | undefined,
  before: string,
  after: string,
  atLeast = 'from',
): string | undefined {
  if (min && max) return `${before}${grouped(min)} to ${grouped(max)}${after}`;
  if (max) return `up to ${before}${grouped(max)}${after}`;
  if (min) return `${atLeast} ${before}${grouped(min)}${after}`;
  return undefined;
}

/**
 * "up to AED 150 per sqft a year, filtered by Manzil on each page": the service has no such filter, so the summary
 * says who applies it (a page can show fewer cards than the service sent).
 */
function perSqftWords(perSqft: Query['perSqft'], per: string): string | undefined {
  if (!perSqft) return undefined;
  const text = (n: number | undefined) => (n === undefined ? undefined : amountText(n));
  const range = bounds(text(perSqft.min), text(perSqft.max), 'AED ', ` per sqft${per}`);
  return range ? `${range} (Manzil filters each page the service returns)` : undefined;
}

/**
 * One line for a Query. locationName is the resolved name, else the typed words. How the command was read where it
 * differs from what was typed follows in brackets: (read "furnshed" as furnished).
 */
/** `agentName`: who an agent's listings are of, when known ("Listings of Olga Mueller (agent 207502)"). */
export function summarize(query: Query, locationName?: string, agentName?: string): string {
  const said = wordsSummary(query.words);
  const line = [describe(query, locationName, agentName), ...said].join(', ');
  return query.corrections?.length ? `${line} (${query.corrections.join('; ')})` : line;
}

function describe(query: Query, locationName?: string, agentName?: string): string {
  const p = query.params;
  const spec: OperationSpec = OPERATIONS[query.operation];
  const area = locationName ?? query.location ?? undefined;
  const inArea = area ? ` in ${area}` : '';
  const page = p.page !== undefined ? `page ${Number(p.page) + 1 - (spec.firstPage ?? 1)}` : undefined;
  const sort = p.sort ? (SORT_NAMES[p.sort] ?? p.sort) : undefined;
  const type = p.property_type ? (TYPE_NAMES[p.property_type] ?? p.property_type) : undefined;
  const join = (head: string, parts: readonly (string | undefined)[]) =>
    [head, ...parts.filter((x): x is string => !!x)].join(', ');

  switch (query.operation) {
    case 'search-rent':
    case 'search-buy':
    case 'search-commercial-rent':
    case 'search-commercial-buy': {
      const commercial = query.operation.includes('commercial');
      const rent = query.operation.endsWith('rent');
      const studios = p.bedrooms === '0' && !type;
      const noun = studios ? 'studios' : (type ?? (commercial ? 'commercial properties' : 'homes'));
      const beds = p.bedrooms && !studios ? `${bedroomWords(p.bedrooms)} ` : '';
      // A rent is per some period: the one asked for, else the service's default.
      const frequency = rent
        ? (p.rent_frequency ??
          (spec.params as Record<string, { default?: string }>).rent_frequency?.default ??
          'yearly')
        : undefined;
      const per = frequency ? ` ${FREQUENCY_NAMES[frequency]}` : '';
      const amenities = p.amenities
        ? `with ${list(p.amenities.split(',').map((a) => AMENITY_NAMES[a as keyof typeof AMENITY_NAMES] ?? a))}`
        : undefined;
      return join(capitalise(`${beds}${noun} for ${rent ? 'rent' : 'sale'}${inArea}`), [
        p.bathrooms ? roomCount(p.bathrooms, 'bathroom') : undefined,
        bounds(p.price_min, p.price_max, 'AED ', per),
        !p.price_min && !p.price_max && p.rent_frequency ? `paid ${p.rent_frequency}` : undefined,
        bounds(p.area_min, p.area_max, '', ' sqft', 'at least'),
        perSqftWords(query.perSqft, per),
        p.furnishing ? FURNISHING_NAMES[p.furnishing] : undefined,
        p.completion_status ? (p.completion_status === 'ready' ? 'ready to move in' : 'off-plan') : undefined,
        amenities,
        sort,
        page,
      ]);
    }
    case 'search-new-projects': {
      const what =
        p.bedrooms || type ? `${p.bedrooms ? `${bedroomWords(p.bedrooms)} ` : ''}${type ?? 'homes'}` : undefined;
      return join(`New projects${inArea}`, [
        what,
        bounds(p.price_min, p.price_max, 'AED ', ''),
        bounds(p.area_min, p.area_max, '', ' sqft', 'at least'),
        sort,
        page,
      ]);
    }
    case 'get-get-transactions':
      return join(`${p.transaction_type === 'rented' ? 'Rental' : 'Sold'} transactions${inArea}`, [
        type,
        p.bedrooms ? roomCount(p.bedrooms, 'bedroom') : undefined,
        PERIOD_NAMES[p.period ?? '1y'],
        sort,
        page,
      ]);
    case 'get-adrec-transactions': {
      const districts = p.district ? ` in ${list(p.district.split(','))}` : ', all districts';
      const types = p.propertyType
        ? list(p.propertyType.split(',').map((t) => TYPE_NAMES[t] ?? t.replace(/-/g, ' ')))
        : undefined;
      const dates =
        p.fromDate && p.toDate
          ? `${p.fromDate} to ${p.toDate}`
          : p.fromDate
            ? `from ${p.fromDate}`
            : p.toDate
              ? `until ${p.toDate}`
              : undefined;
      return join(`Abu Dhabi (ADREC) transactions${districts}`, [types, dates, page]);
    }
    case 'price-trend-of-location': {
      const trendType =
        type ?? TYPE_NAMES[(spec.params as Record<string, { default?: string }>).property_type?.default ?? 'apartment'];
      return `Price trend for ${trendType}${inArea}`;
    }
    case 'search-agents':
    case 'search-agents-detailed':
    case 'search-brokers':
    case 'search-brokers-detailed': {
      const who = query.operation.startsWith('search-agents') ? 'Agents' : 'Brokerages';
      const detailed = query.operation.endsWith('-detailed') ? ' (detailed)' : '';
      return join(`${who}${area ? inArea : ' across the UAE'}${detailed}`, [
        p.category ? CATEGORY_NAMES[p.category] : undefined,
        sort,
        page,
      ]);
    }
    case 'agent-properties':
    case 'broker-properties': {
      const agent = agentName ? `${agentName} (agent ${p.agent_id})` : `agent ${p.agent_id}`;
      const whose = query.operation === 'agent-properties' ? agent : `brokerage ${p.broker_id}`;
      return join(`Listings of ${whose}`, [p.category ? CATEGORY_NAMES[p.category] : undefined, sort, page]);
    }
    case 'property-details':
      return `Property ${p.property_id}`;
    case 'real-estate-developer': {
      const emirate = p.location ?? (spec.params as Record<string, { default?: string }>).location?.default ?? 'dubai';
      return join(`${emirateName(emirate)} developers`, [page]);
    }
    case 'autocomplete-location':
      return `Places matching "${p.query}"`;
  }
}

function emirateName(value: string): string {
  const phrase = EMIRATE_PHRASES.find(([, e]) => e.kind === 'emirate' && e.value === value)?.[0] ?? value;
  return phrase.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
