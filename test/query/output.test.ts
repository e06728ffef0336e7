// What comes out of a Query: the parameters sent, the one-line summary, the CLI's JSON, and help.
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/api/operations.js';
import { helpText, parseCommand, parseToJson, summarize, toParams } from '../../src/query/index.js';
import { VERB_TABLE as VERBS } from '../../src/query/verbs.js';
import { parsed } from './helpers.js';

describe('summarize', () => {
  const rows: [text: string, locationName: string | undefined, summary: string][] = [
    [
      '/rent marina 2br apartments under 120k newest',
      'Dubai Marina',
      '2-bedroom apartments for rent in Dubai Marina, up to AED 120,000 a year, newest first',
    ],
    [
      '/rent jvc studio furnished 5k-6k monthly',
      'Jumeirah Village Circle',
      'Studios for rent in Jumeirah Village Circle, AED 5,000 to 6,000 a month, furnished',
    ],
    [
      '/rent marina 1-3 br 2 baths pool gym',
      undefined,
      '1- to 3-bedroom homes for rent in marina, 2 bathrooms, with a pool and a gym',
    ],
    ['/rent marina monthly', 'Dubai Marina', 'Homes for rent in Dubai Marina, paid monthly'],
    [
      '/buy palm villa 4+ br over 10m sea view page 2',
      'Palm Jumeirah',
      '4+ bedroom villas for sale in Palm Jumeirah, from AED 10,000,000, with a water view, page 2',
    ],
    [
      '/buy downtown studio or 1br off-plan cheapest',
      'Downtown Dubai',
      'Studio and 1-bedroom homes for sale in Downtown Dubai, off-plan, cheapest first',
    ],
    [
      '/rent office business bay under 20k 1000-2000 sqft',
      'Business Bay',
      'Offices for rent in Business Bay, up to AED 20,000 a year, 1,000 to 2,000 sqft',
    ],
    [
      '/buy commercial al quoz over 5000 sqft',
      'Al Quoz',
      'Commercial properties for sale in Al Quoz, at least 5,000 sqft',
    ],
    [
      '/projects dubai hills 2br under 2m earliest handover',
      'Dubai Hills Estate',
      'New projects in Dubai Hills Estate, 2-bedroom homes, up to AED 2,000,000, earliest handover first',
    ],
    [
      '/transactions sold marina 2br 6m',
      'Dubai Marina',
      'Sold transactions in Dubai Marina, 2 bedrooms, last 6 months',
    ],
    [
      '/rented jvc villa oldest',
      'Jumeirah Village Circle',
      'Rental transactions in Jumeirah Village Circle, villas, last 12 months, oldest first',
    ],
    [
      '/adrec al reem island, yas island apartment villa from 01/01/2024 to 31/03/2024 page 1',
      undefined,
      'Abu Dhabi (ADREC) transactions in Al Reem Island and Yas Island, apartments and villas, 01/01/2024 to 31/03/2024, page 1',
    ],
    ['/adrec', undefined, 'Abu Dhabi (ADREC) transactions, all districts'],
    ['/trend marina', 'Dubai Marina', 'Price trend for apartments in Dubai Marina'],
    ['/trend marina townhouses', 'Dubai Marina', 'Price trend for townhouses in Dubai Marina'],
    ['/agents business bay most sales', 'Business Bay', 'Agents in Business Bay, most sales'],
    ['/agents detailed commercial rent', undefined, 'Agents across the UAE (detailed), commercial rent'],
    ['/brokers marina most agents', 'Dubai Marina', 'Brokerages in Dubai Marina, most agents'],
    ['/brokers detailed', undefined, 'Brokerages across the UAE (detailed)'],
    ['/agent 123 rent cheapest', undefined, 'Listings of agent 123, residential rent, cheapest first'],
    ['/broker 45 commercial sale page 2', undefined, 'Listings of brokerage 45, commercial sale, page 2'],
    ['/property 16266089', undefined, 'Property 16266089'],
    ['/developers', undefined, 'Dubai developers'],
    ['/developers rak page 3', undefined, 'Ras Al Khaimah developers, page 3'],
    ['/location marina', undefined, 'Places matching "marina"'],
  ];
  it.each(rows)('%s', (text, name, summary) => expect(summarize(parsed(text), name)).toBe(summary));

  it('has a natural line for every operation', () => {
    const covered = new Set(rows.map(([text]) => parsed(text).operation));
    expect([...covered].sort()).toEqual([...OPERATION_NAMES].sort());
  });
});

