// Requests without a verb (issue 27, "talk like a person"): "cheapest 3 bedroom villa in dubai hills", "a 2 bed flat
// in jlt for less than 100 grand a year". A rent period or a rent-sized amount is a rent, a sale-sized one a sale;
// with neither, the person is asked "to rent or to buy?", with a choice for each, never "I don't know".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuery, parseCommand, type Query } from '../../src/query/index.js';
import { RENT_BELOW_AED, SALE_FROM_AED } from '../../src/query/verbless.js';
import { parsed } from './helpers.js';

const SIZES: readonly (readonly [text: string, bedrooms: string])[] = [
  ['studio', '0'],
  ['1 bed', '1'],
  ['one bedroom', '1'],
  ['2 bedroom', '2'],
  ['2br', '2'],
  ['three beds', '3'],
  ['3 bdrm', '3'],
  ['4 bedrooms', '4'],
  ['5 bed', '5'],
];
const KINDS: readonly (readonly [text: string, type: string | undefined])[] = [
  ['', undefined],
  ['villa', 'villa'],
  ['villas', 'villa'],
  ['flat', 'apartment'],
  ['apartment', 'apartment'],
  ['apt', 'apartment'],
  ['townhouse', 'townhouse'],
  ['penthouse', 'penthouse'],
];
// With known areas that end in a number or hold a filter's word: the price and the rooms after them stay filters.
const AREAS = [
  'dubai hills',
  'jlt',
  'jvc',
  'dubai marina',
  'business bay',
  'downtown',
  'arabian ranches',
  'palm jumeirah',
  'al barsha',
  'jumeirah 1',
  'damac hills 2',
  'villa lantana',
];
const SORTS: readonly (readonly [text: string, sort: string | undefined])[] = [
  ['', undefined],
  ['cheapest', 'price_asc'],
  ['lowest price', 'price_asc'],
  ['most expensive', 'price_desc'],
  ['priciest', 'price_desc'],
  ['newest', 'newest'],
  ['latest', 'newest'],
];
const PERIODS: readonly (readonly [text: string, frequency: string | undefined])[] = [
  ['', undefined],
  ['a year', 'yearly'],
  ['per year', 'yearly'],
  ['yearly', 'yearly'],
  ['monthly', 'monthly'],
  ['per month', 'monthly'],
  ['a month', 'monthly'],
];

/** An amount as people type it, and its value in AED: thousands or millions, in figures or words. */
const amount = fc.oneof(
  fc
    .tuple(fc.integer({ min: 5, max: 990 }), fc.constantFrom('k', ',000', ' grand', 'k aed', ' thousand'))
    .map(([n, unit]) => ({ text: `${n}${unit}`, aed: n * 1_000 })),
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('m', ' million', 'm aed'))
    .map(([n, unit]) => ({ text: `${n}${unit}`, aed: n * 1_000_000 })),
  fc.constantFrom(
    { text: 'half a million', aed: 500_000 },
    { text: '1.5m', aed: 1_500_000 },
    { text: 'aed 95,000', aed: 95_000 },
  ),
);
/** A maximum price, in the ways people bound one. */
const price = fc
  .tuple(fc.constantFrom('under', 'below', 'for less than', 'up to', 'budget of', 'max', ''), amount)
  .map(([bound, a]) => ({ text: `${bound} ${a.text}`.trim(), aed: a.aed }));

const parts = fc.record({
  lead: fc.constantFrom('', 'a', 'any', 'please', 'hi'),
  size: fc.constantFrom(...SIZES),
  kind: fc.constantFrom(...KINDS),
  area: fc.constantFrom(...AREAS),
  price: fc.option(price, { nil: undefined }),
  period: fc.constantFrom(...PERIODS),
  sort: fc.constantFrom(...SORTS),
  trail: fc.constantFrom('', 'please', 'thanks', '?'),
  order: fc.constantFrom('sort first', 'place last', 'place first'),
});
type Parts = typeof parts extends fc.Arbitrary<infer T> ? T : never;

function sentence(p: Parts): string {
  const what = `${p.size[0]} ${p.kind[0]}`;
  const cost = p.price ? `${p.price.text} ${p.period[0]}` : '';
  const words =
    p.order === 'sort first'
      ? [p.lead, p.sort[0], what, 'in', p.area, cost]
      : p.order === 'place last'
        ? [p.lead, what, cost, 'in', p.area, p.sort[0]]
        : [p.lead, p.area, what, 'for', cost, p.sort[0]];
  return `/manzil ${words.join(' ')} ${p.trail}`.replace(/\s+/g, ' ').trim();
}

/** What must be understood, whichever way round it was read. */
function expectParts(q: Query, p: Parts, text: string): void {
  expect(q.location, text).toBe(p.area);
  expect(q.params.bedrooms, text).toBe(p.size[1]);
  expect(q.params.property_type, text).toBe(p.kind[1]);
  expect(q.params.sort, text).toBe(p.sort[1]);
  expect(q.params.price_max, text).toBe(p.price ? String(p.price.aed) : undefined);
}

