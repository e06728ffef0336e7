// Phrasings of the second edition that an audit found misread: separators after amounts, room abbreviations, swapped
// letters, chat words in questions, handover years, bounds after a rent period, zero and negative values, reversed
// room ranges, colons, "point" in number words, and corrections in `manzil parse`.
import { describe, expect, it } from 'vitest';
import { parseCommand, parseToJson, summarize } from '../../src/query/index.js';
import { expectRow, parsed, type Row } from './helpers.js';

const R = 'search-rent';
const B = 'search-buy';
const T = 'get-get-transactions';
const P = 'search-new-projects';

describe('a dash after an amount or an area, before rooms, separates filters', () => {
  const rows: Row[] = [
    [
      '/manzil flats for rent dubai marina under 100k - 2 bed - balcony',
      R,
      { property_type: 'apartment', bedrooms: '2', price_max: '100000', amenities: 'balcony' },
      'dubai marina',
    ],
    [
      '/manzil flats to rent in jlt 90k - 1 bed',
      R,
      { property_type: 'apartment', bedrooms: '1', price_max: '90000' },
      'jlt',
    ],
    ['/buy downtown 1.2m - 3 beds', B, { bedrooms: '3', price_max: '1200000' }, 'downtown'],
    ['/buy jvc 1000 sqft - 2 baths', B, { bathrooms: '2', area_min: '1000' }, 'jvc'],
    [
      '/manzil townhouse to buy in the springs, aed 3m - 1 or 2 beds',
      B,
      { property_type: 'townhouse', bedrooms: '1,2', price_max: '3000000' },
      'springs',
    ],
    ['/rent business bay 70k-2br', R, { bedrooms: '2', price_max: '70000' }, 'business bay'],
    // Between two amounts, a spaced dash is still a range.
    ['/rent marina 80k - 120k - 2 beds', R, { bedrooms: '2', price_min: '80000', price_max: '120000' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('says nothing was reversed', () =>
    expect(parsed('/manzil flats to rent in jlt 90k - 1 bed').corrections).toBeUndefined());
});

describe('bedroom abbreviations and swapped letters', () => {
  const rows: Row[] = [
    ['/manzil 3 bdrm to rent in marina', R, { bedrooms: '3' }, 'marina'],
    ['/manzil 3 bedrm villa for sale in the meadows', B, { bedrooms: '3', property_type: 'villa' }, 'meadows'],
    ['/manzil 2 bdrms for sale in jvc', B, { bedrooms: '2' }, 'jvc'],
    ['/rent al furjan 4bdrm', R, { bedrooms: '4' }, 'al furjan'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('reads two neighbouring letters swapped as one slip, and says so', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/manzil stuido to rent in jvc', { bedrooms: '0' }, 'read "stuido" as studio'],
      [
        '/manzil flats for sale in jvc newset first',
        { property_type: 'apartment', sort: 'newest' },
        'read "newset" as newest',
      ],
      [
        '/manzil 1 bed to rent in jlt with a balocny',
        { bedrooms: '1', amenities: 'balcony' },
        'read "balocny" as balcony',
      ],
      [
        '/manzil a furnsihed flat to rent in motor city',
        { property_type: 'apartment', furnishing: 'furnished' },
        'read "furnsihed" as furnished',
      ],
    ];
    for (const [text, params, note] of cases) {
      const q = parsed(text);
      expect(q.params, text).toEqual(params);
      expect(q.corrections, text).toEqual([note]);
    }
  });
});

describe('chat words in questions about the past and the best', () => {
  const rows: Row[] = [
    ['/manzil what was rented in al barsha last year', T, { transaction_type: 'rented', period: '1y' }, 'al barsha'],
    ["/manzil what's been sold in jvc lately", T, { transaction_type: 'sold' }, 'jvc'],
    ['/manzil what has recently been rented in the greens?', T, { transaction_type: 'rented' }, 'greens'],
    [
      '/manzil how many villas rented in mira last year',
      T,
      { transaction_type: 'rented', property_type: 'villa', period: '1y' },
      'mira',
    ],
    [
      '/manzil how much were 2br flats sold for in jvc in the past 6 months',
      T,
      { transaction_type: 'sold', bedrooms: '2', property_type: 'apartment', period: '6m' },
      'jvc',
    ],
    ['/manzil upcoming projects in jvc', P, {}, 'jvc'],
    ['/manzil who are the top brokers in downtown', 'search-brokers', {}, 'downtown'],
    ['/manzil best agents in marina for rentals', 'search-agents', { category: 'residential_rent' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('reads "this year" as the last 12 months, and says so', () => {
    const q = parsed('/manzil what has been rented in jvc this year');
    expect(q.params).toEqual({ transaction_type: 'rented', period: '1y' });
    expect(q.location).toBe('jvc');
    expect(summarize(q, 'Jumeirah Village Circle')).toBe(
      'Rental transactions in Jumeirah Village Circle, last 12 months (read "this year" as the last 12 months)',
    );
    expect(parsed('/sold marina villa this month')).toMatchObject({
      params: { period: '1m' },
      corrections: ['read "this month" as the last month'],
    });
  });
});

describe('a year after a handover word is refused, never a price', () => {
  const help = 'To see the soonest first, sort by it, like "/projects dubai hills earliest handover".';
  const cases: [string, string][] = [
    ['/projects dubai hills handover 2026', `I can't search by handover year ("handover 2026"). ${help}`],
    ['/manzil new projects in jvc completion 2027', `I can't search by handover year ("completion 2027"). ${help}`],
    [
      '/manzil off plan villas in damac hills with delivery in q3 2028',
      `I can't search by handover year ("delivery in q3 2028"). ${help}`,
    ],
    [
      '/manzil any 2026 handover projects in business bay?',
      `I can't search by handover year ("2026 handover"). ${help}`,
    ],
  ];
  it.each(cases)('%s', (text, error) => expect(parseCommand(text)).toEqual({ ok: false, error }));

  it('still reads a price next to the handover sort', () => {
    expectRow([
      '/projects dubai hills under 2026000 earliest handover',
      P,
      { price_max: '2026000', sort: 'delivery_earliest' },
      'dubai hills',
    ]);
  });
});

describe('"or less" and "or more" after a rent period or before more filters', () => {
  const rows: Row[] = [
    [
      '/manzil flats to rent in marina 10k per month or less',
      R,
      { property_type: 'apartment', price_max: '10000', rent_frequency: 'monthly' },
      'marina',
    ],
    [
      '/rent jvc studio 4,500 a month or under',
      R,
      { bedrooms: '0', price_max: '4500', rent_frequency: 'monthly' },
      'jvc',
    ],
    ['/rent jlt 60k per year or more', R, { price_min: '60000', rent_frequency: 'yearly' }, 'jlt'],
    [
      '/manzil villas for sale in the springs 1,500 sqft or more two million max',
      B,
      { property_type: 'villa', area_min: '1500', price_max: '2000000' },
      'springs',
    ],
    ['/buy marina 2m or less 1000 sqft', B, { price_max: '2000000', area_min: '1000' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('zero and negative values are refused with the right unit', () => {
  const price0 = 'A price of AED 0 can\'t match a listing. Try "under 120k".';
  const cases: [string, string][] = [
    ['/rent marina under 0', price0],
    ['/rent marina max 0k', price0],
    ['/manzil flats to rent in jvc for 0 aed or less', price0],
    ['/buy marina 0-0', price0],
    ['/buy marina under 0 sqft', 'An area of 0 sqft can\'t match a property. Try "over 1000 sqft".'],
    ['/rent marina -2 beds', 'A number of bedrooms can\'t be negative ("-2"). Try "2br" or "1-3 br".'],
    [
      '/manzil flats to rent in jvc with -1 bathroom',
      'A number of bathrooms can\'t be negative ("-1"). Try "2 baths" or "1-2 baths".',
    ],
  ];
  it.each(cases)('%s', (text, error) => expect(parseCommand(text)).toEqual({ ok: false, error }));

  it('still takes a range from 0', () =>
    expectRow(['/rent marina 0-100k', R, { price_min: '0', price_max: '100000' }, 'marina']));
});

describe('a bedroom range written backwards', () => {
  it('is read the right way round, and the summary says so', () => {
    const q = parsed('/rent marina 5 to 2 bedrooms');
    expect(q.params).toEqual({ bedrooms: '2,3,4,5' });
    expect(summarize(q, 'Dubai Marina')).toBe(
      '2- to 5-bedroom homes for rent in Dubai Marina (read "5 to 2 bedrooms" as 2 to 5 bedrooms)',
    );
    expect(parsed('/manzil 3-1 br flats to buy in jvc').corrections).toEqual(['read "3-1 br" as 1 to 3 bedrooms']);
    expect(parsed('/buy jvc 3 - 2 baths').corrections).toEqual(['read "3-2 baths" as 2 to 3 bathrooms']);
    expect(parsed('/rent jvc 1-3 br').corrections).toBeUndefined();
  });
});

describe('a colon ending a word separates', () => {
  const rows: Row[] = [
    [
      '/manzil for sale: five bedroom villa in emirates hills',
      B,
      { bedrooms: '5', property_type: 'villa' },
      'emirates hills',
    ],
    ['/manzil to buy: villa in arabian ranches', B, { property_type: 'villa' }, 'arabian ranches'],
    ['/manzil jlt: 1 bed to rent', R, { bedrooms: '1' }, 'jlt'],
    ['/rent marina: 2br: furnished', R, { bedrooms: '2', furnishing: 'furnished' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('"point" in number words', () => {
  const rows: Row[] = [
    ['/buy marina two point five million', B, { price_max: '2500000' }, 'marina'],
    [
      '/manzil villas for sale in emirates hills over one point two five million',
      B,
      { property_type: 'villa', price_min: '1250000' },
      'emirates hills',
    ],
    ['/buy jvc under three point five m', B, { price_max: '3500000' }, 'jvc'],
    ['/rent marina seven point five thousand a month', R, { price_max: '7500', rent_frequency: 'monthly' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('reads a fraction of rooms as the digits would be read: refused', () => {
    expect(parseCommand('/rent marina two point five baths')).toEqual(parseCommand('/rent marina 2.5 baths'));
    expect(parseCommand('/rent marina 2.5 baths').ok).toBe(false);
  });
});

describe('parseToJson', () => {
  it('includes the corrections when there are any', () => {
    expect(parseToJson('/manzil 2 bedrms to rent in marina')).toEqual({
      operation: R,
      params: { bedrooms: '2' },
      location: 'marina',
      corrections: ['read "bedrms" as bedrooms'],
    });
    expect(parseToJson('/rent marina 120k-80k')).toMatchObject({
      corrections: ['read "120k-80k" as AED 80,000 to 120,000'],
    });
    expect(parseToJson('/rent marina 2br')).not.toHaveProperty('corrections');
  });
});