describe('toParams', () => {
  it('adds location_id as text to what was parsed', () => {
    expect(toParams(parsed('/rent marina 2br under 120k'), 50)).toEqual({
      bedrooms: '2',
      price_max: '120000',
      location_id: '50',
    });
    expect(toParams(parsed('/agents marina'), '86')).toEqual({ location_id: '86' });
  });
  it('sends nothing extra without a location id, and none to operations that take no location', () => {
    expect(toParams(parsed('/rent marina'))).toEqual({});
    expect(toParams(parsed('/developers sharjah'), 50)).toEqual({ location: 'sharjah' });
    expect(toParams(parsed('/adrec yas island'), 50)).toEqual({ district: 'Yas Island' });
  });
});

describe('parseToJson', () => {
  it('gives the operation, every parameter except location_id, and the location words', () => {
    expect(parseToJson('/rent marina 2br under 120k')).toEqual({
      operation: 'search-rent',
      params: { bedrooms: '2', price_max: '120000' },
      location: 'marina',
    });
    expect(parseToJson('/developers')).toEqual({ operation: 'real-estate-developer', params: {}, location: null });
  });
  it('gives the message a user would see when the text is not understood', () => {
    expect(parseToJson('/transactions marina')).toEqual({
      error: 'Sold or rented? Try "/transactions sold marina 2br".',
    });
  });
});

describe('help', () => {
  it('lists every verb, one line each with an example', () => {
    const text = helpText();
    for (const verb of VERBS) expect(text).toContain(`/${verb.name} `);
    expect(text).toContain('e.g. /rent marina 2br under 120k');
  });
  it('explains one verb: its filters and at least 3 examples', () => {
    for (const verb of VERBS) {
      const text = helpText(verb.name);
      expect(verb.examples.length).toBeGreaterThanOrEqual(3);
      for (const example of verb.examples) expect(text).toContain(example);
    }
    expect(helpText('rent')).toContain('Bedrooms: 2br');
    expect(helpText('rent')).toContain('Rent period: yearly, monthly, weekly, daily');
    expect(helpText('transactions')).toContain('Sort: newest, oldest, highest price, lowest price');
    expect(helpText('developers')).toContain('Emirate: dubai, dxb, abu dhabi');
  });
  it('finds a verb by alias', () => {
    expect(helpText('txn')).toBe(helpText('transactions'));
    expect(helpText('/offplan')).toBe(helpText('projects'));
  });
  it('names the verbs when asked about one it does not know', () => {
    expect(helpText('fly')).toBe(
      'I don\'t know "fly". The verbs are: rent, buy, projects, transactions, adrec, trend, agents, brokers, agent, broker, property, developers, location, value, compare, alerts, digest. Say "help" for an example of each.',
    );
  });
  it('every example in the verb table parses', () => {
    for (const verb of VERBS) {
      for (const example of verb.examples) expect(parseCommand(example), example).toMatchObject({ ok: true });
    }
  });
  it('every alias is a working verb', () => {
    for (const verb of VERBS) {
      for (const alias of [verb.name, ...verb.aliases]) {
        // `/sold` already says sold: `/sold sold marina` would ask twice.
        const example = verb.examples[0]!.replace(/^\/(manzil )?\S+/, `/${alias}`).replace(
          /^\/(sold|rented) sold /,
          '/$1 ',
        );
        expect(parseCommand(example), example).toMatchObject({ ok: true });
      }
    }
  });
});
