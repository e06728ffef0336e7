// The second edition's forms: sentences after /manzil, numbers in words, money and units in more forms, bedrooms with
// extras, delivery words, and the refusals of impossible values.
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand, summarize } from '../../src/query/index.js';
import { SENTENCE_EXAMPLE } from '../../src/query/help.js';
import { expectRow, parsed, type Row } from './helpers.js';

const R = 'search-rent';
const B = 'search-buy';
const T = 'get-get-transactions';
const P = 'search-new-projects';

describe('sentences: the verb anywhere, chat words ignored', () => {
  const rows: Row[] = [
    [
      '/manzil could you show me 2 bed flats for rent in jvc please',
      R,
      { bedrooms: '2', property_type: 'apartment' },
      'jvc',
    ],
    [
      "/manzil i'm after a furnished studio to rent around business bay",
      R,
      { bedrooms: '0', furnishing: 'furnished' },
      'business bay',
    ],
    ['/manzil any rentals in the greens under 80k?', R, { price_max: '80000' }, 'greens'],
    [
      '/manzil hi, looking for a townhouse to buy in the springs, thanks!',
      B,
      { property_type: 'townhouse' },
      'springs',
    ],
    [
      '/manzil villas for sale in emirates hills over 20m',
      B,
      { property_type: 'villa', price_min: '20000000' },
      'emirates hills',
    ],
    ['/manzil we want to buy a 4br in arabian ranches', B, { bedrooms: '4' }, 'arabian ranches'],
    ['/manzil what sold in downtown last quarter', T, { transaction_type: 'sold', period: '3m' }, 'downtown'],
    [
      '/manzil show me what rented in al barsha during the last 6 months',
      T,
      { transaction_type: 'rented', period: '6m' },
      'al barsha',
    ],
    [
      '/manzil price trend of villas in dubai hills',
      'price-trend-of-location',
      { property_type: 'villa' },
      'dubai hills',
    ],
    ['/manzil any new projects in business bay with 2br', P, { bedrooms: '2' }, 'business bay'],
    ['/manzil off plan townhouses in dubai south', P, { property_type: 'townhouse' }, 'dubai south'],
    // With a sale verb, "off plan" is the completion status, not the projects verb.
    [
      '/manzil apartments to buy off plan in jvc',
      B,
      { property_type: 'apartment', completion_status: 'off_plan' },
      'jvc',
    ],
    ['/manzil who are the agents in marina for sale', 'search-agents', { category: 'residential_sale' }, 'marina'],
    ['/rent can you find me a furnished 1br in marina', R, { bedrooms: '1', furnishing: 'furnished' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('reads the examples of the issue', () => {
    expectRow([
      '/manzil can you find 3 bedroom villas for sale in arabian ranches',
      B,
      { bedrooms: '3', property_type: 'villa' },
      'arabian ranches',
    ]);
    expectRow([
      '/manzil is there anything to rent in jlt for 1 bed under 90k?',
      R,
      { bedrooms: '1', price_max: '90000' },
      'jlt',
    ]);
    expectRow([
      '/manzil office space to rent near dubai internet city',
      'search-commercial-rent',
      { property_type: 'office-space', rent_frequency: 'yearly' },
      'dubai internet city',
    ]);
    expectRow([
      '/manzil what rented in jvc over the past year',
      T,
      { transaction_type: 'rented', period: '1y' },
      'jvc',
    ]);
  });

  it('help says sentences work, with an example that parses', () => {
    expect(helpText()).toContain(`Sentences work too, e.g. "${SENTENCE_EXAMPLE}"`);
    expect(parseCommand(SENTENCE_EXAMPLE)).toMatchObject({ ok: true, query: { operation: B } });
  });

  it('asks when a sentence names two verbs, and when it names none', () => {
    expect(parseCommand('/manzil what sold or rented in marina')).toEqual({
      ok: false,
      error: 'You asked for both "sold" and "rented". Pick one.',
    });
    expect(parseCommand('/manzil 2br in marina, to buy or for rent')).toEqual({
      ok: false,
      error: 'You asked for both "to buy" and "for rent". Pick one.',
    });
    const none = parseCommand('/manzil can you find me something nice in marina');
    expect(none).toMatchObject({ ok: false });
    if (!none.ok) expect(none.error).toMatch(/^I couldn't tell whether you want to rent, buy, or something else/);
    expect(parseCommand('/manzil hello there')).toEqual({
      ok: false,
      error:
        'Tell me what to look for, like "/manzil 2 bed flats to rent in marina". Say "help" to see everything I can do.',
    });
  });
});

describe('numbers in words', () => {
  const rows: Row[] = [
    ['/rent marina three beds', R, { bedrooms: '3' }, 'marina'],
    ['/rent marina two bedroom apartment', R, { bedrooms: '2', property_type: 'apartment' }, 'marina'],
    ['/rent marina two or three beds', R, { bedrooms: '2,3' }, 'marina'],
    ['/rent marina 2 beds three baths', R, { bedrooms: '2', bathrooms: '3' }, 'marina'],
    ['/rent marina under a hundred thousand', R, { price_max: '100000' }, 'marina'],
    ['/rent marina one hundred thousand', R, { price_max: '100000' }, 'marina'],
    ['/rent marina under ninety thousand', R, { price_max: '90000' }, 'marina'],
    ['/buy marina two million', B, { price_max: '2000000' }, 'marina'],
    ['/buy marina under half a million', B, { price_max: '500000' }, 'marina'],
    ['/buy marina one and a half million', B, { price_max: '1500000' }, 'marina'],
    ['/buy marina between two and three million', B, { price_min: '2000000', price_max: '3000000' }, 'marina'],
    ['/buy marina over two thousand sqft', B, { area_min: '2000' }, 'marina'],
    ['/sold marina last three months', T, { transaction_type: 'sold', period: '3m' }, 'marina'],
    ['/rent marina page two', R, { page: '2' }, 'marina'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('leaves number words that count nothing in the area', () => {
    expect(parsed("/buy one za'abeel 2br").location).toBe("one za'abeel");
    expect(parsed('/rent marina one').location).toBe('marina one');
    expect(parsed('/buy district one villa').location).toBe('district one');
  });
});

describe('money and units in more forms', () => {
  const rows: Row[] = [
    ['/rent marina 120k max', R, { price_max: '120000' }],
    ['/rent marina 120k maximum', R, { price_max: '120000' }],
    ['/rent marina 90k or less', R, { price_max: '90000' }],
    ['/rent marina 80k min', R, { price_min: '80000' }],
    ['/buy marina 2m or more', B, { price_min: '2000000' }],
    ['/buy marina 1.5m+', B, { price_min: '1500000' }],
    ['/buy marina 1,000 sqft or more', B, { area_min: '1000' }],
    ['/buy marina 2000 sqft or less', B, { area_max: '2000' }],
    ['/buy marina 1000+ sqft', B, { area_min: '1000' }],
    ['/buy marina AED1.2M', B, { price_max: '1200000' }],
    ['/buy marina 1.2 mil', B, { price_max: '1200000' }],
    ['/buy marina 1.2 mil aed', B, { price_max: '1200000' }],
    ['/rent marina dhs 90k', R, { price_max: '90000' }],
    ['/rent marina AED 95,000.50', R, { price_max: '95000.5' }],
    ['/rent marina budget of 90k', R, { price_max: '90000' }],
    ['/buy marina 1m – 2m', B, { price_min: '1000000', price_max: '2000000' }],
    ['/buy marina 1m to 2m', B, { price_min: '1000000', price_max: '2000000' }],
    ['/rent marina 120k max, 1000 sqft or more', R, { price_max: '120000', area_min: '1000' }],
  ];
  it.each(rows)('%s', (...row) => expectRow([...row, 'marina'].slice(0, 4) as Row));

  it('never lets a separator into the area', () => {
    for (const text of [
      '/rent marina, 2br, furnished',
      '/rent marina - 2br - furnished',
      '/rent marina | 2br | furnished',
      '/rent marina • 2br • furnished',
      '/rent marina / 2br / furnished',
    ]) {
      const q = parsed(text);
      expect(q.location, text).toBe('marina');
      expect(q.params, text).toEqual({ bedrooms: '2', furnishing: 'furnished' });
    }
  });
});

describe('bedrooms with extras', () => {
  const rows: Row[] = [
    ['/rent marina 2br + maid', R, { bedrooms: '2', amenities: 'maids_room' }, 'marina'],
    ['/rent marina 2br+maid', R, { bedrooms: '2', amenities: 'maids_room' }, 'marina'],
    [
      '/buy arabian ranches 4 bed plus maids room villa',
      B,
      { bedrooms: '4', amenities: 'maids_room', property_type: 'villa' },
      'arabian ranches',
    ],
    ['/rent marina 2 bed + study', R, { bedrooms: '2' }, 'marina'],
    ['/rent marina 3br + maid + study', R, { bedrooms: '3', amenities: 'maids_room' }, 'marina'],
    ['/rent marina 2 beds or more', R, { bedrooms: '2,3,4,5,6,7' }, 'marina'],
    ['/rent marina at least 2 beds', R, { bedrooms: '2,3,4,5,6,7' }, 'marina'],
    ['/projects dubai hills 2br + maid', P, { bedrooms: '2' }, 'dubai hills'],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));

  it('says what it left out, in the summary', () => {
    expect(summarize(parsed('/rent marina 2 bed + study'), 'Dubai Marina')).toBe(
      '2-bedroom homes for rent in Dubai Marina (left out "study": there is no filter for it)',
    );
    expect(summarize(parsed('/projects dubai hills 2br + maid'), 'Dubai Hills Estate')).toBe(
      'New projects in Dubai Hills Estate, 2-bedroom homes (left out "maid": new projects have no amenity filter)',
    );
  });
});

describe('delivery and handover words for projects', () => {
  const rows: Row[] = [
    ['/projects dubai hills handover soonest', P, { sort: 'delivery_earliest' }],
    ['/projects dubai hills earliest completion', P, { sort: 'delivery_earliest' }],
    ['/projects dubai hills soonest delivery', P, { sort: 'delivery_earliest' }],
    ['/projects dubai hills latest delivery', P, { sort: 'delivery_latest' }],
    ['/projects dubai hills latest completion', P, { sort: 'delivery_latest' }],
    ['/manzil new projects in jvc with the earliest completion', P, { sort: 'delivery_earliest' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('impossible values are refused, with a way forward', () => {
  const cases: [string, string][] = [
    ['/rent marina under -5000', 'A price can\'t be negative ("-5000"). Try "under 120k" or "between 80k and 120k".'],
    [
      '/manzil -5k flats to rent in marina',
      'A price can\'t be negative ("-5k"). Try "under 120k" or "between 80k and 120k".',
    ],
    ['/buy marina over -100 sqft', 'An area can\'t be negative ("-100"). Try "over 1000 sqft".'],
    ['/rent marina 200 bedrooms', '200 bedrooms is more than I can search for; the most is 20.'],
    ['/manzil two hundred bedrooms to rent in marina', '200 bedrooms is more than I can search for; the most is 20.'],
    ['/buy marina 0 sqft', 'An area of 0 sqft can\'t match a property. Try "over 1000 sqft".'],
    ['/rent marina aed 0', 'A price of AED 0 can\'t match a listing. Try "under 120k".'],
    [
      '/rent marina over 200k under 100k',
      'The minimum price (AED 200,000) is above the maximum (AED 100,000). Try "between 80k and 120k".',
    ],
    [
      `/manzil flats to rent in marina ${'please'.repeat(80)}`,
      'That\'s 512 characters; I read commands of up to 500. Try something shorter, like "/rent marina 2br under 120k".',
    ],
  ];
  it.each(cases)('%s', (text, error) => expect(parseCommand(text)).toEqual({ ok: false, error }));

  it('reads a range written backwards the right way round, and says so', () => {
    const q = parsed('/rent marina 120k-80k');
    expect(q.params).toEqual({ price_min: '80000', price_max: '120000' });
    expect(summarize(q, 'Dubai Marina')).toBe(
      'Homes for rent in Dubai Marina, AED 80,000 to 120,000 a year (read "120k-80k" as AED 80,000 to 120,000)',
    );
    expect(summarize(parsed('/buy marina 2000 to 1000 sqft'), 'Dubai Marina')).toBe(
      'Homes for sale in Dubai Marina, 1,000 to 2,000 sqft (read "2000 to 1000 sqft" as 1,000 to 2,000 sqft)',
    );
    expect(helpText('rent')).toContain('a range written backwards (120k-80k) is read the right way round');
  });
});
