// Properties of the command language over every way of writing an amount, a price per sqft and an alert's delivery
// words: commands are generated from parts, and what the parser makes of them is checked against the number meant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE_AED } from '../../src/query/limits.js';
import { parseCommand, takeDeliveryWords } from '../../src/query/index.js';

const grouped = (n: number) => n.toLocaleString('en-US');
const SPACES = fc.constantFrom(' ', '  ');

/** An amount in AED and a way of writing it: digits, grouped, k, thousand, m, million, with AED before or after. */
const amount = fc
  .oneof(
    fc
      .integer({ min: 10_000, max: 9_999_999 })
      .chain((n) => fc.constantFrom(String(n), grouped(n), `${grouped(n)}.00`).map((t) => [n, t] as const)),
    fc
      .integer({ min: 10, max: 9_999 })
      .chain((k) =>
        fc
          .constantFrom(`${k}k`, `${k}K`, `${k} k`, `${k} thousand`, `${k} thousands`, `${k} grand`)
          .map((t) => [k * 1_000, t] as const),
      ),
    fc
      .integer({ min: 1, max: 99_990 })
      .chain((t) =>
        fc
          .constantFrom(
            `${t / 10}m`,
            `${t / 10}M`,
            `${t / 10} m`,
            `${t / 10} mn`,
            `${t / 10} mln`,
            `${t / 10} mil`,
            `${t / 10} million`,
            `${t / 10} millions`,
          )
          .map((s) => [t * 100_000, s] as const),
      ),
  )
  .chain(([n, t]) =>
    fc
      .constantFrom(
        (s: string) => s,
        (s: string) => `AED ${s}`,
        (s: string) => `Dhs ${s}`,
        (s: string) => `${s} AED`,
        (s: string) => `${s} dirhams`,
        // Written on, as in "AED120k" and "120kAED": the shorthand forms only.
        (s: string) => (/^[\d.,]+[km]?$/i.test(s) ? `AED${s}` : `AED ${s}`),
        (s: string) => (/^[\d.,]+[km]?$/i.test(s) ? `${s}aed` : `${s} aed`),
      )
      .map((written) => [n, written(t)] as const),
  );

const MAX_BOUNDS = [
  'under',
  'below',
  'less than',
  'up to',
  'upto',
  'max',
  'maximum',
  'no more than',
  'not more than',
  'at most',
  'not over',
  'not above',
  '<=',
  '≤',
  'price under',
  '',
];
const MIN_BOUNDS = [
  'over',
  'above',
  'more than',
  'at least',
  'min',
  'minimum',
  'not less than',
  'not under',
  'not below',
  '>=',
  '≥',
  'from',
];
const TRAILING = [
  ['max', 'price_max'],
  ['or less', 'price_max'],
  ['tops', 'price_max'],
  ['or more', 'price_min'],
  ['+', 'price_min'],
] as const;
const VERBS = [
  ['rent', 'search-rent'],
  ['buy', 'search-buy'],
] as const;

function accepted(typed: string) {
  const r = parseCommand(typed);
  if (!r.ok) throw new Error(`"${typed}" was refused: ${r.error}`);
  return r.query;
}

