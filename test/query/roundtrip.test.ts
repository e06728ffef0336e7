// Properties over many commands: any Query written back as text parses to itself, and whatever parses
// is accepted by the operation table (so nothing the parser produces is refused before sending).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMENITIES,
  OPERATIONS,
  OPERATION_NAMES,
  checkParams,
  type OperationName,
  type ParamSpec,
} from '../../src/api/operations.js';
import { formatQuery, parseCommand, toParams, type Query } from '../../src/query/index.js';
import { MAX_SIZE_SQFT } from '../../src/query/limits.js';

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9'.-]{0,11}$/);
/** Area names as the parser keeps them: single spaces, no quotes. */
const area = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
/** Sizes the parser searches: none bigger than MAX_SIZE_SQFT (no property is), which is refused instead. */
const amount = fc.oneof(
  fc.integer({ min: 0, max: MAX_SIZE_SQFT }),
  fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
);
/**
 * Prices the parser searches: none below AED 10,000 (a sale) or 1,000 a year (a rent) is searched, it is asked about
 * instead.
 */
const price = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 10_000, max: 2_000_000_000 }),
  fc.integer({ min: 1_000_000, max: 10_000_000 }).map((n) => n / 100),
);
const dmy = fc.date({
  min: new Date(Date.UTC(2000, 0, 1)),
  max: new Date(Date.UTC(2030, 11, 31)),
  noInvalidDate: true,
});
const dmyText = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

/** One optional pair of bounds, min <= max. */
const bounds = (lo: string, hi: string, value: fc.Arbitrary<number> = amount) =>
  fc.tuple(fc.option(value), fc.option(value)).map(([a, b]) => {
    const out: Record<string, string> = {};
    const [min, max] = a !== null && b !== null && a > b ? [b, a] : [a, b];
    if (min !== null) out[lo] = String(min);
    if (max !== null) out[hi] = String(max);
    return out;
  });

/** An arbitrary for one parameter, read from the operation table itself. */
function paramArbitrary(op: OperationName, name: string, spec: ParamSpec): fc.Arbitrary<string> | undefined {
  const firstPage = (OPERATIONS[op] as { firstPage?: number }).firstPage ?? 1;
  if (name === 'page') return fc.integer({ min: firstPage, max: 500 }).map(String);
  if (name === 'amenities') return fc.subarray([...AMENITIES], { minLength: 1 }).map((a) => a.join(','));
  if (spec.values && spec.list)
    return fc.uniqueArray(fc.constantFrom(...spec.values), { minLength: 1, maxLength: 4 }).map((v) => v.join(','));
  if (spec.values) return fc.constantFrom(...spec.values);
  if (spec.format === 'counts')
    return fc
      .uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 5 })
      .map((v) => v.sort((a, b) => a - b).join(','));
  if (spec.format === 'count') return fc.integer({ min: 0, max: 20 }).map(String);
  if (spec.format === 'id') return fc.stringMatching(/^[0-9]{1,12}$/);
  if (name === 'district') return fc.uniqueArray(area, { minLength: 1, maxLength: 3 }).map((d) => d.join(','));
  if (name === 'query') return area;
  return undefined; // bounds and dates are generated in pairs
}

const SKIP = new Set(['location_id', 'size', 'price_min', 'price_max', 'area_min', 'area_max', 'fromDate', 'toDate']);

