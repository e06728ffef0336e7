// A Draft and its verb -> the operation and its parameters, refusing (with a way forward) whatever the
// operation cannot take. Defaults are never sent: only what the person asked for.
import {
  AMENITIES,
  COMMERCIAL_RENT_FREQUENCY,
  EMIRATES,
  COMMERCIAL_TYPES,
  OPERATIONS,
  RESIDENTIAL_TYPES,
  type OperationName,
  type OperationSpec,
} from '../api/operations.js';
import { countsText, amountText, grouped } from './numbers.js';
import type { Draft } from './scan.js';
import { joinWords, type Token } from './text.js';
import { fail, type Family, type Query } from './types.js';
import { isUnknownWord } from './unknown.js';
import { verbByFamily } from './verbs.js';
import { EMIRATE_PHRASES, SORT_PHRASES, canonical, type SortKey } from './vocabulary.js';

/** How each family names the sort meanings it supports. */
export const SORTS_BY_FAMILY: Partial<Record<Family, Partial<Record<SortKey, string>>>> = {
  rent: { newest: 'newest', featured: 'featured', price_asc: 'price_asc', price_desc: 'price_desc' },
  buy: { newest: 'newest', featured: 'featured', price_asc: 'price_asc', price_desc: 'price_desc' },
  projects: {
    featured: 'featured',
    newest: 'newest',
    price_asc: 'price_asc',
    price_desc: 'price_desc',
    delivery_earliest: 'delivery_earliest',
    delivery_latest: 'delivery_latest',
  },
  transactions: { newest: 'newest', oldest: 'oldest', price_desc: 'high_price', price_asc: 'low_price' },
  agents: { most_sales: 'most_sales', most_rentals: 'most_rentals', featured: 'featured' },
  brokers: { featured: 'featured', most_properties: 'most_properties', most_agents: 'most_agents' },
  agent: { newest: 'newest', featured: 'featured', price_asc: 'price_asc', price_desc: 'price_desc' },
  broker: { newest: 'newest', featured: 'featured', price_asc: 'price_asc', price_desc: 'price_desc' },
};

/** How a refusal names an operation: "<label> can't be filtered by ...". */
export const LABELS: Record<OperationName, string> = {
  'search-rent': 'Rentals',
  'search-buy': 'Sales',
  'search-commercial-rent': 'Commercial rentals',
  'search-commercial-buy': 'Commercial sales',
  'search-new-projects': 'New projects',
  'get-get-transactions': 'Transactions',
  'get-adrec-transactions': 'ADREC records',
  'price-trend-of-location': 'Price trends',
  'search-agents': 'Agent searches',
  'search-agents-detailed': 'Agent searches',
  'search-brokers': 'Brokerage searches',
  'search-brokers-detailed': 'Brokerage searches',
  'agent-properties': "An agent's listings",
  'broker-properties': "A brokerage's listings",
  'property-details': 'Property details',
  'real-estate-developer': 'Developer lists',
  'autocomplete-location': 'Location lookups',
};

const COMMERCIAL_ONLY = new Set<string>(
  COMMERCIAL_TYPES.filter((t) => !(RESIDENTIAL_TYPES as readonly string[]).includes(t)),
);
const NEEDS_AREA = new Set<Family>(['rent', 'buy', 'projects', 'transactions', 'trend']);
const quoteAll = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ');