describe('an amount, in any form', () => {
  it(
    'gives the number meant, as a maximum, a minimum or after the amount, and the place keeps only its words',
    { timeout: 90_000 },
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...VERBS),
          amount,
          fc.oneof(
            fc.constantFrom(...MAX_BOUNDS).map((b) => [b, '', 'price_max'] as const),
            fc.constantFrom(...MIN_BOUNDS).map((b) => [b, '', 'price_min'] as const),
            fc.constantFrom(...TRAILING).map(([after, param]) => ['', after, param] as const),
          ),
          fc.boolean(),
          SPACES,
          ([verb, operation], [n, written], [before, after, param], areaFirst, space) => {
            const filter = [before, written, after].filter(Boolean).join(after === '+' ? '' : space);
            const typed = areaFirst ? `${verb} marina 2br ${filter}` : `${verb} ${filter} 2br marina`;
            const q = accepted(typed);
            expect(q.operation).toBe(operation);
            expect(q.params).toEqual({ bedrooms: '2', [param]: String(n) });
            expect(q.location).toBe('marina');
            expect(q.unknownWords).toEqual([]);
          },
        ),
        { numRuns: 600 },
      );
    },
  );

  it('a range in any form is read as its two ends, whichever comes first', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VERBS),
        amount,
        amount,
        fc.constantFrom('-', ' - ', ' to '),
        fc.boolean(),
        ([verb], [a, ta], [b, tb], dash, between) => {
          fc.pre(a !== b);
          const typed = between ? `${verb} marina between ${ta} and ${tb}` : `${verb} marina ${ta}${dash}${tb}`;
          const q = accepted(typed);
          expect({ min: q.params.price_min, max: q.params.price_max }).toEqual({
            min: String(Math.min(a, b)),
            max: String(Math.max(a, b)),
          });
          expect(q.location).toBe('marina');
        },
      ),
      { numRuns: 400 },
    );
  });

  it(
    'beyond AED 10 billion in any form is refused with the friendly message, never searched, never a raw number',
    { timeout: 90_000 },
    () => {
      const huge = fc.oneof(
        fc
          .bigInt({ min: BigInt(MAX_PRICE_AED) + 1n, max: 10n ** 30n })
          .map((n) => [n.toString(), n.toLocaleString('en-US')]),
        fc.integer({ min: 10_001, max: 10 ** 9 }).map((m) => [`${m}m`, `${m} million`, `AED ${m}M`]),
        fc.integer({ min: 10_000_001, max: 10 ** 12 }).map((k) => [`${k}k`, `${k} thousand`]),
      );
      fc.assert(
        fc.property(
          fc.constantFrom(...VERBS),
          huge,
          fc.constantFrom('under', 'over', 'max', 'at most', 'not over', ''),
          ([verb], forms, bound) => {
            for (const written of forms) {
              const r = parseCommand(`${verb} marina ${bound} ${written}`);
              expect(r.ok).toBe(false);
              if (!r.ok) {
                expect(r.error).toMatch(
                  /is more than any property costs, so I didn't search\. I search prices up to AED 10 billion/,
                );
                expect(r.error).not.toMatch(/Infinity|e\+|NaN|Error/);
              }
            }
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  it('below any rent or sale price is refused with "did you mean", never searched', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom('under', 'below', 'at most', 'not over', 'max'),
        fc.constantFrom(...VERBS),
        (n, bound, [verb]) => {
          const r = parseCommand(`${verb} marina ${bound} ${n}`);
          expect(r.ok).toBe(false);
          if (!r.ok)
            expect(r.error).toMatch(/less than any (rent|sale price), so I didn't search\. Did you mean [\d,]+\?/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

const SQFT_AFTER = [
  'per sqft',
  'per sq ft',
  'per sq. ft.',
  'per square foot',
  'per square feet',
  'per square ft',
  'per sq foot',
  'per sf',
  'per ft2',
  'per ft²',
  'a sq ft',
  'a sqft',
  'a square foot',
  '/sqft',
  '/ sqft',
  '/sq ft',
  '/sq.ft.',
  'psf',
  'PSF',
  'p.s.f.',
  'aed/sqft',
  'AED/sq ft',
  'dhs/sqft',
  'aed per sqft',
  'AED psf',
  'dirhams per sqft',
];
const SQFT_BEFORE = [
  'per sqft',
  'price per sqft',
  'price per sq ft',
  'psf',
  'price psf',
  'price/sqft',
  'aed/sqft',
  'rate per sqft',
];
const SEARCHES = [
  ['rent office dmcc', 'search-commercial-rent', 'dmcc'],
  ['buy shop in jlt', 'search-commercial-buy', 'jlt'],
  ['rent marina 1br', 'search-rent', 'marina'],
] as const;
const PERIODS = [
  ['', undefined],
  [' /yr', 'yearly'],
  ['/yr', 'yearly'],
  [' per year', 'yearly'],
  [' a month', 'monthly'],
  ['/month', 'monthly'],
] as const;

describe('a price per sqft, in any form', () => {
  it(
    'is read as a price per sqft: never a price, never "did you mean 150,000", never a place word',
    { timeout: 90_000 },
    () => {
      const written = fc
        .integer({ min: 1, max: 20_000 })
        .chain((n) =>
          fc
            .constantFrom(
              String(n),
              grouped(n),
              `AED ${n}`,
              `${n}${n % 1000 === 0 ? '' : '.00'}`,
              ...(n % 1000 === 0 ? [`${n / 1000}k`] : []),
            )
            .map((t) => [n, t] as const),
        );
      fc.assert(
        fc.property(
          fc.constantFrom(...SEARCHES),
          written,
          fc.oneof(
            fc.constantFrom(...SQFT_AFTER).map((u) => ['after', u] as const),
            fc.constantFrom(...SQFT_BEFORE).map((u) => ['before', u] as const),
          ),
          fc.constantFrom(
            ['under', 'max'],
            ['below', 'max'],
            ['at most', 'max'],
            ['over', 'min'],
            ['at least', 'min'],
            ['', 'max'],
          ),
          fc.constantFrom(...PERIODS),
          ([search, operation, area], [n, amountText], [where, unit], [bound, side], [period, frequency]) => {
            const filter =
              where === 'after'
                ? `${bound} ${amountText}${unit.startsWith('/') ? '' : ' '}${unit}`
                : `${unit} ${bound} ${amountText}`;
            const typed = `${search} ${filter}${operation.includes('rent') ? period : ''}`.replace(/ +/g, ' ');
            const q = accepted(typed);
            expect(q.operation).toBe(operation);
            expect(q.perSqft).toEqual({ [side!]: n });
            expect(q.params.price_min ?? q.params.price_max).toBeUndefined();
            expect(q.location).toBe(area);
            expect(q.unknownWords).toEqual([]);
            if (frequency && operation.includes('rent')) expect(q.params.rent_frequency).toBe(frequency);
          },
        ),
        { numRuns: 600 },
      );
    },
  );

  it('written fused to the number ("150psf", "150/sqft", "150aed/sqft") is read the same', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.constantFrom('psf', '/sqft', 'aed/sqft', '/sq ft', 'psf/yr', '/sqft/yr'),
        (n, unit) => {
          const q = accepted(`rent office dmcc under ${n}${unit}`);
          expect(q.perSqft).toEqual({ max: n });
          expect(q.location).toBe('dmcc');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('said with no amount is asked about, not searched as an area', { timeout: 90_000 }, () => {
    for (const unit of SQFT_BEFORE) {
      const r = parseCommand(`rent marina ${unit}`);
      expect(r.ok, unit).toBe(false);
      if (!r.ok) expect(r.error).toBe(`"${unit}" what? Add an amount, like "under 150 per sqft".`);
    }
  });
});

const DELIVERY = [
  'daily',
  'weekly',
  'hourly',
  'nightly',
  'everyday',
  'every day',
  'every single day',
  'each day',
  'every morning',
  'each week',
  'every week',
  'every fortnight',
  'once daily',
  'twice daily',
  'once a day',
  'twice a week',
  'every 2 hours',
  'every 15 mins',
  'every 3 hrs',
  'every hr',
  'every twelve hours',
  'every weekday morning',
  'each sunday evening',
  'on mondays',
  'weekdays',
  'daily at 9am',
  'every day at 8:30',
  'at 7 pm',
  'asap',
  'real-time',
  'instantly',
  'as soon as possible',
];
const ALERT_SEARCHES = [
  ['rent', 'jvc', '1br', 'under 90k'],
  ['buy', 'downtown', 'villa', 'over 2m'],
  ['rent', 'business bay', 'office', '1000-2000 sqft'],
  ['rent', 'jlt', 'studio', 'furnished'],
];

describe('a delivery word in /alerts add', () => {
  it(
    'anywhere in the command, in any case, is taken out whole: never a rent period, never a place word',
    { timeout: 90_000 },
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...DELIVERY),
          fc.constantFrom(...ALERT_SEARCHES),
          fc.nat(),
          fc.constantFrom('lower', 'upper', 'title'),
          (word, search, at, casing) => {
            const said =
              casing === 'upper'
                ? word.toUpperCase()
                : casing === 'title'
                  ? word.replace(/^./, (c) => c.toUpperCase())
                  : word;
            const k = at % (search.length + 1);
            const typed = [...search.slice(0, k), said, ...search.slice(k)].join(' ');
            const taken = takeDeliveryWords(typed);
            expect(taken.words).toEqual([said]);
            const q = accepted(taken.text);
            expect(q.params.rent_frequency ?? 'yearly').toBe('yearly');
            expect(q.location).toBe(search[1]);
            expect(q.unknownWords).toEqual([]);
            // The same search without the word reads the same: nothing of it is left to change the search.
            expect(q).toEqual(accepted(search.join(' ')));
          },
        ),
        { numRuns: 500 },
      );
    },
  );

  it('leaves a rent period written as one, and an area in quotes, as they are', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DELIVERY),
        fc.constantFrom(['per day', 'daily'], ['per week', 'weekly'], ['monthly', 'monthly'], ['a month', 'monthly']),
        (word, [period, frequency]) => {
          const taken = takeDeliveryWords(`rent "Every Day Tower" studio under 5k ${period} ${word}`);
          expect(taken.words).toEqual([word]);
          const q = accepted(taken.text);
          expect(q.params.rent_frequency).toBe(frequency);
          expect(q.location).toBe('Every Day Tower');
        },
      ),
      { numRuns: 200 },
    );
  });
});
