// An area text never carries the command's own words (issue 38): the verbs and keywords of each operation, said
// before or after the area, in terse commands and sentences, leave the area words as the area alone.
import { describe, expect, it } from 'vitest';
import { readingOf } from '../../src/bot/pipeline/reading.js';

const AREAS = ['jvc', 'dubai marina', 'business bay', 'al reem island', 'saadiyat', 'arabian ranches', 'jlt'];

/** Each operation's words around an area ({a}): the operation expected, and the params it must carry. */
const FORMS: [string, string, Record<string, string>?][] = [
  ['rent {a} 2br', 'search-rent'],
  ['{a} for rent', 'search-rent'],
  ['rentals in {a}', 'search-rent'],
  ['buy {a} villa', 'search-buy'],
  ['for sale in {a}', 'search-buy'],
  ['villas for sale in {a}', 'search-buy'],
  ['rent office {a}', 'search-commercial-rent'],
  ['projects {a}', 'search-new-projects'],
  ['new projects in {a}', 'search-new-projects'],
  ['{a} new projects', 'search-new-projects'],
  ['trend {a}', 'price-trend-of-location'],
  ['price trend of {a}', 'price-trend-of-location'],
  ['{a} price trend', 'price-trend-of-location'],
  ['agents in {a}', 'search-agents'],
  ['brokers in {a}', 'search-brokers'],
  ['transactions sold {a} last 3 months', 'get-get-transactions', { transaction_type: 'sold', period: '3m' }],
  ['transactions sold {a} transactions', 'get-get-transactions', { transaction_type: 'sold' }],
  ['sold transactions in {a}', 'get-get-transactions', { transaction_type: 'sold' }],
  ['sold {a} transactions', 'get-get-transactions', { transaction_type: 'sold' }],
  ['rented transactions {a} last 6 months', 'get-get-transactions', { transaction_type: 'rented', period: '6m' }],
  ['{a} transactions sold', 'get-get-transactions', { transaction_type: 'sold' }],
  ['{a} sold transactions last month', 'get-get-transactions', { transaction_type: 'sold', period: '1m' }],
  ['transactions in {a} rented', 'get-get-transactions', { transaction_type: 'rented' }],
  ['what sold in {a} last month', 'get-get-transactions', { transaction_type: 'sold', period: '1m' }],
  ['show me sold transactions in {a}', 'get-get-transactions', { transaction_type: 'sold' }],
  ['txn rented {a} records', 'get-get-transactions', { transaction_type: 'rented' }],
];

/** ADREC reads districts, not an area: each is the district alone. */
const ADREC_FORMS = [
  'adrec {a}',
  'adrec {a} transactions',
  'adrec transactions in {a}',
  'adrec records in {a}',
  'abu dhabi transactions in {a}',
  'abu dhabi records in {a} since 2024',
  '{a} adrec transactions',
];

const titled = (a: string) => a.replace(/\b\w/g, (c) => c.toUpperCase());

describe('an area text is the area alone', () => {
  it.each(FORMS.flatMap(([form, op, params]) => AREAS.map((a) => [form.replace('{a}', a), a, op, params ?? {}])))(
    '%s: the area is "%s"',
    (text, area, operation, params) => {
      expect(readingOf(text as string)).toMatchObject({ operation, location: area, params });
    },
  );

  it.each(ADREC_FORMS.flatMap((form) => AREAS.map((a) => [form.replace('{a}', a), a])))(
    '%s: the district is "%s"',
    (text, area) => {
      expect(readingOf(text)).toMatchObject({
        operation: 'get-adrec-transactions',
        params: { district: titled(area) },
      });
    },
  );

  it('"abu dhabi transactions in saadiyat last 3 months" names ADREC and its one limit, never "abu dhabi transactions saadiyat"', () => {
    const r = readingOf('abu dhabi transactions in saadiyat last 3 months');
    expect(JSON.stringify(r)).not.toMatch(/transactions saadiyat|abu dhabi saadiyat/i);
    expect(r).toEqual({ error: expect.stringMatching(/^ADREC records can't be filtered by time period/) });
  });
});