export function build(family: Family, draft: Draft, id?: string): Query {
  const verb = verbByFamily(family);
  const example = verb.examples[0]!;
  const operation = chooseOperation(family, draft, example);
  const spec: OperationSpec = OPERATIONS[operation];
  const params: Record<string, string> = {};
  const label = LABELS[operation];
  const ctx: Target = { spec, params, label, example };

  if (id !== undefined)
    params[family === 'agent' ? 'agent_id' : family === 'broker' ? 'broker_id' : 'property_id'] = id;

  // Property type: one at a time, and one this operation knows.
  const types = draft.types;
  if (types.length > 1)
    fail(`One property type at a time, please: you asked for ${quoteAll(types.map((t) => t.text))}. Try "${example}".`);
  const type = types[0];
  if (type) {
    put(ctx, 'property_type', type.value, 'property type', type.text);
    const allowed = (spec.params as Record<string, { values?: readonly string[] }>).property_type?.values ?? [];
    if (!allowed.includes(type.value)) {
      fail(`${label} don't cover "${type.text}". Types here: ${allowed.map((t) => t.replace(/-/g, ' ')).join(', ')}.`);
    }
  }
  if (draft.adrecTypes.length > 0)
    put(ctx, 'propertyType', draft.adrecTypes.join(','), 'ADREC property type', draft.adrecTypes.join(' '));

  // Rooms.
  const beds = draft.rooms.bedrooms;
  if (beds) {
    const text = countsText(beds.value);
    if (operation === 'get-get-transactions' && text.includes(',')) {
      fail(`Transactions take one bedroom count, not "${beds.text}". Try "2br" or "studio".`);
    }
    put(ctx, 'bedrooms', text, 'bedrooms', beds.text);
  }
  if (draft.rooms.bathrooms)
    put(ctx, 'bathrooms', countsText(draft.rooms.bathrooms.value), 'bathrooms', draft.rooms.bathrooms.text);

  // Price and size bounds; a size's refusals say "area", as replies always have.
  bounds(ctx, draft.price, 'price', 'price_min', 'price_max', showPrice, 'between 80k and 120k');
  bounds(ctx, draft.size, 'area', 'area_min', 'area_max', showSize, 'between 1000 and 2000 sqft');

  if (draft.frequency) put(ctx, 'rent_frequency', draft.frequency.value, 'rent period', draft.frequency.text);
  // Dubai quotes commercial rents by the year (the service would read a monthly amount): yearly unless a month is said.
  else if (operation === 'search-commercial-rent') params.rent_frequency = 'yearly';
  if (draft.furnishing) put(ctx, 'furnishing', draft.furnishing.value, 'furnishing', draft.furnishing.text);
  if (draft.completion)
    put(ctx, 'completion_status', draft.completion.value, 'ready or off-plan', draft.completion.text);
  // "2br + maid": the maid's room is an amenity where the operation has amenities; elsewhere, and for a study, left
  // out, said so.
  for (const extra of draft.extras) {
    if (extra.value !== '' && Object.hasOwn(spec.params, 'amenities')) {
      draft.amenities.add(extra.value);
      draft.amenityText ??= extra.text;
    } else {
      draft.notes.push(
        extra.value === ''
          ? `left out "${extra.text}": there is no filter for it`
          : `left out "${extra.text}": ${label.toLowerCase()} have no amenity filter`,
      );
    }
  }
  if (draft.amenities.size > 0) {
    put(
      ctx,
      'amenities',
      AMENITIES.filter((a) => draft.amenities.has(a)).join(','),
      'amenities',
      draft.amenityText ?? '',
    );
  }
  if (draft.period) put(ctx, 'period', draft.period.value, 'time period', draft.period.text);
  if (draft.fromDate) put(ctx, 'fromDate', draft.fromDate.value, 'date', draft.fromDate.text);
  if (draft.toDate) put(ctx, 'toDate', draft.toDate.value, 'date', draft.toDate.text);
  if (draft.fromDate && draft.toDate && dmyKey(draft.fromDate.value) > dmyKey(draft.toDate.value)) {
    fail(
      `The start date ${draft.fromDate.value} is after the end date ${draft.toDate.value}. Try "from 01/01/2024 to 31/03/2024".`,
    );
  }
  if (draft.emirate) put(ctx, 'location', draft.emirate.value, 'emirate', draft.emirate.text);
  if (draft.detailed && !operation.endsWith('-detailed')) {
    fail(`"detailed" works with /agents and /brokers only. Try "/agents detailed marina".`);
  }

  if (draft.sort) {
    const value = SORTS_BY_FAMILY[family]?.[draft.sort.value];
    if (value === undefined) {
      const choices = sortPhrases(family);
      fail(
        choices.length === 0
          ? `${label} can't be sorted ("${draft.sort.text}"). Try "${example}".`
          : `${label} can't be sorted by "${draft.sort.text}". Try one of: ${choices.join(', ')}.`,
      );
    }
    put(ctx, 'sort', value!, 'sort order', draft.sort.text);
  }

  // The deal word: a transaction type, an agent's category, or a check on rent/buy.
  dealParams(family, draft, ctx);

  if (draft.page) {
    if (spec.firstPage === undefined) fail(`${label} have no pages ("${draft.page.text}"). Try "${example}".`);
    // People count pages from 1; ADREC counts from 0.
    params.page = String(draft.page.value - 1 + spec.firstPage!);
  }

  const perSqft = perSqftOf(operation, draft, label);

  const area = areaOf(family, draft.words, example, draft.known);
  if (family === 'adrec') {
    if (area.districts.length > 0) params.district = area.districts.join(',');
    return { operation, params, location: null, unknownWords: [] };
  }
  if (NEEDS_AREA.has(family) && area.location === null) {
    fail(`Where? Add a place, like "${example}".`);
  }
  return { operation, params, location: area.location, unknownWords: area.unknown, ...(perSqft ? { perSqft } : {}) };
}

/** Listing searches, whose records carry a price and a size: the only ones a price per sqft can filter. */
const PER_SQFT_OPERATIONS = new Set<OperationName>([
  'search-rent',
  'search-buy',
  'search-commercial-rent',
  'search-commercial-buy',
]);

