// What no listing can be is refused as it is read, in every form a number is typed: prices above AED 10 billion, sizes
// above 10 million sqft, more than 20 bedrooms or bathrooms, and numbers too long to be finite. Never searched, never
// saved.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';
import { impossibleValue } from '../../src/query/limits.js';
import { parsed } from './helpers.js';

const NINES_26 = '9'.repeat(26); // read as 9.999999999999999e+25
const NINES_400 = '9'.repeat(400); // read as Infinity

function refusal(text: string): string {
  const result = parseCommand(text);
  if (result.ok) expect.fail(`"${text.slice(0, 60)}" was accepted: ${JSON.stringify(result.query.params)}`);
  return result.error;
}

const PRICE =
  /is more than any property costs, so I didn't search\. I search prices up to AED 10 billion; try "under 1\.2m"\.$/;
const AREA =
  /is bigger than any property, so I didn't search\. I search sizes up to 10 million sqft; try "over 1000 sqft"\.$/;

describe('prices beyond any listing', () => {
  it.each([
    [`/rent marina under ${NINES_26}`, `"under ${NINES_26}"`],
    ['/buy marina under 10,000,000,001', '"under 10,000,000,001"'],
    ['/buy marina 20000000k', '"20000000k"'],
    ['/buy marina under 10000.5m', '"under 10000.5m"'],
    ['/buy marina under 20000 million', '"under 20000 million"'],
    ['/buy marina under 15000 million aed', '"under 15000 million aed"'],
    ['/buy marina over 20000m', '"over 20000m"'],
    ['/buy marina 20001m max', '"20001m max"'],
    ['/buy marina 20000m+', '"20000m +"'],
    ['/buy marina between 1m and 99999999999m', '"between 1m and 99999999999m"'],
    ['/buy marina 1m-20000m', '"1m-20000m"'],
    ['/rent office business bay under 20000m', '"under 20000m"'],
    ['/buy office business bay over 99999999999', '"over 99999999999"'],
    ['/buy marina off-plan under 99999999999999', '"under 99999999999999"'],
    ['/projects marina under 20000m', '"under 20000m"'],
    ['/rent marina under 20000000k monthly', '"under 20000000k"'],
  ])('refuses %s, quoting what was typed', (text, quoted) => {
    const error = refusal(text);
    expect(error).toMatch(PRICE);
    expect(error.startsWith(quoted)).toBe(true);
  });

  it('refuses a number too long to be finite, quoting it cut short rather than as "Infinity"', () => {
    const error = refusal(`/rent marina under ${NINES_400}`);
    expect(error).toMatch(PRICE);
    expect(error).toMatch(/^"under 9{24}…" is more than any property costs/);
    expect(error).not.toMatch(/Infinity|e\+/);
    expect(error.length).toBeLessThan(200);
  });

  it('draws the line at AED 10 billion itself, and still searches ordinary amounts in every form', () => {
    expect(parsed('/buy marina under 10000m').params.price_max).toBe('10000000000');
    expect(refusal('/buy marina under 10,000,000,000.01')).toMatch(PRICE);
    expect(parsed('/buy marina under 10,000,000,000 aed').params.price_max).toBe('10000000000');
    expect(parsed('/rent marina 2br under 120k').params.price_max).toBe('120000');
    expect(parsed('/buy marina 1.2m').params.price_max).toBe('1200000');
    expect(parsed('/buy marina under 2 million').params.price_max).toBe('2000000');
    expect(parsed('/buy marina under two hundred thousand').params.price_max).toBe('200000');
    expect(parsed('/buy marina between 1m and 2m').params).toMatchObject({
      price_min: '1000000',
      price_max: '2000000',
    });
  });
});

