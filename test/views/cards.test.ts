import { describe, expect, it } from 'vitest';
import { agentCard, bedroomRange, brokerCard, developerCard, projectCard, type Card } from '../../src/views/index.js';
import { detailedAgent, detailedBroker, developerRecord, project, simpleAgent, simpleBroker } from './fixtures.js';

const field = (card: Card, label: string) => card.fields.find((f) => f.label === label)?.value;

describe('projectCard', () => {
  const card = projectCard(project());

  it('shows price from, handover, developer, bedroom range, phase and location', () => {
    expect(card.title).toBe('Marina Shores');
    expect(field(card, 'Price')).toBe('From AED 1,450,000');
    expect(field(card, 'Handover')).toBe('Sep 2027');
    expect(field(card, 'Developer')).toBe('Emaar Properties');
    expect(field(card, 'Bedrooms')).toBe('Studio–3 beds');
    expect(field(card, 'Phase')).toBe('Under construction');
    expect(field(card, 'Type')).toBe('Apartment');
    expect(field(card, 'Location')).toBe('Dubai Marina, Dubai');
    expect(card.imageUrl).toBe('https://static.example.ae/projects/marina-shores/1.webp');
  });

  it('leaves out what is missing and says "Price on request" without a price', () => {
    const sparse = projectCard(
      project({
        price_from: null,
        effective_price: 0,
        delivery_date: 'not a date at all',
        bedrooms: [],
        construction_phase: null,
        images: null,
      }),
    );
    expect(field(sparse, 'Price')).toBe('Price on request');
    expect(field(sparse, 'Handover')).toBe('not a date at all');
    expect(sparse.fields.map((f) => f.label)).not.toContain('Bedrooms');
    expect(sparse.fields.map((f) => f.label)).not.toContain('Phase');
    expect(sparse).not.toHaveProperty('imageUrl');
  });

  it('describes bedroom ranges in words', () => {
    expect(bedroomRange([1, 2, 3, 4])).toBe('1–4 beds');
    expect(bedroomRange([3, 0, 1])).toBe('Studio–3 beds');
    expect(bedroomRange([0, 1])).toBe('Studio–1 bed');
    expect(bedroomRange([2])).toBe('2 beds');
    expect(bedroomRange([0])).toBe('Studio');
    expect(bedroomRange(undefined)).toBeUndefined();
  });
});

describe('agentCard', () => {
  it('reads the snake_case simple agent', () => {
    const card = agentCard(simpleAgent);
    expect(card.title).toBe('Sara Haddad');
    expect(card.subtitle).toBe('Senior Property Consultant');
    expect(card.fields).toEqual([
      { label: 'Brokerage', value: 'Gulf Homes Real Estate' },
      { label: 'Listings', value: '1,234 · /manzil agent 84213' },
      { label: 'Nationality', value: 'Lebanon' },
    ]);
    expect(card.imageUrl).toBe('https://static.example.ae/agents/84213.jpg');
  });

  it('reads the camelCase detailed agent, with its nested broker, nationality and languages', () => {
    const card = agentCard(detailedAgent);
    expect(card.fields).toEqual([
      { label: 'Brokerage', value: 'Gulf Homes Real Estate · /manzil broker 4471' },
      { label: 'Listings', value: '57 · /manzil agent 84213' },
      { label: 'Nationality', value: 'Lebanon' },
      { label: 'Languages', value: 'English, Arabic, French' },
      { label: 'Phone', value: '+971501234567' },
    ]);
    expect(card).not.toHaveProperty('imageUrl');
  });
});

describe('brokerCard', () => {
  it('reads the snake_case simple brokerage', () => {
    const card = brokerCard(simpleBroker);
    expect(card.title).toBe('Gulf Homes Real Estate');
    expect(field(card, 'Listings')).toBe('2,310 · /manzil broker 4471');
    expect(field(card, 'Location')).toBe('Dubai');
    expect(field(card, 'Address')).toBe('Office 1204, Marina Plaza, Dubai Marina');
    expect(card.imageUrl).toBe('https://static.example.ae/brokers/4471.png');
    expect(card).not.toHaveProperty('body');
  });

  it('reads the camelCase detailed brokerage and strips its description', () => {
    const card = brokerCard(detailedBroker);
    expect(field(card, 'Listings')).toBe('2,310 · /manzil broker 4471');
    expect(field(card, 'Phone')).toBe('+97144556677');
    expect(card.body).toBe('Gulf Homes & partners: leasing and sales since 2009.');
  });
});

describe('developerCard', () => {
  const card = developerCard(developerRecord());

  it('strips the HTML description and shortens it to about 300 characters on a word', () => {
    expect(card.body).toMatch(/^Emaar Properties is one of the world's most valuable/);
    expect(card.body).not.toMatch(/<|&amp;|&#39;/);
    expect(card.body).toContain('shopping malls & retail');
    expect(card.body!.length).toBeLessThanOrEqual(300);
    expect(card.body!.length).toBeGreaterThan(200);
    expect(card.body).toMatch(/\w…$/);
  });

  it('shows the year established, projects online and the logo', () => {
    expect(card.title).toBe('Emaar Properties');
    expect(card.fields).toEqual([
      { label: 'Established', value: '1997' },
      { label: 'Projects online', value: '142' },
    ]);
    expect(card.imageUrl).toBe('https://static.example.ae/developers/emaar.png');
  });

  it('copes with an empty description and an odd date', () => {
    const odd = developerCard(
      developerRecord({ description: '<p> </p>', established_since: 'since 2002', logo_url: '' }),
    );
    expect(odd).not.toHaveProperty('body');
    expect(odd.fields[0]).toEqual({ label: 'Established', value: '2002' });
    expect(odd).not.toHaveProperty('imageUrl');
  });
});
