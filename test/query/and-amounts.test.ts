// "One million and two hundred thousand" is one amount (issue 39, left by the compound-numbers work): "and" before a
// smaller scale goes on with the number, in every price form, while "between … and …" keeps its two bounds.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';

const params = (text: string) => {
  const r = parseCommand(text);
  if (!r.ok) throw new Error(`${text}: ${r.error}`);
  return r.query.params;
};

describe('"and" inside a spelled amount', () => {
  it.each([
    ['buy jvc under one million and two hundred thousand', { price_max: '1200000' }],
    ['buy marina over two million and five hundred thousand', { price_min: '2500000' }],
    ['buy downtown up to three million and fifty thousand', { price_max: '3050000' }],
    ['rent jlt under one hundred and fifty thousand', { price_max: '150000' }],
    [
      'buy jvc from one million and two hundred thousand to two million',
      { price_min: '1200000', price_max: '2000000' },
    ],
    [
      'buy jvc one million and two hundred thousand to one million and five hundred thousand',
      { price_min: '1200000', price_max: '1500000' },
    ],
    [
      '/manzil villas for sale in arabian ranches under four million and five hundred thousand',
      { price_max: '4500000' },
    ],
  ])('%s', (text, expected) => {
    expect(params(text)).toMatchObject(expected);
  });

  it.each([
    ['buy jvc between one million and two million', { price_min: '1000000', price_max: '2000000' }],
    ['buy marina between one million and two hundred thousand', { price_min: '200000', price_max: '1000000' }],
    ['buy marina between aed one million and two hundred thousand', { price_min: '200000', price_max: '1000000' }],
  ])('%s: "between … and …" is a range', (text, expected) => {
    expect(params(text)).toMatchObject(expected);
  });

  it.each([
    ['buy downtown over three million and two bedrooms', { price_min: '3000000', bedrooms: '2' }],
    ['buy jvc under two million and 3 beds', { price_max: '2000000', bedrooms: '3' }],
  ])('%s: "and" before a count is not part of the amount', (text, expected) => {
    expect(params(text)).toMatchObject(expected);
  });
});
