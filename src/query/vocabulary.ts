// The words of the command language, as tables. The parser, the canonical writer and help all read these;
// the first phrase of each meaning is its canonical spelling.
import type { AMENITIES } from '../api/operations.js';
import { ADREC_PROPERTY_TYPES, COMMERCIAL_TYPES, RESIDENTIAL_TYPES } from '../api/operations.js';

/** Sort meanings; each family maps them onto its own sort values (see SORTS_BY_FAMILY in build.ts). */
export type SortKey =
  | 'newest'
  | 'oldest'
  | 'featured'
  | 'price_asc'
  | 'price_desc'
  | 'delivery_earliest'
  | 'delivery_latest'
  | 'most_sales'
  | 'most_rentals'
  | 'most_properties'
  | 'most_agents';

export type Effect =
  | { kind: 'type'; value: string }
  | { kind: 'adrecType'; value: string }
  | { kind: 'furnishing'; value: string }
  | { kind: 'completion'; value: string }
  | { kind: 'amenity'; value: (typeof AMENITIES)[number] }
  | { kind: 'sort'; value: SortKey }
  | { kind: 'period'; value: string }
  | { kind: 'frequency'; value: string }
  | { kind: 'deal'; value: 'rent' | 'sale' }
  | { kind: 'commercial' }
  | { kind: 'residential' }
  | { kind: 'detailed' }
  | { kind: 'emirate'; value: string };

export type PhraseTable = readonly (readonly [phrase: string, effect: Effect])[];

export const FILLERS = new Set(['in', 'at', 'near', 'around', 'for', 'with', 'a', 'an', 'the', 'and']);

const plural = (phrase: string): string => {
  if (/[^aeiou]y$/.test(phrase)) return phrase.slice(0, -1) + 'ies';
  if (/(s|x|ch|sh)$/.test(phrase)) return phrase + 'es';
  return phrase + 's';
};

/** A phrase and its plural, for nouns. */
const nouns = (phrases: readonly string[], effect: Effect): [string, Effect][] =>
  phrases.flatMap(
    (p) =>
      [
        [p, effect],
        [plural(p), effect],
      ] as [string, Effect][],
  );

const TYPE_ALIASES: Record<string, readonly string[]> = {
  apartment: ['apt', 'flat'],
  townhouse: ['th', 'townhome'],
  penthouse: ['ph'],
  'office-space': ['office'],
  'show-room': ['showroom'],
  land: ['plot'],
  'hotel-apartment': ['serviced apartment'],
  'labor-camp': ['labour camp'],
  'co-working-space': ['coworking', 'coworking space'],
  'business-centre': ['business center'],
};

const allTypes = [...new Set<string>([...RESIDENTIAL_TYPES, ...COMMERCIAL_TYPES])];

/** Every residential and commercial type, singular or plural, spaces for dashes, and the usual short names. */
export const PROPERTY_TYPES: PhraseTable = allTypes.flatMap((value) =>
  nouns([value.replace(/-/g, ' '), ...(TYPE_ALIASES[value] ?? [])], { kind: 'type', value }),
);

const ADREC_ALIASES: Record<string, readonly string[]> = {
  apartment: ['apt', 'flat'],
  townhouse: ['th'],
  penthouse: ['ph'],
};

/** ADREC has its own type values (`plot-villa`, `workshop`...). */
export const ADREC_TYPES: PhraseTable = ADREC_PROPERTY_TYPES.flatMap((value) =>
  nouns([value.replace(/-/g, ' '), ...(ADREC_ALIASES[value] ?? [])], { kind: 'adrecType', value }),
);

const amenity = (value: (typeof AMENITIES)[number], ...phrases: string[]): [string, Effect][] =>
  phrases.map((p) => [p, { kind: 'amenity', value }]);