describe('a request without a verb', () => {
  it('property: a rent period or a rent-sized amount is a rent, a sale-sized amount a sale, and otherwise it asks', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const text = sentence(p);
        const result = parseCommand(text);
        const frequency = p.price ? p.period[1] : undefined;
        const deal = frequency
          ? 'rent'
          : !p.price
            ? 'ask'
            : p.price.aed < RENT_BELOW_AED
              ? 'rent'
              : p.price.aed >= SALE_FROM_AED
                ? 'buy'
                : 'ask';
        if (deal === 'ask') {
          expect(result.ok, text).toBe(false);
          if (result.ok) return;
          expect(result.error, text).toMatch(/^To rent or to buy\? Choose one, or type `\/rent .+` or `\/buy .+`\.$/);
          expect(result.error, text).not.toMatch(/I don't know/);
          expect(
            result.choices?.map((c) => [c.label, c.query.operation]),
            text,
          ).toEqual([
            ['Rent', 'search-rent'],
            ['Buy', 'search-buy'],
          ]);
          for (const choice of result.choices!) {
            expectParts(choice.query, p, text);
            // The command the question shows for it is that very search.
            const command = `/${formatQuery(choice.query)}`;
            expect(result.error, text).toContain(`\`${command}\``);
            expect(parsed(command), text).toEqual(choice.query);
          }
          return;
        }
        if (!result.ok) expect.fail(`"${text}" was refused: ${result.error}`);
        expect(result.query.operation, text).toBe(deal === 'rent' ? 'search-rent' : 'search-buy');
        expect(result.query.params.rent_frequency, text).toBe(frequency);
        expectParts(result.query, p, text);
      }),
      { numRuns: 1500 },
    );
  }, 90_000);

  it('reads the examples of the issue, and others of their kind', () => {
    expect(parsed('cheapest 3 bedroom villa for sale in dubai hills')).toMatchObject({
      operation: 'search-buy',
      params: { sort: 'price_asc' },
    });
    expect(parsed('a 2 bed flat in jlt for less than 100 grand a year')).toEqual({
      operation: 'search-rent',
      params: { property_type: 'apartment', bedrooms: '2', price_max: '100000', rent_frequency: 'yearly' },
      location: 'jlt',
      unknownWords: [],
    });
    expect(parsed('/manzil 2 bed flat in jlt under 100k a year').operation).toBe('search-rent');
    expect(parsed('office in business bay under 200k').operation).toBe('search-commercial-rent');
    // A number ending a known area ("Jumeirah 1") that starts an amount in words is the amount.
    expect(parsed('studio in palm jumeirah 1 million')).toMatchObject({
      operation: 'search-buy',
      params: { price_max: '1000000' },
      location: 'palm jumeirah',
    });
    expect(parsed('4 bed villa in arabian ranches between 3m and 5m')).toMatchObject({
      operation: 'search-buy',
      params: { price_min: '3000000', price_max: '5000000' },
    });
    // Only a sale can be "ready": the one reading the service can take is the answer.
    expect(parsed('ready 2br townhouse in dubai hills')).toMatchObject({
      operation: 'search-buy',
      params: { completion_status: 'ready' },
    });
  });

  it('asks when neither a price nor a period says which, and about the past when a period of time is given', () => {
    for (const text of [
      'cheapest 3 bedroom villa in dubai hills',
      '3 bed villa in dubai hills',
      'furnished studio in jvc',
      '2 bed apartment in marina under 600k',
    ]) {
      const result = parseCommand(text);
      expect(result, text).toMatchObject({ ok: false, error: expect.stringMatching(/^To rent or to buy\?/) });
      // In the terminal, where commands have no slash, the commands to type have none either.
      if (!result.ok) expect(result.error, text).toMatch(/type `rent .+` or `buy .+`\.$/);
    }
    const past = parseCommand('2 bed in marina last 6 months');
    expect(past.ok).toBe(false);
    if (past.ok) return;
    expect(past.error).toMatch(/^Rented or sold\?/);
    expect(past.choices?.map((c) => [c.label, c.query.params.transaction_type])).toEqual([
      ['Rented', 'rented'],
      ['Sold', 'sold'],
    ]);
  });

  it('a tiny amount is asked about as in any rent ("did you mean 90,000?"), and words that are no search get the old answer', () => {
    expect(parseCommand('2 bed in marina under 90')).toMatchObject({ ok: false, suggestion: { label: 'Yes, 90,000' } });
    // An area alone, a number alone or a greeting and a word is no request: the verbs are listed, as before.
    for (const text of ['/manzil marina', '/manzil 12345', '/hello marina'])
      expect(parseCommand(text), text).toMatchObject({ ok: false, error: expect.stringMatching(/^I don't know/) });
    expect(parseCommand('3 bed villa')).toMatchObject({ ok: false, error: expect.stringMatching(/^Where\?/) });
  });
});
