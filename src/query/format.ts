// Query -> canonical command text that parses back to the same operation, params and location.
// Used for "Run again" buttons and saved searches; the area is always quoted so it comes back verbatim.
import { OPERATIONS, type OperationName, type OperationSpec } from '../api/operations.js';
import { SORTS_BY_FAMILY, sortPhrase } from './build.js';
import type { Family, Query } from './types.js';
import { wordsText } from './words.js';
import {
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  EMIRATE_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  PERIOD_PHRASES,
  canonical,
  type Effect,
  type PhraseTable,
  type SortKey,
} from './vocabulary.js';

export const FAMILY_OF: Record<OperationName, Family> = {
  'search-rent': 'rent',
  'search-commercial-rent': 'rent',
  'search-buy': 'buy',
  'search-commercial-buy': 'buy',
  'search-new-projects': 'projects',
  'get-get-transactions': 'transactions',
  'get-adrec-transactions': 'adrec',
  'price-trend-of-location': 'trend',
  'search-agents': 'agents',
  'search-agents-detailed': 'agents',
  'search-brokers': 'brokers',
  'search-brokers-detailed': 'brokers',
  'agent-properties': 'agent',
  'broker-properties': 'broker',
  'property-details': 'property',
  'real-estate-developer': 'developers',
  'autocomplete-location': 'location',
};

const phraseFor = (table: PhraseTable, kind: Effect['kind'], value: string): string =>
  canonical(table, (e) => e.kind === kind && 'value' in e && e.value === value) ?? value;

const CATEGORY_WORDS: Record<string, string> = {
  residential_rent: 'rent',
  residential_sale: 'sale',
  commercial_rent: 'commercial rent',
  commercial_sale: 'commercial sale',
};

function verbWords(query: Query): string {
  const p = query.params;
  switch (query.operation) {
    case 'search-rent':
      return 'rent';
    case 'search-commercial-rent':
      return 'rent commercial';
    case 'search-buy':
      return 'buy';
    case 'search-commercial-buy':
      return 'buy commercial';
    case 'search-new-projects':
      return 'projects';
    case 'get-get-transactions':
      return `transactions ${p.transaction_type ?? ''}`.trim();
    case 'get-adrec-transactions':
      return 'adrec';
    case 'price-trend-of-location':
      return 'trend';
    case 'search-agents':
      return 'agents';
    case 'search-agents-detailed':
      return 'agents detailed';
    case 'search-brokers':
      return 'brokers';
    case 'search-brokers-detailed':
      return 'brokers detailed';
    case 'agent-properties':
      return `agent ${p.agent_id}`;
    case 'broker-properties':
      return `broker ${p.broker_id}`;
    case 'property-details':
      return `property ${p.property_id}`;
    case 'real-estate-developer':
      return 'developers';
    case 'autocomplete-location':
      return `location "${p.query}"`;
  }
}

function between(min: string | undefined, max: string | undefined, unit: string): string | undefined {
  // The parser refuses a maximum of 0 as people type it ("under 0"); "<= 0" is the literal form it still reads back.
  if (max === '0') return [min !== undefined ? `>= ${min}${unit}` : undefined, `<= 0${unit}`].filter(Boolean).join(' ');
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}${unit}`;
  if (max !== undefined) return `under ${max}${unit}`;
  if (min !== undefined) return `over ${min}${unit}`;
  return undefined;
}

export function formatQuery(query: Query): string {
  const p = query.params;
  const family = FAMILY_OF[query.operation];
  const spec: OperationSpec = OPERATIONS[query.operation];
  const parts: (string | undefined)[] = [verbWords(query)];
  if (query.location !== null) parts.push(`"${query.location}"`);
  if (p.district)
    parts.push(
      p.district
        .split(',')
        .map((d) => `"${d}"`)
        .join(', '),
    );
  if (p.property_type) parts.push(p.property_type.replace(/-/g, ' '));
  if (p.propertyType)
    parts.push(
      p.propertyType
        .split(',')
        .map((t) => t.replace(/-/g, ' '))
        .join(' '),
    );
  if (p.bedrooms) parts.push(`${p.bedrooms} br`);
  if (p.bathrooms) parts.push(`${p.bathrooms} baths`);
  parts.push(between(p.price_min, p.price_max, ''));
  parts.push(between(p.area_min, p.area_max, ' sqft'));
  const perSqft = query.perSqft;
  if (perSqft)
    parts.push(
      between(
        perSqft.min === undefined ? undefined : String(perSqft.min),
        perSqft.max === undefined ? undefined : String(perSqft.max),
        ' per sqft',
      ),
    );
  if (p.rent_frequency) parts.push(phraseFor(FREQUENCY_PHRASES, 'frequency', p.rent_frequency));
  // A commercial rent saved before rents were yearly unless said was sent without one: the service read it monthly.
  else if (query.operation === 'search-commercial-rent')
    parts.push(phraseFor(FREQUENCY_PHRASES, 'frequency', 'monthly'));
  if (p.furnishing) parts.push(phraseFor(FURNISHING_PHRASES, 'furnishing', p.furnishing));
  if (p.completion_status) parts.push(phraseFor(COMPLETION_PHRASES, 'completion', p.completion_status));
  if (p.amenities) parts.push(...p.amenities.split(',').map((a) => phraseFor(AMENITY_PHRASES, 'amenity', a)));
  if (p.period) parts.push(phraseFor(PERIOD_PHRASES, 'period', p.period));
  if (p.category) parts.push(CATEGORY_WORDS[p.category] ?? p.category);
  if (p.sort) {
    const sorts = SORTS_BY_FAMILY[family] ?? {};
    const key = (Object.keys(sorts) as SortKey[]).find((k) => sorts[k] === p.sort);
    parts.push(key ? sortPhrase(family, key) : p.sort);
  }
  if (p.fromDate) parts.push(`from ${p.fromDate}`);
  if (p.toDate) parts.push(`to ${p.toDate}`);
  if (p.location) parts.push(phraseFor(EMIRATE_PHRASES, 'emirate', p.location));
  if (p.page !== undefined) parts.push(`page ${Number(p.page) + 1 - (spec.firstPage ?? 1)}`);
  parts.push(wordsText(query.words));
  return parts.filter((x): x is string => x !== undefined && x !== '').join(' ');
}