function queryArbitrary(op: OperationName): fc.Arbitrary<Query> {
  const specs = OPERATIONS[op].params as Record<string, ParamSpec>;
  const singles: Record<string, fc.Arbitrary<string>> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    if (SKIP.has(name)) continue;
    const arb = paramArbitrary(op, name, spec);
    if (!arb) continue;
    singles[name] = arb;
    // A commercial rent always says its period now (yearly unless a month is said).
    if (spec.required || (op === 'search-commercial-rent' && name === 'rent_frequency')) required.push(name);
  }
  const location = specs.location_id ? (specs.location_id.required ? area : fc.option(area)) : fc.constant(null);
  const dates = specs.fromDate
    ? fc.tuple(fc.option(dmy), fc.option(dmy)).map(([a, b]) => {
        const [from, to] = a && b && a > b ? [b, a] : [a, b];
        return { ...(from ? { fromDate: dmyText(from) } : {}), ...(to ? { toDate: dmyText(to) } : {}) };
      })
    : fc.constant({});
  return fc
    .tuple(
      fc.record(singles, { requiredKeys: required }),
      specs.price_min ? bounds('price_min', 'price_max', price) : fc.constant({}),
      specs.area_min ? bounds('area_min', 'area_max') : fc.constant({}),
      dates,
      location,
    )
    .map(([params, price, size, when, loc]) => ({
      operation: op,
      params: { ...(params as Record<string, string>), ...price, ...size, ...when },
      location: loc,
      unknownWords: [],
    }));
}

const anyQuery = fc.constantFrom(...OPERATION_NAMES).chain(queryArbitrary);

describe('formatQuery', () => {
  it('writes any Query as text that parses back to the same operation, params and location', () => {
    fc.assert(
      fc.property(anyQuery, (query) => {
        const text = formatQuery(query);
        const again = parseCommand(text);
        if (!again.ok) throw new Error(`"${text}" was refused: ${again.error}`);
        expect({
          operation: again.query.operation,
          params: again.query.params,
          location: again.query.location,
        }).toEqual({
          operation: query.operation,
          params: query.params,
          location: query.location,
        });
      }),
      { numRuns: 3000 },
    );
    // CPU alone: about 2.5 s on an idle core, and a loaded machine gives each worker a fraction of one.
  }, 90_000);
});

// Fragments people type, good and bad, to be combined at random.
const FRAGMENTS = [
  'marina',
  'dubai marina',
  '"Business Bay"',
  'jvc',
  'al barsha 1',
  'in',
  'the',
  'and',
  ',',
  'with',
  '2br',
  'studio',
  '1-3 br',
  '3+ br',
  '1 or 2 beds',
  '2 baths',
  '12x br',
  '2.5 baths',
  'studio or 1br',
  'under 120k',
  'over 1.2m',
  '80k-120k',
  'between 1m and 2m',
  '120,000 aed',
  'aed 90000',
  'upto',
  'under',
  '1000-2000 sqft',
  'over 100 sqm',
  'monthly',
  '10k per month',
  'weekly',
  'pa',
  'apartment',
  'villa',
  'office',
  'warehouse',
  'th',
  'hotel apartments',
  'plot',
  'commercial',
  'residential',
  'furnished',
  'unfurnished',
  'semi-furnished',
  'ready',
  'off-plan',
  'pool',
  'gym',
  'sea view',
  "maid's room",
  'newest',
  'cheapest',
  'most expensive',
  'earliest handover',
  'oldest',
  'most sales',
  'most agents',
  'featured',
  'last year',
  '6m',
  '3 months',
  'last month',
  'page 2',
  'p3',
  'page 0',
  'sold',
  'rented',
  'rent',
  'sale',
  'detailed',
  'from 01/02/2024',
  'to 28/02/2024',
  'abu dhabi',
  'rak',
  'furnishd',
  '???',
  '—',
  '12345',
];
const VERB_WORDS = [
  '/rent',
  '/buy',
  '/projects',
  '/transactions',
  '/sold',
  '/txn rented',
  '/adrec',
  '/trend',
  '/agents',
  '/brokers',
  '/agent 123',
  '/broker 45',
  '/property 99',
  '/developers',
  '/location',
  '/manzil rent',
  'buy',
  '/offplan',
];

describe('parseCommand over random commands', () => {
  it('never throws, and whatever it accepts passes the operation table with a location id', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VERB_WORDS),
        fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 8 }),
        (verb, parts) => {
          const result = parseCommand([verb, ...parts].join(' '));
          if (!result.ok) {
            expect(result.error.length).toBeGreaterThan(0);
            return;
          }
          const q = result.query;
          expect(checkParams(q.operation, toParams(q, 50))).toEqual([]);
          // JSON-serialisable, as saved searches store it.
          expect(JSON.parse(JSON.stringify(q))).toEqual(q);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
