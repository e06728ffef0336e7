// The UAE Property Data Service, as data: every operation, its parameters and its record schema.
// Pure (zod only), so the parser, the views and the sandbox share it with the client.
import type { z } from 'zod';
import {
  adrecRecord,
  agentDetailed,
  agentListing,
  agentSimple,
  brokerDetailed,
  brokerListing,
  brokerSimple,
  developer,
  listingSummary,
  location,
  newProject,
  priceTrendPoint,
  propertyDetails,
  transaction,
} from './records.js';

export const RESIDENTIAL_TYPES = [
  'apartment',
  'villa',
  'townhouse',
  'penthouse',
  'compound',
  'duplex',
  'full-floor',
  'half-floor',
  'whole-building',
  'bulk-rent-unit',
  'bungalow',
  'hotel-apartment',
] as const;
export const COMMERCIAL_TYPES = [
  'office-space',
  'retail',
  'warehouse',
  'shop',
  'villa',
  'show-room',
  'full-floor',
  'half-floor',
  'whole-building',
  'land',
  'bulk-rent-unit',
  'factory',
  'labor-camp',
  'staff-accommodation',
  'business-centre',
  'co-working-space',
  'farm',
] as const;
export const AMENITIES = [
  'central_ac',
  'balcony',
  'maids_room',
  'shared_pool',
  'shared_gym',
  'covered_parking',
  'pets_allowed',
  'private_garden',
  'private_pool',
  'security',
  'built_in_wardrobes',
  'view_of_water',
  'view_of_landmark',
  'concierge',
  'childrens_play_area',
  'bbq_area',
] as const;
export const LISTING_SORT = ['newest', 'featured', 'price_asc', 'price_desc'] as const;
export const CATEGORY = ['residential_sale', 'residential_rent', 'commercial_sale', 'commercial_rent'] as const;
export const FURNISHING = ['furnished', 'unfurnished', 'partly'] as const;
export const COMPLETION = ['ready', 'off_plan'] as const;
export const RENT_FREQUENCY = ['yearly', 'monthly', 'weekly', 'daily'] as const;
export const COMMERCIAL_RENT_FREQUENCY = ['yearly', 'monthly'] as const;
export const PROJECT_SORT = [
  'featured',
  'newest',
  'price_asc',
  'price_desc',
  'delivery_earliest',
  'delivery_latest',
] as const;
export const TRANSACTION_TYPE = ['sold', 'rented'] as const;
export const TRANSACTION_SORT = ['newest', 'oldest', 'high_price', 'low_price'] as const;
export const TRANSACTION_PERIOD = ['1y', '6m', '3m', '1m'] as const;
export const AGENT_SORT = ['most_sales', 'most_rentals', 'featured'] as const;
export const BROKER_SORT = ['featured', 'most_properties', 'most_agents'] as const;
export const EMIRATES = [
  'dubai',
  'abu-dhabi',
  'sharjah',
  'ajman',
  'ras-al-khaimah',
  'fujairah',
  'umm-al-quwain',
  'al-ain',
] as const;
export const ADREC_PROPERTY_TYPES = [
  'apartment',
  'duplex',
  'penthouse',
  'villa',
  'townhouse',
  'residential-complex',
  'residential-complex-staff',
  'plot-residential',
  'plot-residential-staff',
  'plot-townhouse',
  'plot-villa',
  'plot-other',
  'office',
  'retail',
  'warehouse',
  'workshop',
] as const;

/** How a parameter's text is checked before anything is sent. */
export type ParamFormat =
  | 'id' // digits
  | 'count' // one whole number >= 0
  | 'counts' // comma-separated whole numbers >= 0
  | 'amount' // a number >= 0
  | 'page' // whole number >= the operation's first page
  | 'dmy' // DD/MM/YYYY
  | 'text'; // any non-empty text

export interface ParamSpec {
  readonly required?: boolean;
  readonly format?: ParamFormat;
  /** Allowed values; with `list`, each comma-separated item must be one of them. */
  readonly values?: readonly string[];
  readonly list?: boolean;
  /** The service's default, for help text and summaries; never sent by us. */
  readonly default?: string;
}

export interface OperationSpec {
  readonly path: `/${string}`;
  readonly title: string;
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** The first page number: 1 everywhere except ADREC (0). Undefined: not paged. */
  readonly firstPage?: 0 | 1;
  /** `one`: data is a single object (property-details); `many`: an array. */
  readonly shape: 'one' | 'many';
  readonly record: z.ZodType;
  /** Record schemas kept as received (ADREC): nothing is known of their fields. */
  readonly asReceived?: boolean;
}