export const AMENITY_PHRASES: PhraseTable = [
  ...amenity('central_ac', 'central ac', 'central a/c', 'central air'),
  ...amenity('balcony', 'balcony', 'balconies'),
  ...amenity('maids_room', 'maids room', "maid's room", 'maid room'),
  ...amenity('shared_pool', 'pool', 'shared pool', 'swimming pool'),
  ...amenity('shared_gym', 'gym', 'shared gym'),
  ...amenity('covered_parking', 'parking', 'covered parking'),
  ...amenity('pets_allowed', 'pets', 'pet friendly', 'pets allowed'),
  ...amenity('private_garden', 'garden', 'private garden'),
  ...amenity('private_pool', 'private pool'),
  ...amenity('security', 'security'),
  ...amenity('built_in_wardrobes', 'wardrobes', 'built in wardrobes'),
  ...amenity('view_of_water', 'sea view', 'water view', 'sea views', 'water views'),
  ...amenity('view_of_landmark', 'landmark view', 'landmark views'),
  ...amenity('concierge', 'concierge'),
  ...amenity('childrens_play_area', 'play area', 'kids play area', "children's play area", 'childrens play area'),
  ...amenity('bbq_area', 'bbq', 'bbq area', 'barbecue'),
];

export const FURNISHING_PHRASES: PhraseTable = [
  ['furnished', { kind: 'furnishing', value: 'furnished' }],
  ['unfurnished', { kind: 'furnishing', value: 'unfurnished' }],
  ['not furnished', { kind: 'furnishing', value: 'unfurnished' }],
  ['partly furnished', { kind: 'furnishing', value: 'partly' }],
  ['semi furnished', { kind: 'furnishing', value: 'partly' }],
  ['part furnished', { kind: 'furnishing', value: 'partly' }],
  ['partially furnished', { kind: 'furnishing', value: 'partly' }],
];

export const COMPLETION_PHRASES: PhraseTable = [
  ['ready', { kind: 'completion', value: 'ready' }],
  ['ready to move', { kind: 'completion', value: 'ready' }],
  ['off plan', { kind: 'completion', value: 'off_plan' }],
  ['offplan', { kind: 'completion', value: 'off_plan' }],
  ['under construction', { kind: 'completion', value: 'off_plan' }],
];

const sort = (value: SortKey, ...phrases: string[]): [string, Effect][] =>
  phrases.map((p) => [p, { kind: 'sort', value }]);

export const SORT_PHRASES: PhraseTable = [
  ...sort('newest', 'newest', 'latest', 'recent', 'most recent', 'newest first'),
  ...sort('oldest', 'oldest', 'oldest first'),
  ...sort('featured', 'featured'),
  ...sort('price_asc', 'cheapest', 'lowest price', 'price low to high', 'low to high', 'cheapest first'),
  ...sort('price_desc', 'most expensive', 'priciest', 'highest price', 'price high to low', 'high to low'),
  ...sort(
    'delivery_earliest',
    'earliest handover',
    'delivery soonest',
    'soonest handover',
    'earliest delivery',
    'handover soonest',
    'earliest completion',
    'soonest completion',
    'completion soonest',
    'soonest delivery',
    'delivery earliest',
    'handover earliest',
    'completion earliest',
  ),
  ...sort(
    'delivery_latest',
    'latest handover',
    'latest delivery',
    'latest completion',
    'handover latest',
    'delivery latest',
    'completion latest',
  ),
  ...sort('most_sales', 'most sales'),
  ...sort('most_rentals', 'most rentals'),
  ...sort('most_properties', 'most properties', 'most listings'),
  ...sort('most_agents', 'most agents'),
];

const period = (value: string, ...phrases: string[]): [string, Effect][] =>
  phrases.map((p) => [p, { kind: 'period', value }]);

const PERIOD_WORDS: readonly (readonly [value: string, words: readonly string[]])[] = [
  ['1y', ['year', '12 months']],
  ['6m', ['6 months']],
  ['3m', ['3 months', 'quarter']],
  ['1m', ['month', '30 days']],
];
// "over the past year": `over` is otherwise a price bound, so these are phrases of their own.
const OVER_PERIODS = PERIOD_WORDS.flatMap(([value, words]) =>
  period(
    value,
    ...['over the', 'over', 'within the', 'during the'].flatMap((lead) =>
      ['past', 'last'].flatMap((when) => words.map((w) => `${lead} ${when} ${w}`)),
    ),
  ),
);

