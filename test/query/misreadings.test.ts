// No silent misreading (issue 17): an amount is a price only when it is one. Each misreading of the issue's "Why" is
// here as it was typed; on the second edition each of these searched something else without saying so.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RENT_FLOOR, SALE_FLOOR, parseCommand, summarize, toParams } from '../../src/query/index.js';
import { parsed } from './helpers.js';

function refused(text: string) {
  const result = parseCommand(text);
  if (result.ok) expect.fail(`"${text}" was accepted: ${JSON.stringify(result.query)}`);
  return result;
}

describe('the misreadings of the issue', () => {
  it('"/rent jlt 1br under 75 grand" is up to AED 75,000 in JLT (it was AED 75 in a place called "jlt grand")', () => {
    const q = parsed('/rent jlt 1br under 75 grand');
    expect(q.params).toEqual({ bedrooms: '1', price_max: '75000' });
    expect(q.location).toBe('jlt');
    expect(summarize(q, 'Jumeirah Lake Towers')).toBe(
      '1-bedroom homes for rent in Jumeirah Lake Towers, up to AED 75,000 a year',
    );
  });

  it('"seventy five grand" is spelled out the same way', () => {
    expect(parsed('/rent jlt under seventy five grand').params).toEqual({ price_max: '75000' });
  });

  it('an area written with dots is an area, never a price limit', () => {
    for (const text of [
      '/rent marina 1200 sq.ft.',
      '/rent marina 1200 sq. ft.',
      '/rent marina 1200sq.ft',
      '/rent marina over 1200 sq.ft.',
    ]) {
      const q = parsed(text);
      expect(q.params, text).toEqual({ area_min: '1200' });
      expect(q.location, text).toBe('marina');
    }
  });

  it('a number followed by a word it does not know is not taken as a price', () => {
    expect(refused('/rent jlt 1br under 75 grnd').error).toBe(
      'I couldn\'t read "under 75 grnd": "grnd" is no unit I know. For a price, write "75k" or "75,000 aed"; for an area, "75 sqft"; ' +
        'if "grnd" is part of the place, put the place first or in quotes.',
    );
    expect(refused('/rent marina 1200 sqfeet').error).toMatch(
      /^I couldn't read "1200 sqfeet": "sqfeet" is no unit I know/,
    );
    expect(refused('/rent 2br 120000 springfield').error).toMatch(
      /if "springfield" is part of the place, put the place first or in quotes/,
    );
    // The area first, or a unit the language knows, and it reads.
    expect(parsed('/rent springfield 2br 120000').params).toEqual({ bedrooms: '2', price_max: '120000' });
    expect(parsed('/rent 2br 120000 "springfield"').location).toBe('springfield');
  });

  it('a word after a number that is an area, a filter or a typo of one leaves the number a price', () => {
    expect(parsed('/rent 2br 120000 dubai marina').params).toEqual({ bedrooms: '2', price_max: '120000' });
    expect(parsed('/rent 2br 120000 furnished jvc').params).toEqual({
      bedrooms: '2',
      price_max: '120000',
      furnishing: 'furnished',
    });
    expect(parsed('/rent jvc 120000 furnishd').params).toEqual({ price_max: '120000', furnishing: 'furnished' });
  });

  it('a count of rooms or a span of time after a bound is not a price of a few dirhams', () => {
    expect(refused('/rent marina under 2 baths').error).toBe(
      'I can\'t read "under 2 baths" as a price, and rooms are counted rather than bounded: try "1-2 baths" or "2+ baths".',
    );
    expect(refused('/buy marina under 1-3 br').error).toMatch(/^I can't read "under 1-3 br" as a price/);
    expect(refused('/projects dubai hills upto 3 months').error).toMatch(
      /^I can't read "upto 3 months" as a price: "months" counts time/,
    );
  });
});

describe('areas in every spelling', () => {
  const feet: [string, string][] = [
    ['/rent marina 1000 sqft', '1000'],
    ['/rent marina 1000 sq ft', '1000'],
    ['/rent marina 1000 square feet', '1000'],
    ['/rent marina 1000 ft²', '1000'],
    ['/rent marina 1000 sq.ft.', '1000'],
    ['/rent marina 1000 sq. ft.', '1000'],
  ];
  it.each(feet)('%s is square feet, as typed', (text, sqft) => {
    const q = parsed(text);
    expect(q.params).toEqual({ area_min: sqft });
    expect(q.corrections).toBeUndefined();
  });

  const metres: [string, string][] = [
    ['/rent marina 100 sqm', '100 sqm'],
    ['/rent marina 100 sq m', '100 sq m'],
    ['/rent marina 100 m2', '100 m2'],
    ['/rent marina 100 m²', '100 m2'],
    ['/rent marina 100 square metres', '100 square metres'],
    ['/rent marina 100sqm', '100sqm'],
  ];
  it.each(metres)('%s is converted to square feet (x 10.7639, rounded), and the summary says so', (text, said) => {
    const q = parsed(text);
    expect(q.params).toEqual({ area_min: '1076' });
    expect(summarize(q, 'Dubai Marina')).toBe(
      `Homes for rent in Dubai Marina, at least 1,076 sqft (read "${said}" as 1,076 sqft)`,
    );
  });

  it('converts both ends of a range of square metres', () => {
    const q = parsed('/buy marina between 100 and 150 sqm');
    expect(q.params).toEqual({ area_min: '1076', area_max: '1615' });
    expect(q.corrections).toEqual(['read "between 100 and 150 sqm" as 1,076 to 1,615 sqft']);
  });
});

describe('a price too small to be one is not searched: "did you mean …?"', () => {
  it('a rent below AED 1,000 a year asks, offering the search it would run', () => {
    const result = refused('/rent marina 2br under 80');
    expect(result.error).toBe(
      '"under 80" reads as AED 80 a year, less than any rent, so I didn\'t search. Did you mean 80,000?',
    );
    expect(result.suggestion?.label).toBe('Yes, 80,000');
    expect(result.suggestion?.query).toMatchObject({
      operation: 'search-rent',
      params: { bedrooms: '2', price_max: '80000' },
      location: 'marina',
    });
    expect(summarize(result.suggestion!.query, 'Dubai Marina')).toBe(
      '2-bedroom homes for rent in Dubai Marina, up to AED 80,000 a year (read "under 80" as AED 80,000)',
    );
  });

  it('a monthly rent is compared by the year, and the suggestion keeps the month', () => {
    expect(parsed('/rent marina under 500 monthly').params).toEqual({ price_max: '500', rent_frequency: 'monthly' });
    const result = refused('/rent marina under 8 monthly');
    expect(result.error).toMatch(/reads as AED 8 a month, .* Did you mean 8,000 a month\?$/);
    expect(result.suggestion?.query.params).toEqual({ price_max: '8000', rent_frequency: 'monthly' });
  });

  it('a sale price below AED 10,000 asks, by a million when a thousand is still too small', () => {
    expect(refused('/buy marina under 500').suggestion?.query.params).toEqual({ price_max: '500000' });
    const result = refused('/buy downtown 2 bed under 2.5');
    expect(result.error).toBe(
      '"under 2.5" reads as AED 2.5, less than any sale price, so I didn\'t search. Did you mean 2,500,000?',
    );
    expect(result.suggestion?.query.params).toEqual({ bedrooms: '2', price_max: '2500000' });
  });

  it('asks about both ends of a range, and about a currency said with too small an amount', () => {
    expect(refused('/rent marina 80-120').error).toMatch(/Did you mean 80,000 to 120,000\?$/);
    expect(refused('/rent marina 75 aed').error).toMatch(/Did you mean 75,000\?$/);
  });

  it('searches amounts at the floors, and a range starting at 0', () => {
    expect(parsed(`/rent marina under ${RENT_FLOOR}`).params).toEqual({ price_max: '1000' });
    expect(parsed(`/buy marina under ${SALE_FLOOR}`).params).toEqual({ price_max: '10000' });
    expect(parsed('/buy marina 0-2m').params).toEqual({ price_min: '0', price_max: '2000000' });
  });

  it('property: no command with an unknown word after a number yields a price below the floors without saying so', () => {
    const word = fc.stringMatching(/^[a-z]{3,9}$/);
    const amount = fc.oneof(
      fc.integer({ min: 1, max: 999 }),
      fc.integer({ min: 1, max: 99_999 }),
      fc.integer({ min: 1, max: 99 }).map((n) => n / 10),
    );
    const verb = fc.constantFrom('/rent', '/buy', '/projects', '/manzil rent', '/rent office', '/buy commercial');
    const area = fc.constantFrom('marina', 'jvc', 'al barsha 1', '"Business Bay"', 'downtown', '');
    const bound = fc.constantFrom('', 'under ', 'over ', 'max ', 'upto ', 'between 1 and ', 'aed ');
    const after = fc.constantFrom('', ' monthly', ' a month', ' per year', ' weekly');
    fc.assert(
      fc.property(verb, area, bound, amount, after, word, fc.boolean(), (v, p, b, n, a, w, areaFirst) => {
        const text = areaFirst ? `${v} ${p} ${b}${n}${a} ${w}` : `${v} ${b}${n}${a} ${w} ${p}`;
        const result = parseCommand(text);
        if (!result.ok) return; // refused: nothing searched
        const params = toParams(result.query);
        const perYear = { yearly: 1, monthly: 12, weekly: 52, daily: 365 }[params.rent_frequency ?? 'yearly'] ?? 1;
        const rent = result.query.operation.includes('rent');
        for (const price of [params.price_min, params.price_max]) {
          if (price === undefined || Number(price) === 0) continue;
          expect(rent ? Number(price) * perYear >= RENT_FLOOR : Number(price) >= SALE_FLOOR, text).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
