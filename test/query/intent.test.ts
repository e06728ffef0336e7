// What a question asks (issue 39): "what did/do … sell/rent for" asks the records (transactions), "what would … rent
// for" or "is … fair" an estimate; each routed as the bot routes it.
import { describe, expect, it } from 'vitest';
import { readingOf } from '../../src/bot/pipeline/reading.js';

describe('"… sell for" and "… rent for" questions', () => {
  it.each([
    ['what did 2br in marina sell for', 'sold', 'marina', { bedrooms: '2' }],
    ['what did villas in arabian ranches sell for?', 'sold', 'arabian ranches', { property_type: 'villa' }],
    ['what are villas in arabian ranches selling for', 'sold', 'arabian ranches', { property_type: 'villa' }],
    ['what were 3br in downtown selling for?', 'sold', 'downtown', { bedrooms: '3' }],
    ['what do 2br in jvc rent for', 'rented', 'jvc', { bedrooms: '2' }],
    ['what does a studio in jlt rent for?', 'rented', 'jlt', { bedrooms: '0' }],
    ['how much did 1br in jvc rent for', 'rented', 'jvc', { bedrooms: '1' }],
    ['what are 1 beds in business bay renting for', 'rented', 'business bay', { bedrooms: '1' }],
  ])('%s: transactions %s', (text, kind, location, params) => {
    expect(readingOf(text)).toMatchObject({
      operation: 'get-get-transactions',
      params: { transaction_type: kind, ...params },
      location,
    });
  });

  it.each([
    'what would a 1,200 sqft 2br in marina rent for',
    'what would a 2br in jvc sell for?',
    'is 1.8m fair for a 2 bed in jvc?',
    'what is a 3 bed villa in arabian ranches worth',
  ])('%s: an estimate', (text) => {
    expect(readingOf(text)).toMatchObject({ route: 'value' });
  });

  it.each([
    ['are there any 2br flats in jlt to rent', 'search-rent'],
    ['do you have 2br to rent in marina', 'search-rent'],
    ['are 2br in jlt renting for under 90k', 'search-rent'],
    ['is there anything to buy in jvc for my family', 'search-buy'],
  ])('%s: still a search (%s)', (text, operation) => {
    expect(readingOf(text)).toMatchObject({ operation });
  });
});

describe('"how many …"', () => {
  it.each([
    ['how many villas for sale in palm jumeirah', 'search-buy', 'palm jumeirah'],
    ['How many 2br flats to rent in jlt?', 'search-rent', 'jlt'],
    ['/manzil how many offices to rent in business bay', 'search-commercial-rent', 'business bay'],
    ['how many 2br sold in marina last month', 'get-get-transactions', 'marina'],
  ])('%s: the search, asked as a count', (text, operation, location) => {
    expect(readingOf(text)).toMatchObject({ operation, location, count: true });
  });

  it('the search without "how many" is not a count', () => {
    expect(readingOf('villas for sale in palm jumeirah')).not.toHaveProperty('count');
  });
});