const page = (firstPage: 0 | 1): ParamSpec => ({ format: 'page', default: String(firstPage) });
const locationId: ParamSpec = { required: true, format: 'id' };
const optionalLocationId: ParamSpec = { format: 'id' };
const amount: ParamSpec = { format: 'amount' };
const counts: ParamSpec = { format: 'counts' };

const listingFilters = {
  location_id: locationId,
  price_min: amount,
  price_max: amount,
  area_min: amount,
  area_max: amount,
  sort: { values: LISTING_SORT, default: 'newest' },
  page: page(1),
} as const;

const agentSearch = {
  location_id: optionalLocationId,
  category: { values: CATEGORY, default: 'residential_sale' },
  sort: { values: AGENT_SORT, default: 'most_sales' },
  page: page(1),
} as const;

const brokerSearch = {
  location_id: optionalLocationId,
  sort: { values: BROKER_SORT, default: 'featured' },
  page: page(1),
} as const;

export const OPERATIONS = {
  'search-buy': {
    path: '/search-buy',
    title: 'Residential properties for sale',
    params: {
      ...listingFilters,
      property_type: { values: RESIDENTIAL_TYPES },
      bedrooms: counts,
      bathrooms: counts,
      completion_status: { values: COMPLETION },
      furnishing: { values: FURNISHING },
      amenities: { values: AMENITIES, list: true },
    },
    firstPage: 1,
    shape: 'many',
    record: listingSummary,
  },
  'search-rent': {
    path: '/search-rent',
    title: 'Residential properties for rent',
    params: {
      ...listingFilters,
      property_type: { values: RESIDENTIAL_TYPES },
      bedrooms: counts,
      bathrooms: counts,
      rent_frequency: { values: RENT_FREQUENCY, default: 'yearly' },
      furnishing: { values: FURNISHING },
      amenities: { values: AMENITIES, list: true },
    },
    firstPage: 1,
    shape: 'many',
    record: listingSummary,
  },
  'search-commercial-rent': {
    path: '/search-commercial-rent',
    title: 'Commercial properties for rent',
    params: {
      ...listingFilters,
      property_type: { values: COMMERCIAL_TYPES },
      rent_frequency: { values: COMMERCIAL_RENT_FREQUENCY, default: 'monthly' },
    },
    firstPage: 1,
    shape: 'many',
    record: listingSummary,
  },
  'search-commercial-buy': {
    path: '/search-commercial-buy',
    title: 'Commercial properties for sale',
    params: { ...listingFilters, property_type: { values: COMMERCIAL_TYPES } },
    firstPage: 1,
    shape: 'many',
    record: listingSummary,
  },
  'search-new-projects': {
    path: '/search-new-projects',
    title: 'Off-plan and new projects',
    params: {
      ...listingFilters,
      property_type: { values: RESIDENTIAL_TYPES },
      bedrooms: counts,
      sort: { values: PROJECT_SORT, default: 'featured' },
    },
    firstPage: 1,
    shape: 'many',
    record: newProject,
  },
  'agent-properties': {
    path: '/agent-properties',
    title: "One agent's listings",
    params: {
      agent_id: { required: true, format: 'id' },
      category: { values: CATEGORY },
      sort: { values: LISTING_SORT, default: 'featured' },
      page: page(1),
    },
    firstPage: 1,
    shape: 'many',
    record: agentListing,
  },
  'broker-properties': {
    path: '/broker-properties',
    title: "One brokerage's listings",
    params: {
      broker_id: { required: true, format: 'id' },
      category: { values: CATEGORY },
      sort: { values: LISTING_SORT, default: 'featured' },
      page: page(1),
    },
    firstPage: 1,
    shape: 'many',
    record: brokerListing,
  },
  'get-get-transactions': {
    path: '/get-get-transactions',
    title: 'Sale and rental transactions',
    params: {
      location_id: locationId,
      transaction_type: { required: true, values: TRANSACTION_TYPE },
      property_type: { values: RESIDENTIAL_TYPES },
      bedrooms: { format: 'count' },
      sort: { values: TRANSACTION_SORT, default: 'newest' },
      period: { values: TRANSACTION_PERIOD, default: '1y' },
      page: page(1),
    },
    firstPage: 1,
    shape: 'many',
    record: transaction,
  },
  'get-adrec-transactions': {
    path: '/get-adrec-transactions',
    title: 'Abu Dhabi (ADREC) transaction records',
    params: {
      district: { format: 'text', list: true },
      propertyType: { values: ADREC_PROPERTY_TYPES, list: true },
      fromDate: { format: 'dmy' },
      toDate: { format: 'dmy' },
      size: { format: 'count', default: '20' },
      page: page(0),
    },
    firstPage: 0,
    shape: 'many',
    record: adrecRecord,
    asReceived: true,
  },
  'property-details': {
    path: '/property-details',
    title: 'One property',
    params: { property_id: { required: true, format: 'id' } },
    shape: 'one',
    record: propertyDetails,
  },
  'search-agents': {
    path: '/search-agents',
    title: 'Agents',
    params: agentSearch,
    firstPage: 1,
    shape: 'many',
    record: agentSimple,
  },
  'search-agents-detailed': {
    path: '/search-agents-detailed',
    title: 'Agents, detailed',
    params: agentSearch,
    firstPage: 1,
    shape: 'many',
    record: agentDetailed,
  },
  'search-brokers': {
    path: '/search-brokers',
    title: 'Brokerages',
    params: brokerSearch,
    firstPage: 1,
    shape: 'many',
    record: brokerSimple,
  },
  'search-brokers-detailed': {
    path: '/search-brokers-detailed',
    title: 'Brokerages, detailed',
    params: brokerSearch,
    firstPage: 1,
    shape: 'many',
    record: brokerDetailed,
  },
  'autocomplete-location': {
    path: '/autocomplete-location',
    title: 'Location lookup',
    params: { query: { required: true, format: 'text' } },
    shape: 'many',
    record: location,
  },
  'real-estate-developer': {
    path: '/real-estate-developer',
    title: 'Developers by emirate',
    params: { location: { values: EMIRATES, default: 'dubai' }, page: page(1) },
    firstPage: 1,
    shape: 'many',
    record: developer,
  },
  'price-trend-of-location': {
    path: '/price-trend-of-location',
    title: 'Price trend of a location',
    // Values other than the default are "not shown" upstream; residential types are the plausible set.
    params: { location_id: locationId, property_type: { values: RESIDENTIAL_TYPES, default: 'apartment' } },
    shape: 'many',
    record: priceTrendPoint,
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** The parameters an operation takes, by name, as text. */
export type ParamsOf<Op extends OperationName> = {
  [K in keyof (typeof OPERATIONS)[Op]['params']]?: string;
};

/** The validated record type an operation returns. */
export type RecordOf<Op extends OperationName> = z.output<(typeof OPERATIONS)[Op]['record']>;

/** One problem with one parameter, in words a person can act on. */
export interface ParamProblem {
  readonly param: string;
  readonly message: string;
  readonly allowed?: readonly string[];
}

const FORMAT_CHECKS: Record<Exclude<ParamFormat, 'page'>, [RegExp, string]> = {
  id: [/^\d+$/, 'a numeric id'],
  count: [/^\d+$/, 'a whole number'],
  counts: [/^\d+(,\d+)*$/, 'comma-separated whole numbers'],
  amount: [/^\d+(\.\d+)?$/, 'a number'],
  dmy: [/^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])\/\d{4}$/, 'a date as DD/MM/YYYY'],
  text: [/\S/, 'non-empty text'],
};

