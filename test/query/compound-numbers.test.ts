// Compound numbers in words (issue 39): "one hundred and fifty thousand", "one million two hundred thousand", "a million
// and a half" are one amount in every price form (under, over, between … and …, from … to …, a bare amount), never two.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';
import { parsed } from './helpers.js';

const UNITS = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

interface Style {
  /** "a hundred" rather than "one hundred", "a million" rather than "one million". */
  article: boolean;
  /** "one hundred and fifty" rather than "one hundred fifty". */
  and: boolean;
}

/** 1..999 in words, as people say it. */
function below1000(n: number, style: Style): string[] {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const out: string[] = [];
  if (hundreds > 0) out.push(hundreds === 1 && style.article ? 'a' : UNITS[hundreds]!, 'hundred');
  if (rest > 0) {
    if (hundreds > 0 && style.and) out.push('and');
    if (rest < 20) out.push(UNITS[rest]!);
    else out.push(TENS[Math.floor(rest / 10)]!, ...(rest % 10 ? [UNITS[rest % 10]!] : []));
  }
  return out;
}

/** millions * 1,000,000 + thousands * 1,000 in words: "one million two hundred and fifty thousand". */
function inWords(millions: number, thousands: number, style: Style): string {
  const words: string[] = [];
  if (millions > 0) words.push(...below1000(millions, style), 'million');
  if (thousands > 0)
    words.push(...below1000(thousands, millions > 0 ? { ...style, article: false } : style), 'thousand');
  return words.join(' ');
}

const amount = fc
  .record({
    millions: fc.integer({ min: 0, max: 40 }),
    thousands: fc.integer({ min: 0, max: 999 }),
    style: fc.record({ article: fc.boolean(), and: fc.boolean() }),
  })
  .filter(({ millions, thousands }) => millions * 1_000_000 + thousands * 1_000 >= 10_000);
const value = (a: { millions: number; thousands: number }) => a.millions * 1_000_000 + a.thousands * 1_000;

describe('compound numbers in words', () => {
  it.each([
    ['/rent marina 2br under one hundred and fifty thousand', { bedrooms: '2', price_max: '150000' }],
    ['/rent jvc a hundred and twenty thousand', { price_max: '120000' }],
    ['/buy downtown one million two hundred thousand', { price_max: '1200000' }],
    ['/buy downtown under a million and a half', { price_max: '1500000' }],
    ['/rent jlt eighty five thousand', { price_max: '85000' }],
    ['/buy palm jumeirah over two and a half million', { price_min: '2500000' }],
    [
      '/rent jvc between eighty thousand and one hundred and twenty thousand',
      { price_min: '80000', price_max: '120000' },
    ],
    ['/rent jvc from ninety thousand to a hundred and ten thousand', { price_min: '90000', price_max: '110000' }],
    ['/buy marina above one million seven hundred and fifty thousand', { price_min: '1750000' }],
    ['/rent marina under two hundred fifty k', { price_max: '250000' }],
  ])('%s', (text, params) => {
    expect(parsed(text).params).toEqual(params);
  });

  it('keep a count after an amount apart: "one hundred thousand two bedrooms" is AED 100,000 and 2 bedrooms', () => {
    expect(parsed('/rent jvc one hundred thousand two bedrooms').params).toEqual({
      bedrooms: '2',
      price_max: '100000',
    });
    expect(parsed('/buy marina one thousand two hundred sqft').params).toEqual({ area_min: '1200' });
  });

  it('keep two amounts of a range apart, whatever the scale of each', () => {
    expect(parsed('/buy jvc between one million and two million').params).toEqual({
      price_min: '1000000',
      price_max: '2000000',
    });
    expect(parsed('/buy jvc between nine hundred thousand and one million two hundred thousand').params).toEqual({
      price_min: '900000',
      price_max: '1200000',
    });
  });

  it('read any compound amount as the one number meant, under, over and bare', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom('under', 'over', 'max', ''), (a, bound) => {
        const text = `/buy marina ${bound} ${inWords(a.millions, a.thousands, a.style)}`.replace(/\s+/g, ' ');
        const result = parseCommand(text);
        expect(result.ok, text).toBe(true);
        if (!result.ok) return;
        const key = bound === 'over' ? 'price_min' : 'price_max';
        expect(result.query.params, text).toEqual({ [key]: String(value(a)) });
        expect(result.query.location, text).toBe('marina');
      }),
      { numRuns: 400 },
    );
  });

  it('read any two compound amounts of a range as its two ends', () => {
    fc.assert(
      fc.property(amount, amount, fc.constantFrom(['between', 'and'], ['from', 'to']), (a, b, [open, join]) => {
        const [low, high] = value(a) <= value(b) ? [a, b] : [b, a];
        if (value(low) === value(high)) return;
        const text = `/buy marina ${open} ${inWords(low.millions, low.thousands, low.style)} ${join} ${inWords(
          high.millions,
          high.thousands,
          high.style,
        )}`;
        const result = parseCommand(text);
        expect(result.ok && result.query.params, text).toEqual({
          price_min: String(value(low)),
          price_max: String(value(high)),
        });
      }),
      { numRuns: 300 },
    );
  });
});
