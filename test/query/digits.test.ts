// Digits in any script (issue 17): Arabic-Indic (٠-٩) and Persian (۰-۹) digits, the Arabic decimal (٫) and thousands
// (٬)
// separators read as their Latin forms wherever numbers are read; area words in Arabic script go to the lookup as
// typed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';
import { parsed } from './helpers.js';

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹';
/** The text with its digits in another script, and the decimal and thousands separators between digits too. */
const inScript = (text: string, digits: string) =>
  text
    .replace(/(?<=\d)\.(?=\d)/g, '٫')
    .replace(/(?<=\d),(?=\d)/g, '٬')
    .replace(/\d/g, (d) => digits[Number(d)]!);

describe('digits in any script', () => {
  it('reads the issue\'s example: "٣br under ٩٥k" (the second edition refused it)', () => {
    expect(parsed('/rent marina ٣br under ٩٥k').params).toEqual({ bedrooms: '3', price_max: '95000' });
    expect(parsed('/rent marina ۳br under ۹۵k').params).toEqual({ bedrooms: '3', price_max: '95000' });
  });

  it('reads the Arabic decimal and thousands separators', () => {
    expect(parsed('/buy marina under ١٫٥m').params).toEqual({ price_max: '1500000' });
    expect(parsed('/rent marina under ١٢٠٬٠٠٠').params).toEqual({ price_max: '120000' });
    expect(parsed('/adrec yas island since ١/١/٢٠٢٤').params).toEqual({
      fromDate: '01/01/2024',
      district: 'Yas Island',
    });
  });

  // Since issue 39 a known area's Arabic name is read as its English one (arabic-areas.ts); other Arabic area words
  // still go to the lookup as typed.
  it('reads known area names in Arabic as the area, other Arabic area words as typed, and the Arabic words for amounts', () => {
    const q = parsed('/rent البرشاء ٢br under ٧٥ ألف');
    expect(q.location).toBe('Al Barsha');
    expect(q.params).toEqual({ bedrooms: '2', price_max: '75000' });
    expect(parsed('/rent دبي مارينا ١br').location).toBe('Dubai Marina');
    expect(parsed('/rent حي الورود ١br').location).toBe('حي الورود');
  });

  it('property: any number in Arabic-Indic or Persian digits parses like its Latin form', { timeout: 90_000 }, () => {
    const number = fc.oneof(
      fc.integer({ min: 1, max: 9 }).map((n) => `${n}br`),
      fc.integer({ min: 1, max: 5 }).map((n) => `${n} baths`),
      fc.integer({ min: 1, max: 5 }).chain((n) => fc.integer({ min: n, max: 7 }).map((m) => `${n}-${m} br`)),
      fc.integer({ min: 1_000, max: 9_999_999 }).map((n) => `under ${n.toLocaleString('en-US')}`),
      fc.integer({ min: 10, max: 999 }).map((n) => `over ${n}k`),
      fc.integer({ min: 11, max: 99 }).map((n) => `under ${(n / 10).toFixed(1)}m`),
      fc.integer({ min: 100, max: 5_000 }).map((n) => `${n} sqft`),
      fc.integer({ min: 10, max: 500 }).map((n) => `over ${n} sqm`),
      fc.integer({ min: 2, max: 9 }).map((n) => `page ${n}`),
      fc.integer({ min: 1, max: 28 }).map((d) => `from ${d}/0${(d % 9) + 1}/2024`),
    );
    const verb = fc.constantFrom(
      '/rent marina',
      '/buy al barsha 1',
      '/projects jvc',
      '/adrec yas island',
      '/sold downtown',
      '/manzil flats to rent in jlt',
    );
    fc.assert(
      fc.property(
        verb,
        fc.array(number, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(ARABIC_INDIC, PERSIAN),
        (v, numbers, digits) => {
          const latin = `${v} ${numbers.join(' ')}`;
          expect(parseCommand(inScript(latin, digits)), latin).toEqual(parseCommand(latin));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