describe('sizes beyond any property', () => {
  it.each([
    ['/rent marina over 99999999999999999999 sqft', '"over 99999999999999999999 sqft"'],
    ['/rent marina over 10000001 sqft', '"over 10000001 sqft"'],
    ['/rent marina 2br 20000000 sqft', '"20000000 sqft"'],
    ['/buy marina between 1000 and 20000000 sq ft', '"between 1000 and 20000000 sq ft"'],
    // 1,000,000 sqm is 10,763,900 sqft: judged in the square feet sent.
    ['/rent marina over 1000000 sqm', '"over 1000000 sqm"'],
    ['/buy marina over nine hundred million sqft', '"over 900m sqft"'],
    ['/rent office business bay over 50000000 sqft', '"over 50000000 sqft"'],
    ['/projects marina over 20000000 sqft', '"over 20000000 sqft"'],
  ])('refuses %s', (text, quoted) => {
    const error = refusal(text);
    expect(error).toMatch(AREA);
    expect(error.startsWith(quoted)).toBe(true);
  });

  it(`refuses ${NINES_400.length} nines of sqft`, () => {
    expect(refusal(`/rent marina over ${NINES_400} sqft`)).toMatch(AREA);
  });

  it('draws the line at 10 million sqft itself', () => {
    expect(parsed('/rent marina over 10000000 sqft').params.area_min).toBe('10000000');
    expect(refusal('/rent marina over 10000000.5 sqft')).toMatch(AREA);
  });
});

describe('more rooms than any home', () => {
  it.each([
    // A range to a huge count was spelled out as every count between: the parser ran out of memory or threw.
    ['/rent marina 1-99999999999 br', '99999999999 bedrooms is more than I can search for; the most is 20.'],
    [
      '/rent marina 1 to 99999999999999999999999 baths',
      '"1 to 99999999999999999999999 baths" is more bathrooms than I can search for; the most is 20. Try "2+ baths".',
    ],
    [
      '/rent marina at least 99999999999999999999 beds',
      '"at least 99999999999999999999 beds" is more bedrooms than I can search for; the most is 20. Try "3+ br".',
    ],
    [
      '/rent marina 99999999999999999999+ br',
      '"99999999999999999999+ br" is more bedrooms than I can search for; the most is 20. Try "3+ br".',
    ],
  ])('refuses %s', (text, error) => {
    expect(refusal(text)).toBe(error);
  });

  it.each([
    `/rent marina ${NINES_400} br`,
    `/rent marina ${NINES_400}+ br`,
    `/rent marina at least ${NINES_400} beds`,
    `/rent marina 1-${NINES_400} baths`,
  ])('refuses a count too long to be finite: %#', (text) => {
    expect(refusal(text)).toMatch(/^"[^"]{1,40}" is more (bedrooms|bathrooms) than I can search for; the most is 20\./);
  });

  it('draws the line at 20 of each, and reads "3+" as before', () => {
    expect(parsed('/rent marina 20 br 20 baths').params).toMatchObject({ bedrooms: '20', bathrooms: '20' });
    expect(refusal(`/rent marina 3-${NINES_400} br`)).toMatch(/^"3-9{28}…" is more bedrooms than I can search for/);
    expect(parsed('/rent marina 3+ br').params.bedrooms).toBe('3,4,5,6,7');
    expect(parsed('/rent marina 2 beds or more').params.bedrooms).toBe('2,3,4,5,6,7');
  });
});

describe('any amount, any form', () => {
  it('refuses every price above AED 10 billion and every size above 10 million sqft, without throwing', () => {
    const big = fc.bigInt({ min: 10_000_000_001n, max: 10n ** 40n }).map(String);
    fc.assert(
      fc.property(big, fc.constantFrom('under', 'over', 'max', 'min', ''), (n, bound) => {
        expect(refusal(`/buy marina ${bound} ${n}`.replace(/ +/g, ' '))).toMatch(PRICE);
        expect(refusal(`/buy marina ${bound} ${n} sqft`.replace(/ +/g, ' '))).toMatch(AREA);
      }),
      { numRuns: 200 },
    );
  });
});

describe('impossibleValue: a saved query judged from its parameters', () => {
  it('names what no listing can be, in the forms older versions saved', () => {
    expect(impossibleValue({ params: { price_max: 'Infinity' } })).toBe('a price above AED 10 billion');
    expect(impossibleValue({ params: { price_min: '9.999999999999999e+25' } })).toBe('a price above AED 10 billion');
    expect(impossibleValue({ params: { area_min: '100000000000000000000' } })).toBe('a size above 10 million sqft');
    expect(impossibleValue({ params: { bedrooms: '1,2,25' } })).toBe('more than 20 bedrooms');
    expect(impossibleValue({ params: { bathrooms: 'NaN' } })).toBe('more than 20 bathrooms');
    // What can match passes.
    expect(
      impossibleValue({
        params: { price_max: '10000000000', area_min: '10000000', bedrooms: '0,1,20', bathrooms: '2' },
      }),
    ).toBeUndefined();
    expect(impossibleValue({ params: {} })).toBeUndefined();
  });
});
