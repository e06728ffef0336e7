// Prices per square foot in the command language: every form and unit is read as a price per sqft (never a price, never
// an area word), per sqm is converted and said so, ranges both ways, and what no listing costs per sqft is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE_PER_SQFT } from '../../src/query/limits.js';
import { formatQuery, parseCommand, summarize } from '../../src/query/index.js';

const SQM = 10.7639;
const SQFT_UNITS = [
  'per sqft',
  'per sq ft',
  'per square foot',
  'per square feet',
  'aed/sqft',
  '/sqft',
  'psf',
  'aed per sqft',
  '/ sqft',
];
const SQM_UNITS = ['per sqm', 'per square metre', 'aed/sqm', 'per m2'];
const SEARCHES = [
  { text: 'rent office dmcc', operation: 'search-commercial-rent' },
  { text: 'buy shops in jlt', operation: 'search-commercial-buy' },
  { text: 'rent marina 2br', operation: 'search-rent' },
  { text: 'buy downtown apartment', operation: 'search-buy' },
];
const amount = fc.integer({ min: 1, max: 50_000 });
const grouped = (n: number) => n.toLocaleString('en-US');
const areas = ['dmcc', 'jlt', 'marina', 'downtown'];

describe('a price per sqft', () => {
  it('is read as one in every form, as a bound or a bare budget, and the area keeps only its words', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEARCHES),
        amount,
        fc.constantFrom(...SQFT_UNITS),
        fc.constantFrom(['under', 'max'], ['below', 'max'], ['over', 'min'], ['at least', 'min'], ['', 'max']),
        fc.boolean(),
        (search, n, unit, [bound, side], commas) => {
          const typed = `${search.text} ${bound} ${commas ? grouped(n) : n} ${unit}`.replace(/\s+/g, ' ');
          const r = parseCommand(typed);
          if (!r.ok) throw new Error(`${typed}: ${r.error}`);
          expect(r.query.operation).toBe(search.operation);
          expect(r.query.perSqft).toEqual({ [side!]: n });
          // Never a price sent to the service, never "Did you mean 150,000?", never a word of the area.
          expect(r.query.params.price_min ?? r.query.params.price_max).toBeUndefined();
          expect(areas).toContain(r.query.location);
          expect(summarize(r.query, 'X')).toContain(`AED ${grouped(n)} per sqft`);
          expect(summarize(r.query, 'X')).toContain('Manzil filters each page');
          // The canonical text reads back to the same search (saved buttons and `manzil parse` rely on it).
          const again = parseCommand(formatQuery(r.query));
          expect(again.ok && again.query.perSqft).toEqual(r.query.perSqft);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is a range either way round, the reversed one read the right way and said so', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEARCHES),
        amount,
        amount,
        fc.constantFrom(...SQFT_UNITS),
        fc.boolean(),
        (search, a, b, unit, dash) => {
          fc.pre(a !== b);
          const typed = dash ? `${search.text} ${a}-${b} ${unit}` : `${search.text} between ${a} and ${b} ${unit}`;
          const r = parseCommand(typed);
          if (!r.ok) throw new Error(`${typed}: ${r.error}`);
          expect(r.query.perSqft).toEqual({ min: Math.min(a, b), max: Math.max(a, b) });
          expect(areas).toContain(r.query.location);
          if (a > b) expect(summarize(r.query, 'X')).toMatch(/\(read ".*" as AED [\d,]+ to [\d,]+ per sqft\)/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('per sqm is converted to per sqft, and the summary says how it was read', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEARCHES), amount, fc.constantFrom(...SQM_UNITS), (search, n, unit) => {
        const r = parseCommand(`${search.text} under ${n} ${unit}`);
        if (!r.ok) throw new Error(r.error);
        const perSqft = Math.round((n / SQM) * 100) / 100;
        expect(r.query.perSqft).toEqual({ max: perSqft });
        expect(r.query.corrections?.join(' ')).toContain(`per sqft`);
      }),
      { numRuns: 200 },
    );
  });

  it('beyond any listing (over AED 100,000 per sqft, or no finite number) is refused, never searched', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEARCHES),
        fc.oneof(
          fc.integer({ min: MAX_PRICE_PER_SQFT + 1, max: 10 ** 12 }).map(String),
          fc.integer({ min: 101, max: 999 }).map((k) => `${k}k`),
          fc.constant('9'.repeat(30)),
        ),
        fc.constantFrom(...SQFT_UNITS),
        (search, n, unit) => {
          const r = parseCommand(`${search.text} under ${n} ${unit}`);
          expect(r.ok).toBe(false);
          if (!r.ok) {
            expect(r.error).toMatch(/is more per sqft than any property costs, so I didn't search/);
            expect(r.error).not.toMatch(/Infinity|e\+|Did you mean/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('"rent marina under 150k per sqft" is refused, not a search of a place called "marina per sqft"', () => {
    const r = parseCommand('rent marina under 150k per sqft');
    expect(r).toEqual({
      ok: false,
      error: expect.stringMatching(/^"under 150k per sqft" is more per sqft than any property costs/),
    });
  });

  it('is refused where there are no listings to filter, with a way forward', () => {
    for (const typed of [
      'sold marina under 1500 per sqft',
      'projects marina under 2000 psf',
      'agents marina under 100 per sqft',
    ]) {
      const r = parseCommand(typed);
      expect(r.ok, typed).toBe(false);
      if (!r.ok)
        expect(r.error).toMatch(/can't be filtered by price per sqft .*Try "\/rent office jlt under 150 per sqft"/);
    }
  });
});
