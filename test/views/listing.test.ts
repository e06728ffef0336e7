import { describe, expect, it } from 'vitest';
import { listingCard, propertyDetailsCard, type Button, type Card } from '../../src/views/index.js';
import { agentListingRecord, brokerListingRecord, detailsRecord, searchResult } from './fixtures.js';

const field = (card: Card, label: string) => card.fields.find((f) => f.label === label)?.value;
const labels = (card: Card) => card.fields.map((f) => f.label);

describe('listingCard from a search result', () => {
  const card = listingCard(searchResult());

  it('shows the title, price, beds, baths, size, location and agent', () => {
    expect(card.title).toBe('Full marina view | Chiller free | High floor');
    expect(card.fields).toEqual([
      { label: 'Price', value: 'AED 120,000/yr' },
      { label: 'Beds', value: '1 bed' },
      { label: 'Baths', value: '2 baths' },
      { label: 'Size', value: '812 sqft' },
      { label: 'Location', value: 'Marina Gate 1, Marina Gate, Dubai Marina, Dubai' },
      { label: 'Agent', value: 'Sara Haddad · /manzil agent 84213' },
    ]);
  });

  it('links to the public listing and shows the first photo and the super-agent badge', () => {
    const url = 'https://www.propertyfinder.ae/en/plp/rent/apartment-for-rent-dubai-dubai-marina-16266089.html';
    expect(card.url).toBe(url);
    expect(card.links).toEqual([{ label: 'View listing', url }]);
    expect(card.imageUrl).toBe('https://static.example.ae/listing/16266089/416x272.jpg');
    expect(card.badges).toEqual(['Super agent']);
  });

  it('shows "Price on request" for a hidden price, never AED 0', () => {
    const hidden = listingCard(searchResult({ price: { value: 0, currency: 'AED', period: 'sell', is_hidden: true } }));
    expect(field(hidden, 'Price')).toBe('Price on request');
    expect(JSON.stringify(hidden)).not.toContain('AED 0');
  });

  it('carries the buttons it is given', () => {
    const buttons: Button[] = [{ label: 'Details', action: 'details', token: 'tok-1' }];
    expect(listingCard(searchResult(), { buttons }).buttons).toEqual(buttons);
  });

  it('leaves out fields with no value, and the image, badges and link when there are none', () => {
    const sparse = listingCard(
      searchResult({
        bathrooms: null,
        size: null,
        floor_plan_area: undefined,
        agent_details: null,
        images: [],
        property_url: 'not a url',
        title: 'Sea view',
      }),
    );
    expect(labels(sparse)).toEqual(['Price', 'Beds', 'Location']);
    expect(sparse).not.toHaveProperty('imageUrl');
    expect(sparse).not.toHaveProperty('badges');
    expect(sparse).not.toHaveProperty('links');
    expect(sparse).not.toHaveProperty('url');
    expect(JSON.stringify(sparse)).not.toMatch(/undefined|NaN|null/);
  });

  it('falls back to the floor-plan area when size is missing', () => {
    expect(field(listingCard(searchResult({ size: null, floor_plan_area: 1250 })), 'Size')).toBe('1,250 sqft');
  });

  it('shows a Verified badge next to the super-agent one', () => {
    expect(listingCard(searchResult({ is_verified: true })).badges).toEqual(['Super agent', 'Verified']);
  });
});

describe('listingCard from agent and brokerage listings', () => {
  it('uses share_url and location when there is no property_url or address', () => {
    const card = listingCard(agentListingRecord());
    expect(card.url).toBe('https://www.propertyfinder.ae/en/plp/buy/villa-15880412.html');
    expect(card.links).toEqual([
      { label: 'View listing', url: 'https://www.propertyfinder.ae/en/plp/buy/villa-15880412.html' },
    ]);
    expect(field(card, 'Location')).toBe('Maple 2, Maple at Dubai Hills Estate, Dubai Hills Estate, Dubai');
    expect(field(card, 'Price')).toBe('AED 6,500,000');
  });

  it('builds a title from beds, type and location when the title is empty', () => {
    expect(listingCard(agentListingRecord()).title).toBe(
      '4-bed villa in Maple 2, Maple at Dubai Hills Estate, Dubai Hills Estate, Dubai',
    );
    expect(listingCard(brokerListingRecord({ title: null })).title).toBe(
      'Studio apartment in Jumeirah Village Circle, Dubai',
    );
  });

  it('prefers property_url over share_url when both are present', () => {
    const card = listingCard(searchResult({ share_url: 'https://www.propertyfinder.ae/share/16266089' }));
    expect(card.url).toContain('/plp/rent/');
  });

  it('names a studio and the brokerage listing agent', () => {
    const card = listingCard(brokerListingRecord());
    expect(field(card, 'Beds')).toBe('Studio');
    expect(field(card, 'Agent')).toBe('Omar Farouk · /manzil agent 90112');
    expect(field(card, 'Price')).toBe('AED 52,000/yr');
    expect(labels(card)).not.toContain('Size');
  });
});

describe('propertyDetailsCard', () => {
  const card = propertyDetailsCard(detailsRecord());

  it('adds the listed date, coordinates and extras the service sends', () => {
    expect(field(card, 'Listed')).toBe('12 Mar 2026');
    expect(field(card, 'Coordinates')).toBe('25.08620, 55.14720');
    expect(field(card, 'Reference number')).toBe('MG1-1805');
    expect(field(card, 'Furnishing')).toBe('Unfurnished');
    expect(field(card, 'Property ID')).toBe('16266089');
  });

  it('keeps the listing fields and adds a map link', () => {
    expect(field(card, 'Price')).toBe('AED 120,000/yr');
    expect(card.badges).toEqual(['Verified']);
    expect(card.links?.map((l) => l.label)).toEqual(['View listing', 'Map']);
    expect(card.links?.[1]?.url).toBe('https://www.google.com/maps?q=25.0862,55.1472');
  });

  it('leaves out what is missing or invalid', () => {
    const sparse = propertyDetailsCard(
      detailsRecord({
        listed_date: null,
        address: { full_name: 'Dubai Marina' },
        reference_number: { odd: true },
        furnishing: '',
      }),
    );
    expect(labels(sparse)).not.toContain('Listed');
    expect(labels(sparse)).not.toContain('Coordinates');
    expect(labels(sparse)).not.toContain('Reference number');
    expect(labels(sparse)).not.toContain('Furnishing');
    expect(sparse.links?.map((l) => l.label)).toEqual(['View listing']);
  });

  it('shows an unparseable listed date as sent rather than "Invalid Date"', () => {
    expect(field(propertyDetailsCard(detailsRecord({ listed_date: 'yesterday' })), 'Listed')).toBe('yesterday');
  });
});