/**
 * The price-per-sqft bounds of a listing search; refused, with a way forward, where there are no listings to filter.
 */
function perSqftOf(operation: OperationName, draft: Draft, label: string): Query['perSqft'] {
  const { min, max } = draft.perSqft;
  if (!min && !max) return undefined;
  if (!PER_SQFT_OPERATIONS.has(operation)) {
    fail(
      `${label} can't be filtered by price per sqft ("${(min ?? max)!.text}"): only listings to rent or buy can. Try "/rent office jlt under 150 per sqft".`,
    );
  }
  if (min && max && min.value > max.value)
    fail(`The least per sqft ("${min.text}") is above the most ("${max.text}"). Try "between 100 and 200 per sqft".`);
  return { ...(min ? { min: min.value } : {}), ...(max ? { max: max.value } : {}) };
}

function chooseOperation(family: Family, draft: Draft, example: string): OperationName {
  const type = draft.types[0];
  switch (family) {
    case 'rent':
    case 'buy': {
      const commercial = draft.commercial !== undefined || draft.types.some((t) => COMMERCIAL_ONLY.has(t.value));
      if (family === 'rent' && draft.completion) {
        fail(
          `Ready and off-plan only apply when buying ("${draft.completion.text}"). Try "/buy marina 2br off-plan", or "/projects marina" for new projects.`,
        );
      }
      if (family === 'buy' && draft.frequency) {
        fail(
          `"${draft.frequency.text}" is a rent period; sale prices are totals. Try "/rent marina 2br under 10k monthly" to rent.`,
        );
      }
      if (commercial && type && !(COMMERCIAL_TYPES as readonly string[]).includes(type.value)) {
        fail(
          `"${type.text}" is not a commercial property type. Try office, retail, shop, warehouse, showroom or land.`,
        );
      }
      if (!commercial) return family === 'rent' ? 'search-rent' : 'search-buy';
      if (
        family === 'rent' &&
        draft.frequency &&
        !(COMMERCIAL_RENT_FREQUENCY as readonly string[]).includes(draft.frequency.value)
      ) {
        fail(
          `Commercial rents are yearly or monthly, not ${draft.frequency.value} ("${draft.frequency.text}"). Try "/rent office business bay under 20k monthly".`,
        );
      }
      return family === 'rent' ? 'search-commercial-rent' : 'search-commercial-buy';
    }
    case 'projects':
      return 'search-new-projects';
    case 'transactions':
      if (!draft.deal) fail('Sold or rented? Try "/transactions sold marina 2br".');
      return 'get-get-transactions';
    case 'adrec':
      return 'get-adrec-transactions';
    case 'trend':
      return 'price-trend-of-location';
    case 'agents':
      return draft.detailed ? 'search-agents-detailed' : 'search-agents';
    case 'brokers':
      return draft.detailed ? 'search-brokers-detailed' : 'search-brokers';
    case 'agent':
      return 'agent-properties';
    case 'broker':
      return 'broker-properties';
    case 'property':
      return 'property-details';
    case 'developers':
      return 'real-estate-developer';
    case 'location':
      return fail(`Try "${example}".`);
  }
}

function dealParams(family: Family, draft: Draft, ctx: Target): void {
  const { label, example } = ctx;
  const deal = draft.deal;
  const commercial = draft.commercial;
  switch (family) {
    case 'rent':
    case 'buy':
      if (deal && deal.value !== (family === 'rent' ? 'rent' : 'sale')) {
        const other = family === 'rent' ? 'buy' : 'rent';
        fail(`"${deal.text}" doesn't fit /${family}. To ${other}, try "/${other} marina 2br".`);
      }
      return;
    case 'transactions':
      if (commercial) fail(`Transactions are residential only ("${commercial}"). Try "${example}".`);
      put(ctx, 'transaction_type', deal!.value === 'sale' ? 'sold' : 'rented', 'transaction type', deal!.text);
      return;
    case 'agents':
    case 'agent':
    case 'broker':
      if (deal) {
        put(ctx, 'category', `${commercial ? 'commercial' : 'residential'}_${deal.value}`, 'rent or sale', deal.text);
      } else if (commercial) {
        fail(
          `Commercial rent or commercial sale? Try "${family === 'agents' ? '/agents marina' : `/${family} ${family === 'broker' ? 1005 : 201460}`} commercial rent".`,
        );
      }
      return;
    case 'projects':
      if (deal?.value === 'rent')
        fail(`New projects are for sale only ("${deal.text}"). Try "/rent marina 2br" for rentals.`);
      if (commercial) fail(`New projects are residential only ("${commercial}"). Try "${example}".`);
      return;
    default:
      if (deal) fail(`${label} don't take "${deal.text}". Try "${example}".`);
      if (commercial) fail(`${label} don't take "${commercial}". Try "${example}".`);
  }
}

