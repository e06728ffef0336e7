// Questions about the past (issue 17) go to transactions with the right type and period: the nearest of 1m, 3m, 6m and
// 1y
// that covers what was asked, said in the summary. ADREC reads "since", "from … to" and "between … and" as dates and
// keeps the words of the request out of the districts.
import { describe, expect, it } from 'vitest';
import { parseCommand, summarize } from '../../src/query/index.js';
import { parsed } from './helpers.js';

const T = 'get-get-transactions';

describe('questions about the past', () => {
  // The second edition refused each of these, or read it as a listing search, or put "did" into the area.
  const rows: [text: string, params: Record<string, string>, location: string, summary: string][] = [
    [
      '/manzil what did 2br in marina sell for',
      { bedrooms: '2', transaction_type: 'sold' },
      'marina',
      'Sold transactions in Dubai Marina, 2 bedrooms, last 12 months',
    ],
    [
      '/manzil how much did 1br in jvc rent for',
      { bedrooms: '1', transaction_type: 'rented' },
      'jvc',
      'Rental transactions in Dubai Marina, 1 bedroom, last 12 months',
    ],
    [
      '/manzil what did villas in arabian ranches sell for last year',
      { property_type: 'villa', period: '1y', transaction_type: 'sold' },
      'arabian ranches',
      'Sold transactions in Dubai Marina, villas, last 12 months',
    ],
    [
      '/manzil sold in marina last 4 months',
      { period: '6m', transaction_type: 'sold' },
      'marina',
      'Sold transactions in Dubai Marina, last 6 months (read "last 4 months" as the last 6 months)',
    ],
    [
      '/manzil rented in jvc last 2 months',
      { period: '3m', transaction_type: 'rented' },
      'jvc',
      'Rental transactions in Dubai Marina, last 3 months (read "last 2 months" as the last 3 months)',
    ],
    [
      '/manzil rentals in jvc over the last few months',
      { period: '3m', transaction_type: 'rented' },
      'jvc',
      'Rental transactions in Dubai Marina, last 3 months (read "over the last few months" as the last 3 months)',
    ],
    [
      '/manzil sales in downtown last 6 months',
      { period: '6m', transaction_type: 'sold' },
      'downtown',
      'Sold transactions in Dubai Marina, last 6 months',
    ],
    [
      '/manzil what have 1 beds in jlt sold for this year',
      { bedrooms: '1', period: '1y', transaction_type: 'sold' },
      'jlt',
      'Sold transactions in Dubai Marina, 1 bedroom, last 12 months (read "this year" as the last 12 months)',
    ],
    [
      '/sold marina last 2 weeks',
      { period: '1m', transaction_type: 'sold' },
      'marina',
      'Sold transactions in Dubai Marina, last month (read "last 2 weeks" as the last month)',
    ],
    [
      '/txn rented jvc studio in the past 8 months',
      { bedrooms: '0', period: '1y', transaction_type: 'rented' },
      'jvc',
      'Rental transactions in Dubai Marina, studios, last 12 months (read "in the past 8 months" as the last 12 months)',
    ],
  ];
  it.each(rows)('%s', (text, params, location, summary) => {
    const q = parsed(text);
    expect(q.operation).toBe(T);
    expect(q.params).toEqual(params);
    expect(q.location).toBe(location);
    expect(summarize(q, 'Dubai Marina')).toBe(summary);
  });

  it('refuses a span longer than the service keeps, and leaves listing searches as they were', () => {
    const result = parseCommand('/sold marina last 2 years');
    expect(result).toEqual({
      ok: false,
      error: 'Transactions go back 12 months at most ("last 2 years"). Try "last year".',
    });
    expect(parsed('/manzil did you find villas to rent in marina').operation).toBe('search-rent');
    expect(parsed('/manzil rentals in jvc under 80k').operation).toBe('search-rent');
  });
});

describe('ADREC dates', () => {
  const A = 'get-adrec-transactions';
  const rows: [text: string, params: Record<string, string>][] = [
    ['/adrec yas island since 01/01/2024', { fromDate: '01/01/2024', district: 'Yas Island' }],
    [
      '/adrec yas island from 01/01/2024 to 31/03/2024',
      { fromDate: '01/01/2024', toDate: '31/03/2024', district: 'Yas Island' },
    ],
    // The second edition read "between" as a price and refused the date.
    [
      '/adrec yas island between 01/01/2024 and 31/03/2024',
      { fromDate: '01/01/2024', toDate: '31/03/2024', district: 'Yas Island' },
    ],
    ['/adrec al reem island since 2024', { fromDate: '01/01/2024', district: 'Al Reem Island' }],
    [
      '/adrec saadiyat island between 2023 and 2024 villa',
      { propertyType: 'villa', fromDate: '01/01/2023', toDate: '31/12/2024', district: 'Saadiyat Island' },
    ],
    ['/adrec yas island before 2024', { toDate: '31/12/2023', district: 'Yas Island' }],
    // The second edition put "Transactions" and "Records" into the district.
    [
      '/manzil show me adrec transactions for al reem island since 1/1/2024',
      { fromDate: '01/01/2024', district: 'Al Reem Island' },
    ],
    [
      '/manzil adrec records in yas island between 01/01/2024 and 31/03/2024',
      { fromDate: '01/01/2024', toDate: '31/03/2024', district: 'Yas Island' },
    ],
  ];
  it.each(rows)('%s', (text, params) => {
    const q = parsed(text);
    expect(q.operation).toBe(A);
    expect(q.params).toEqual(params);
  });

  it('still reads "between" as amounts elsewhere, and refuses a date that is none', () => {
    expect(parsed('/buy marina between 1m and 2m').params).toEqual({ price_min: '1000000', price_max: '2000000' });
    expect(parseCommand('/adrec yas island since 31/02/2024')).toEqual({
      ok: false,
      error: 'I couldn\'t read "31/02/2024" as a date. Use DD/MM/YYYY, like "from 01/01/2024".',
    });
  });
});