/**
 * Checks parameters against an operation's table. Returns every problem (empty when all is well);
 * the client refuses to send anything when the list is not empty, and the sandbox answers 400.
 */
export function checkParams(op: OperationName, params: Readonly<Record<string, string | undefined>>): ParamProblem[] {
  const spec: OperationSpec = OPERATIONS[op];
  const problems: ParamProblem[] = [];
  for (const name of Object.keys(params)) {
    if (!Object.hasOwn(spec.params, name) && params[name] !== undefined) {
      problems.push({ param: name, message: `${op} takes no parameter "${name}"`, allowed: Object.keys(spec.params) });
    }
  }
  for (const [name, p] of Object.entries(spec.params)) {
    const value = params[name];
    if (value === undefined || value === '') {
      if (p.required) problems.push({ param: name, message: `${name} is required` });
      continue;
    }
    if (p.values) {
      const items = p.list ? value.split(',') : [value];
      const bad = items.filter((v) => !p.values!.includes(v));
      if (bad.length > 0) {
        problems.push({
          param: name,
          message: `${name} must be ${p.list ? 'a comma-separated list of' : 'one of'}: ${p.values.join(', ')} (got "${bad.join(',')}")`,
          allowed: p.values,
        });
      }
      continue;
    }
    if (p.format === 'page') {
      const first = spec.firstPage ?? 1;
      if (!/^\d+$/.test(value) || Number(value) < first) {
        problems.push({ param: name, message: `${name} must be a whole number from ${first} (got "${value}")` });
      }
    } else if (p.format) {
      const [pattern, words] = FORMAT_CHECKS[p.format];
      if (!pattern.test(value)) problems.push({ param: name, message: `${name} must be ${words} (got "${value}")` });
    }
  }
  return problems;
}

/** One operation's spec, widened from the literal table so callers can read any field generically. */
export function operationSpec(op: OperationName): OperationSpec {
  return OPERATIONS[op];
}