/** Transaction periods in words; `6m`, `3m`, `1m` are in SHORT_PERIODS since elsewhere they are millions. */
export const PERIOD_PHRASES: PhraseTable = [
  ...period('1y', 'last year', 'past year', '12 months', 'last 12 months', 'past 12 months', '1y', '1 year', '1yr'),
  ...period('6m', '6 months', 'last 6 months', 'past 6 months'),
  ...period('3m', '3 months', 'last 3 months', 'past 3 months', 'last quarter'),
  ...period('1m', 'last month', 'past month', '30 days', 'last 30 days', 'past 30 days', '1 month'),
  ...period('3m', 'past quarter'),
  ...OVER_PERIODS,
  // The service counts back from today only: a calendar span is read as the span that covers it (scan.ts says so).
  ...period('1y', 'this year'),
  ...period('3m', 'this quarter'),
  ...period('1m', 'this month'),
];
export const SHORT_PERIODS: PhraseTable = [...period('6m', '6m'), ...period('3m', '3m'), ...period('1m', '1m')];

const frequency = (value: string, ...phrases: string[]): [string, Effect][] =>
  phrases.map((p) => [p, { kind: 'frequency', value }]);

export const FREQUENCY_PHRASES: PhraseTable = [
  ...frequency(
    'yearly',
    'yearly',
    'per year',
    'a year',
    '/yr',
    '/year',
    'pa',
    'p.a',
    'per annum',
    'annually',
    'annual',
  ),
  ...frequency('monthly', 'monthly', 'per month', 'a month', '/month', '/mo', 'pm', 'p.m'),
  ...frequency('weekly', 'weekly', 'per week', 'a week', '/week', '/wk'),
  ...frequency('daily', 'daily', 'per day', 'a day', '/day'),
];

/** Rent or sale inside a command: a transaction type, an agent's category, or a check on rent/buy. */
export const DEAL_PHRASES: PhraseTable = [
  ...(['rent', 'rented', 'rental', 'rentals', 'for rent', 'lease'] as const).map((p): [string, Effect] => [
    p,
    { kind: 'deal', value: 'rent' },
  ]),
  ...(['sale', 'sold', 'sales', 'for sale', 'buy', 'sell'] as const).map((p): [string, Effect] => [
    p,
    { kind: 'deal', value: 'sale' },
  ]),
];

export const MARKER_PHRASES: PhraseTable = [
  ['commercial', { kind: 'commercial' }],
  ['residential', { kind: 'residential' }],
  ['detailed', { kind: 'detailed' }],
];

const emirate = (value: string, ...phrases: string[]): [string, Effect][] =>
  phrases.map((p) => [p, { kind: 'emirate', value }]);

export const EMIRATE_PHRASES: PhraseTable = [
  ...emirate('dubai', 'dubai', 'dxb'),
  ...emirate('abu-dhabi', 'abu dhabi', 'abudhabi', 'auh'),
  ...emirate('sharjah', 'sharjah', 'shj'),
  ...emirate('ajman', 'ajman'),
  ...emirate('ras-al-khaimah', 'ras al khaimah', 'rak'),
  ...emirate('fujairah', 'fujairah', 'fuj'),
  ...emirate('umm-al-quwain', 'umm al quwain', 'umm al qaiwain', 'uaq'),
  ...emirate('al-ain', 'al ain', 'alain'),
];

/** The first phrase in a table with this effect: the canonical spelling used by formatQuery and help. */
export function canonical(table: PhraseTable, matches: (e: Effect) => boolean): string | undefined {
  return table.find(([, e]) => matches(e))?.[0];
}

/** Phrases indexed by their first word, longest first, so `under construction` wins over `under 120k`. */
export class PhraseIndex {
  private readonly byFirst = new Map<string, { words: readonly string[]; effect: Effect }[]>();

  constructor(tables: readonly PhraseTable[]) {
    for (const table of tables) {
      for (const [phrase, effect] of table) {
        const words = phrase.split(' ');
        const list = this.byFirst.get(words[0]!) ?? [];
        list.push({ words, effect });
        this.byFirst.set(words[0]!, list);
      }
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  }

  /** The longest phrase starting at `words[i]`, if any. */
  match(words: readonly string[], i: number): { length: number; effect: Effect } | undefined {
    const list = this.byFirst.get(words[i]!);
    if (!list) return undefined;
    outer: for (const entry of list) {
      for (let k = 1; k < entry.words.length; k++) if (words[i + k] !== entry.words[k]) continue outer;
      return { length: entry.words.length, effect: entry.effect };
    }
    return undefined;
  }

  /** True when a phrase starts with this word. */
  starts(word: string): boolean {
    return this.byFirst.has(word);
  }

  /** Every single word the index knows, for spotting typos. */
  words(): string[] {
    return [...this.byFirst.keys()];
  }
}