function bounds(
  ctx: Target,
  b: Draft['price'],
  what: string,
  minName: string,
  maxName: string,
  show: (n: number) => string,
  hint: string,
): void {
  if (b.min && b.max && b.min.value > b.max.value) {
    fail(`The minimum ${what} (${show(b.min.value)}) is above the maximum (${show(b.max.value)}). Try "${hint}".`);
  }
  if (b.min) put(ctx, minName, amountText(b.min.value), what, b.min.text);
  if (b.max) put(ctx, maxName, amountText(b.max.value), what, b.max.text);
}

const showPrice = (n: number) => `AED ${grouped(n)}`;
const showSize = (n: number) => `${grouped(n)} sqft`;

/** Where build() puts the parameters, and how it words a refusal. */
interface Target {
  spec: OperationSpec;
  params: Record<string, string>;
  label: string;
  example: string;
}

// At module level rather than closures in build(): made on every call, they cost more than the calls (tsx names each
// one).
function put(ctx: Target, name: string, value: string, what: string, said: string): void {
  if (!Object.hasOwn(ctx.spec.params, name))
    fail(`${ctx.label} can't be filtered by ${what} ("${said}"). Try "${ctx.example}".`);
  ctx.params[name] = value;
}

const dmyKey = (dmy: string) => dmy.split('/').reverse().join('');

// Transactions speak of prices, not of expense: "highest price" reads better there than "most expensive".
const SORT_WORDING: Partial<Record<Family, Partial<Record<SortKey, string>>>> = {
  transactions: { price_desc: 'highest price', price_asc: 'lowest price' },
};

/** The canonical phrase for a sort meaning, as this family would say it. */
export function sortPhrase(family: Family, key: SortKey): string {
  return SORT_WORDING[family]?.[key] ?? SORT_PHRASES.find(([, e]) => e.kind === 'sort' && e.value === key)![0];
}

export function sortPhrases(family: Family): string[] {
  return (Object.keys(SORTS_BY_FAMILY[family] ?? {}) as SortKey[]).map((key) => sortPhrase(family, key));
}

/** The leftover words: one place (or ADREC districts), with the words that look like failed filters marked. */
function areaOf(
  family: Family,
  words: readonly Token[],
  example: string,
  known: ReadonlySet<Token> | undefined,
): { location: string | null; unknown: string[]; districts: string[] } {
  const plain = words.filter((t) => !t.quoted && t.word !== ',');
  const quoted = words.filter((t) => t.quoted);
  if (family === 'adrec') return { location: null, unknown: [], districts: districts(words) };
  if (family === 'developers' && plain.length > 0) {
    const emirates = EMIRATES.map((e) => canonical(EMIRATE_PHRASES, (x) => x.kind === 'emirate' && x.value === e)).join(
      ', ',
    );
    fail(`I don't know the emirate "${joinWords(plain)}". Try one of: ${emirates}.`);
  }
  if (!NEEDS_AREA.has(family) && family !== 'agents' && family !== 'brokers') {
    if (plain.length > 0 || quoted.length > 0)
      fail(`I didn't understand ${quoteAll([...plain, ...quoted].map((t) => t.raw))}. Try "${example}".`);
    return { location: null, unknown: [], districts: [] };
  }
  if (quoted.length > 1) fail(`One place at a time, please: ${quoteAll(quoted.map((t) => t.raw))}. Try "${example}".`);
  if (quoted.length === 1) {
    if (plain.length > 0)
      fail(`I didn't understand ${quoteAll(plain.map((t) => t.raw))}; the place is already in quotes.`);
    return { location: quoted[0]!.raw, unknown: [], districts: [] };
  }
  if (plain.length === 0) return { location: null, unknown: [], districts: [] };
  return {
    location: joinWords(plain),
    unknown: plain.filter((t) => !known?.has(t) && isUnknownWord(t.word)).map((t) => t.raw),
    districts: [],
  };
}

/**
 * ADREC districts: comma-separated; each quoted text is one district. All-lower-case names get capitals, as ADREC
 * spells them.
 */
function districts(words: readonly Token[]): string[] {
  const out: string[] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length > 0) out.push(titleCase(joinWords(current)));
    current = [];
  };
  for (const t of words) {
    if (t.word === ',') flush();
    else if (t.quoted) {
      flush();
      if (t.raw.includes(','))
        fail(`District names have no commas ("${t.raw}"). Quote each one: "Al Reem Island", "Yas Island".`);
      out.push(t.raw);
    } else current.push(t);
  }
  flush();
  return out;
}

const titleCase = (name: string) =>
  name === name.toLowerCase()
    ? name.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())
    : name;
