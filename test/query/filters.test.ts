// Every filter of the language, several phrasings each, in any order.
import { describe, expect, it } from 'vitest';
import { expectRow, parsed, type Row } from './helpers.js';

const R = 'search-rent';
const B = 'search-buy';
const T = 'get-get-transactions';

describe('bedrooms', () => {
  const rows: Row[] = [
    ['/rent marina 2br', R, { bedrooms: '2' }],
    ['/rent marina 2 br', R, { bedrooms: '2' }],
    ['/rent marina 2bed', R, { bedrooms: '2' }],
    ['/rent marina 2 beds', R, { bedrooms: '2' }],
    ['/rent marina 2 bedroom', R, { bedrooms: '2' }],
    ['/rent marina 2 bedrooms', R, { bedrooms: '2' }],
    ['/rent marina 2-bedroom', R, { bedrooms: '2' }],
    ['/rent marina 2bhk', R, { bedrooms: '2' }],
    ['/rent marina 2b/r', R, { bedrooms: '2' }],
    ['/rent marina 2 B/R', R, { bedrooms: '2' }],
    ['/rent marina studio', R, { bedrooms: '0' }],
    ['/rent marina 1-3br', R, { bedrooms: '1,2,3' }],
    ['/rent marina 1–3 br', R, { bedrooms: '1,2,3' }],
    ['/rent marina 1 to 3 br', R, { bedrooms: '1,2,3' }],
    ['/rent marina 1,2 br', R, { bedrooms: '1,2' }],
    ['/rent marina 1 or 2 br', R, { bedrooms: '1,2' }],
    ['/rent marina studio or 1br', R, { bedrooms: '0,1' }],
    ['/rent marina 1br or 2br', R, { bedrooms: '1,2' }],
    ['/rent marina 3+ br', R, { bedrooms: '3,4,5,6,7' }],
    ['/rent marina 3+br', R, { bedrooms: '3,4,5,6,7' }],
    ['/transactions sold marina 3 beds', T, { transaction_type: 'sold', bedrooms: '3' }],
    ['/transactions sold marina studio', T, { transaction_type: 'sold', bedrooms: '0' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('bathrooms', () => {
  const rows: Row[] = [
    ['/rent marina 2ba', R, { bathrooms: '2' }],
    ['/rent marina 2 bath', R, { bathrooms: '2' }],
    ['/rent marina 2 baths', R, { bathrooms: '2' }],
    ['/rent marina 2 bathrooms', R, { bathrooms: '2' }],
    ['/rent marina 1-2 baths', R, { bathrooms: '1,2' }],
    ['/rent marina 1 or 3 bathrooms', R, { bathrooms: '1,3' }],
    ['/rent marina 2+ baths', R, { bathrooms: '2,3,4,5,6,7' }],
    ['/buy marina 2br 3 baths', B, { bedrooms: '2', bathrooms: '3' }],
    ['/buy marina studio 1 bath', B, { bedrooms: '0', bathrooms: '1' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('price', () => {
  const rows: Row[] = [
    ['/rent marina under 120k', R, { price_max: '120000' }],
    ['/rent marina below 120,000', R, { price_max: '120000' }],
    ['/rent marina max 120K', R, { price_max: '120000' }],
    ['/rent marina up to 120000', R, { price_max: '120000' }],
    ['/rent marina upto 120k', R, { price_max: '120000' }],
    ['/rent marina less than 120k', R, { price_max: '120000' }],
    ['/rent marina < 120k', R, { price_max: '120000' }],
    ['/rent marina <=120k', R, { price_max: '120000' }],
    ['/rent marina over 80k', R, { price_min: '80000' }],
    ['/rent marina above 80k', R, { price_min: '80000' }],
    ['/rent marina min 80k', R, { price_min: '80000' }],
    ['/rent marina from 80k', R, { price_min: '80000' }],
    ['/rent marina at least 80k', R, { price_min: '80000' }],
    ['/rent marina more than 80k', R, { price_min: '80000' }],
    ['/rent marina >80k', R, { price_min: '80000' }],
    ['/rent marina >= 80k', R, { price_min: '80000' }],
    ['/rent marina 80k-120k', R, { price_min: '80000', price_max: '120000' }],
    ['/rent marina 80-120k', R, { price_min: '80000', price_max: '120000' }],
    ['/rent marina 80k to 120k', R, { price_min: '80000', price_max: '120000' }],
    ['/rent marina between 80k and 120k', R, { price_min: '80000', price_max: '120000' }],
    ['/buy marina from 1m to 2m', B, { price_min: '1000000', price_max: '2000000' }],
    ['/buy marina 1-2m', B, { price_min: '1000000', price_max: '2000000' }],
    ['/buy marina 2m', B, { price_max: '2000000' }],
    ['/buy marina 1.2m', B, { price_max: '1200000' }],
    ['/buy marina 1.2M', B, { price_max: '1200000' }],
    ['/buy marina 1.2mn', B, { price_max: '1200000' }],
    ['/buy marina 1.2 million', B, { price_max: '1200000' }],
    ['/buy marina 1.1m', B, { price_max: '1100000' }],
    ['/rent marina 120 thousand', R, { price_max: '120000' }],
    ['/rent marina AED 120k', R, { price_max: '120000' }],
    ['/rent marina aed 120,000', R, { price_max: '120000' }],
    ['/rent marina 120k aed', R, { price_max: '120000' }],
    ['/rent marina 120000 dhs', R, { price_max: '120000' }],
    ['/rent marina dhs 5000', R, { price_max: '5000' }],
    ['/rent marina 90000', R, { price_max: '90000' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('rent period', () => {
  const rows: Row[] = [
    ['/rent marina 10k/month', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina 10k per month', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina 10k a month', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina under 10k monthly', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina 10k pm', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina 10k /mo', R, { price_max: '10000', rent_frequency: 'monthly' }],
    ['/rent marina 500 a month', R, { price_max: '500', rent_frequency: 'monthly' }],
    ['/rent marina 120k yearly', R, { price_max: '120000', rent_frequency: 'yearly' }],
    ['/rent marina 120k per year', R, { price_max: '120000', rent_frequency: 'yearly' }],
    ['/rent marina 120k/yr', R, { price_max: '120000', rent_frequency: 'yearly' }],
    ['/rent marina 120k pa', R, { price_max: '120000', rent_frequency: 'yearly' }],
    ['/rent marina 3k weekly', R, { price_max: '3000', rent_frequency: 'weekly' }],
    ['/rent marina daily under 800', R, { price_max: '800', rent_frequency: 'daily' }],
    [
      '/rent office business bay 20k monthly',
      'search-commercial-rent',
      { property_type: 'office-space', price_max: '20000', rent_frequency: 'monthly' },
    ],
    ['/rent shop deira yearly', 'search-commercial-rent', { property_type: 'shop', rent_frequency: 'yearly' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('area', () => {
  const rows: Row[] = [
    ['/buy marina over 1000 sqft', B, { area_min: '1000' }],
    ['/buy marina over 1,000 sq ft', B, { area_min: '1000' }],
    ['/buy marina under 2000 sq. ft.', B, { area_max: '2000' }],
    ['/buy marina at least 1500 ft2', B, { area_min: '1500' }],
    ['/buy marina below 3000 square feet', B, { area_max: '3000' }],
    ['/buy marina 1000-2000 sqft', B, { area_min: '1000', area_max: '2000' }],
    ['/buy marina between 1000 and 2000 sqft', B, { area_min: '1000', area_max: '2000' }],
    ['/buy marina 1000sqft', B, { area_min: '1000' }],
    ['/buy marina over 100 sqm', B, { area_min: '1076' }],
    ['/buy marina under 100 m2', B, { area_max: '1076' }],
    ['/buy marina 100-150 sq m', B, { area_min: '1076', area_max: '1615' }],
    ['/buy marina 2br under 2m over 1200 sqft', B, { bedrooms: '2', price_max: '2000000', area_min: '1200' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('property type', () => {
  const rows: Row[] = [
    ['/rent marina apartment', R, { property_type: 'apartment' }],
    ['/rent marina apartments', R, { property_type: 'apartment' }],
    ['/rent marina apt', R, { property_type: 'apartment' }],
    ['/rent marina flat', R, { property_type: 'apartment' }],
    ['/rent marina flats', R, { property_type: 'apartment' }],
    ['/rent springs th', R, { property_type: 'townhouse' }],
    ['/rent springs townhouses', R, { property_type: 'townhouse' }],
    ['/buy marina ph', R.replace('rent', 'buy'), { property_type: 'penthouse' }],
    ['/rent marina hotel apartments', R, { property_type: 'hotel-apartment' }],
    ['/rent marina hotel-apartment', R, { property_type: 'hotel-apartment' }],
    ['/rent marina serviced apartment', R, { property_type: 'hotel-apartment' }],
    ['/buy marina full floor', B, { property_type: 'full-floor' }],
    ['/buy marina whole building', B, { property_type: 'whole-building' }],
    ['/rent marina duplexes', R, { property_type: 'duplex' }],
    ['/rent marina bungalow', R, { property_type: 'bungalow' }],
    ['/rent marina compound', R, { property_type: 'compound' }],
    ['/rent deira office', 'search-commercial-rent', { property_type: 'office-space', rent_frequency: 'yearly' }],
    ['/rent deira office space', 'search-commercial-rent', { property_type: 'office-space', rent_frequency: 'yearly' }],
    ['/rent deira showroom', 'search-commercial-rent', { property_type: 'show-room', rent_frequency: 'yearly' }],
    ['/rent deira show rooms', 'search-commercial-rent', { property_type: 'show-room', rent_frequency: 'yearly' }],
    ['/buy deira plot', 'search-commercial-buy', { property_type: 'land' }],
    ['/buy deira land', 'search-commercial-buy', { property_type: 'land' }],
    [
      '/rent jebel ali labour camp',
      'search-commercial-rent',
      { property_type: 'labor-camp', rent_frequency: 'yearly' },
    ],
    [
      '/rent jebel ali labor camps',
      'search-commercial-rent',
      { property_type: 'labor-camp', rent_frequency: 'yearly' },
    ],
    [
      '/rent business bay coworking',
      'search-commercial-rent',
      { property_type: 'co-working-space', rent_frequency: 'yearly' },
    ],
    [
      '/rent business bay co-working space',
      'search-commercial-rent',
      { property_type: 'co-working-space', rent_frequency: 'yearly' },
    ],
    [
      '/rent business bay business centre',
      'search-commercial-rent',
      { property_type: 'business-centre', rent_frequency: 'yearly' },
    ],
    ['/buy jebel ali factories', 'search-commercial-buy', { property_type: 'factory' }],
    [
      '/rent al quoz staff accommodation',
      'search-commercial-rent',
      { property_type: 'staff-accommodation', rent_frequency: 'yearly' },
    ],
    ['/buy al ain farm', 'search-commercial-buy', { property_type: 'farm' }],
    ['/rent deira retail', 'search-commercial-rent', { property_type: 'retail', rent_frequency: 'yearly' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('furnishing, completion, amenities', () => {
  const rows: Row[] = [
    ['/rent marina furnished', R, { furnishing: 'furnished' }],
    ['/rent marina unfurnished', R, { furnishing: 'unfurnished' }],
    ['/rent marina semi-furnished', R, { furnishing: 'partly' }],
    ['/rent marina semi furnished', R, { furnishing: 'partly' }],
    ['/rent marina partly furnished', R, { furnishing: 'partly' }],
    ['/rent marina part furnished', R, { furnishing: 'partly' }],
    ['/buy marina ready', B, { completion_status: 'ready' }],
    ['/buy marina off-plan', B, { completion_status: 'off_plan' }],
    ['/buy marina offplan', B, { completion_status: 'off_plan' }],
    ['/buy marina off plan', B, { completion_status: 'off_plan' }],
    ['/buy marina under construction', B, { completion_status: 'off_plan' }],
    ['/buy marina under construction under 2m', B, { completion_status: 'off_plan', price_max: '2000000' }],
    ['/rent marina pool', R, { amenities: 'shared_pool' }],
    ['/rent marina private pool', R, { amenities: 'private_pool' }],
    ['/rent marina with a gym', R, { amenities: 'shared_gym' }],
    ['/rent marina balcony', R, { amenities: 'balcony' }],
    ["/rent marina maid's room", R, { amenities: 'maids_room' }],
    ['/rent marina maids room', R, { amenities: 'maids_room' }],
    ['/rent marina parking', R, { amenities: 'covered_parking' }],
    ['/rent marina covered parking', R, { amenities: 'covered_parking' }],
    ['/rent marina pets', R, { amenities: 'pets_allowed' }],
    ['/rent marina pet friendly', R, { amenities: 'pets_allowed' }],
    ['/rent marina pet-friendly', R, { amenities: 'pets_allowed' }],
    ['/rent marina pets allowed', R, { amenities: 'pets_allowed' }],
    ['/rent marina garden', R, { amenities: 'private_garden' }],
    ['/rent marina private garden', R, { amenities: 'private_garden' }],
    ['/rent marina central ac', R, { amenities: 'central_ac' }],
    ['/rent marina central a/c', R, { amenities: 'central_ac' }],
    ['/rent marina security', R, { amenities: 'security' }],
    ['/rent marina built-in wardrobes', R, { amenities: 'built_in_wardrobes' }],
    ['/rent marina wardrobes', R, { amenities: 'built_in_wardrobes' }],
    ['/rent marina sea view', R, { amenities: 'view_of_water' }],
    ['/rent marina water view', R, { amenities: 'view_of_water' }],
    ['/rent marina landmark view', R, { amenities: 'view_of_landmark' }],
    ['/rent marina concierge', R, { amenities: 'concierge' }],
    ['/rent marina kids play area', R, { amenities: 'childrens_play_area' }],
    ['/rent marina play area', R, { amenities: 'childrens_play_area' }],
    ['/rent marina bbq', R, { amenities: 'bbq_area' }],
    // Sent as one list in the spec's order, whatever order they were typed in.
    [
      '/rent marina gym and pool and balcony and central ac',
      R,
      { amenities: 'central_ac,balcony,shared_pool,shared_gym' },
    ],
    ['/rent marina bbq, sea view, pets', R, { amenities: 'pets_allowed,view_of_water,bbq_area' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('sort', () => {
  const rows: Row[] = [
    ['/rent marina newest', R, { sort: 'newest' }],
    ['/rent marina latest', R, { sort: 'newest' }],
    ['/rent marina recent', R, { sort: 'newest' }],
    ['/rent marina featured', R, { sort: 'featured' }],
    ['/rent marina cheapest', R, { sort: 'price_asc' }],
    ['/rent marina lowest price', R, { sort: 'price_asc' }],
    ['/rent marina price low to high', R, { sort: 'price_asc' }],
    ['/buy marina most expensive', B, { sort: 'price_desc' }],
    ['/buy marina priciest', B, { sort: 'price_desc' }],
    ['/buy marina highest price', B, { sort: 'price_desc' }],
    ['/projects marina earliest handover', 'search-new-projects', { sort: 'delivery_earliest' }],
    ['/projects marina delivery soonest', 'search-new-projects', { sort: 'delivery_earliest' }],
    ['/projects marina latest handover', 'search-new-projects', { sort: 'delivery_latest' }],
    ['/projects marina newest', 'search-new-projects', { sort: 'newest' }],
    ['/sold marina newest', T, { transaction_type: 'sold', sort: 'newest' }],
    ['/sold marina oldest', T, { transaction_type: 'sold', sort: 'oldest' }],
    ['/sold marina highest price', T, { transaction_type: 'sold', sort: 'high_price' }],
    ['/sold marina lowest price', T, { transaction_type: 'sold', sort: 'low_price' }],
    ['/agents marina most sales', 'search-agents', { sort: 'most_sales' }],
    ['/agents marina most rentals', 'search-agents', { sort: 'most_rentals' }],
    ['/agents marina featured', 'search-agents', { sort: 'featured' }],
    ['/brokers marina most properties', 'search-brokers', { sort: 'most_properties' }],
    ['/brokers marina most listings', 'search-brokers', { sort: 'most_properties' }],
    ['/brokers marina most agents', 'search-brokers', { sort: 'most_agents' }],
    ['/brokers marina featured', 'search-brokers', { sort: 'featured' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('transaction period and page', () => {
  const rows: Row[] = [
    ['/sold marina last year', T, { transaction_type: 'sold', period: '1y' }],
    ['/sold marina 12 months', T, { transaction_type: 'sold', period: '1y' }],
    ['/sold marina 1y', T, { transaction_type: 'sold', period: '1y' }],
    ['/sold marina 6 months', T, { transaction_type: 'sold', period: '6m' }],
    ['/sold marina 6m', T, { transaction_type: 'sold', period: '6m' }],
    ['/sold marina last 6 months', T, { transaction_type: 'sold', period: '6m' }],
    ['/sold marina 3 months', T, { transaction_type: 'sold', period: '3m' }],
    ['/sold marina 3m', T, { transaction_type: 'sold', period: '3m' }],
    ['/sold marina last quarter', T, { transaction_type: 'sold', period: '3m' }],
    ['/sold marina last month', T, { transaction_type: 'sold', period: '1m' }],
    ['/sold marina 30 days', T, { transaction_type: 'sold', period: '1m' }],
    ['/sold marina 1m', T, { transaction_type: 'sold', period: '1m' }],
    // Outside transactions, 6m is six million.
    ['/buy marina 6m', B, { price_max: '6000000' }],
    ['/rent marina page 2', R, { page: '2' }],
    ['/rent marina p2', R, { page: '2' }],
    ['/rent marina Page 3', R, { page: '3' }],
    ['/sold marina page 1', T, { transaction_type: 'sold', page: '1' }],
  ];
  it.each(rows)('%s', (...row) => expectRow(row));
});

describe('location words', () => {
  const rows: [string, string | null][] = [
    ['/rent marina 2br', 'marina'],
    ['/rent 2br in dubai marina', 'dubai marina'],
    ['/rent 2br dubai marina under 120k', 'dubai marina'],
    ['/rent a 2br near the marina', 'marina'],
    ['/rent 2br around jumeirah village circle with a pool', 'jumeirah village circle'],
    ['/rent Dubai Marina for 2br', 'Dubai Marina'],
    ['/rent jumeirah 2br village circle', 'jumeirah village circle'],
    ['/rent Al-Barsha 2br', 'Al-Barsha'],
    ['/rent Al Barsha 1 2br', 'Al Barsha 1'],
    ['/rent "Dubai Marina" 2br', 'Dubai Marina'],
    ['/rent 2br "The Greens"', 'The Greens'],
    ['/rent 2br "Studio City"', 'Studio City'],
    ['/rent “Palm Jumeirah” 2br', 'Palm Jumeirah'],
    ['/agents', null],
  ];
  it.each(rows)('%s -> %s', (text, location) => expect(parsed(text).location).toBe(location));
});

describe('words that are not understood stay in the location, named', () => {
  const rows: [string, string, string[]][] = [
    // A typo of a filter word is corrected, except from inside a run of area words, where it stays and is named.
    ['/rent dubai furnishd marina 2br', 'dubai furnishd marina', ['furnishd']],
    ['/rent marina bedrom 2br', 'marina bedrom', ['bedrom']],
    ['/rent al apartmnt barsha', 'al apartmnt barsha', ['apartmnt']],
    ['/rent marina 3bd', 'marina 3bd', ['3bd']],
    ['/rent marina sqft', 'marina sqft', ['sqft']],
    ['/rent marina br', 'marina br', ['br']],
    ['/rent discovery gardens 1br', 'discovery gardens', []],
    ['/rent jumeirah village circle', 'jumeirah village circle', []],
  ];
  it.each(rows)('%s', (text, location, unknown) => {
    const q = parsed(text);
    expect(q.location).toBe(location);
    expect(q.unknownWords).toEqual(unknown);
  });
});

describe('case, spaces and dashes do not matter', () => {
  const same = [
    '/rent marina 1-3br under 120k furnished',
    '/RENT MARINA 1-3BR UNDER 120K FURNISHED',
    '  /rent    marina   1-3br  under   120k   furnished ',
    '/rent marina 1–3br under 120k furnished',
    '/rent marina 1—3br under 120k furnished',
    '/rent\tmarina 1 - 3 br under 120k furnished',
  ];
  it.each(same)('%s', (text) => {
    const q = parsed(text);
    expect(q.params).toEqual({ bedrooms: '1,2,3', price_max: '120000', furnishing: 'furnished' });
    expect(q.location?.toLowerCase()).toBe('marina');
  });

  it('reads filters in any order', () => {
    const a = parsed('/rent marina 2br furnished under 120k pool newest');
    const b = parsed('/rent newest pool under 120k furnished 2br marina');
    expect(b.params).toEqual(a.params);
    expect(b.location).toBe(a.location);
  });

  it('sends no defaults: only what was asked for', () => {
    expect(parsed('/rent marina').params).toEqual({});
    expect(parsed('/projects marina').params).toEqual({});
    expect(parsed('/developers').params).toEqual({});
  });
});
