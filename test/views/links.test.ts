// Which upstream addresses become link buttons: https on the portals the service links to (and the sandbox) only.
// Anything else is still shown, as text, so a person can judge it, but never as a button they click without reading.
import { describe, expect, it } from 'vitest';
import {
  agentCard,
  brokerCard,
  developerCard,
  listingCard,
  projectCard,
  propertyDetailsCard,
  type Card,
} from '../../src/views/index.js';
import { isListingHost } from '../../src/views/parts.js';
import {
  agentListingRecord,
  detailsRecord,
  developerRecord,
  project,
  searchResult,
  simpleAgent,
  simpleBroker,
} from './fixtures.js';

const field = (card: Card, label: string) => card.fields.find((f) => f.label === label)?.value;

describe('listing links', () => {
  it.each([
    'https://www.propertyfinder.ae/en/plp/rent/apartment-1.html',
    'https://propertyfinder.ae/en/plp/rent/apartment-1.html',
    'https://www.bayut.com/property/details-1.html',
    'https://dubai.dubizzle.com/property-for-rent/1',
    'https://www.sandbox-manzil.example/property/1',
  ])('makes a link button of %s', (url) => {
    const card = listingCard(searchResult({ property_url: url }));
    expect(card.url).toBe(url);
    expect(card.links).toEqual([{ label: 'View listing', url }]);
    expect(field(card, 'Link')).toBeUndefined();
  });

  it.each([
    ['plain http on a portal', 'http://www.propertyfinder.ae/en/plp/rent/apartment-1.html'],
    ['an unknown host', 'https://evil.example/phish'],
    ['a look-alike host', 'https://www.propertyfinder.ae.evil.example/x'],
    ['a host that only ends like a portal', 'https://notbayut.com/x'],
    ['credentials in the address', 'https://user:pw@www.bayut.com/x'],
  ])('shows %s as text, not as a button', (_what, url) => {
    const card = listingCard(searchResult({ property_url: url }));
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('links');
    expect(field(card, 'Link')).toBe(new URL(url).href);
  });

  it('prefers the address that can be a button when the other one cannot', () => {
    const card = listingCard(
      searchResult({ property_url: 'https://evil.example/x', share_url: 'https://www.bayut.com/p/1' }),
    );
    expect(card.url).toBe('https://www.bayut.com/p/1');
    expect(field(card, 'Link')).toBeUndefined();
  });

  it('drops addresses that are not web pages at all', () => {
    const card = listingCard(searchResult({ property_url: 'javascript:alert(1)', share_url: 'data:text/html,hi' }));
    expect(card).not.toHaveProperty('links');
    expect(field(card, 'Link')).toBeUndefined();
  });

  it('shortens a very long untrusted address shown as text', () => {
    const card = listingCard(agentListingRecord({ share_url: `https://evil.example/${'a'.repeat(3000)}` }));
    expect(field(card, 'Link')!.length).toBeLessThanOrEqual(200);
  });

  it('keeps our own map link on the details card and demotes an untrusted listing address', () => {
    const card = propertyDetailsCard(detailsRecord({ property_url: 'https://evil.example/p/1' }));
    expect(card.links?.map((l) => l.label)).toEqual(['Map']);
    expect(field(card, 'Link')).toBe('https://evil.example/p/1');
  });

  it('treats project addresses the same way', () => {
    expect(projectCard(project({ share_url: 'https://www.bayut.com/new-projects/1' })).url).toBe(
      'https://www.bayut.com/new-projects/1',
    );
    const odd = projectCard(project({ share_url: 'https://evil.example/project' }));
    expect(odd).not.toHaveProperty('url');
    expect(field(odd, 'Link')).toBe('https://evil.example/project');
  });

  it('matches hosts whole, case-insensitively, with or without a trailing dot', () => {
    expect(isListingHost('WWW.Bayut.COM')).toBe(true);
    expect(isListingHost('bayut.com.')).toBe(true);
    expect(isListingHost('img.sandbox-manzil.example')).toBe(true);
    expect(isListingHost('bayut.com.evil.example')).toBe(false);
    expect(isListingHost('xbayut.com')).toBe(false);
  });
});

describe('images', () => {
  it('loads only https images', () => {
    expect(
      listingCard(searchResult({ images: ['http://static.example.ae/1.jpg', 'https://static.example.ae/2.jpg'] }))
        .imageUrl,
    ).toBe('https://static.example.ae/2.jpg');
    expect(agentCard({ ...simpleAgent, image: 'http://static.example.ae/a.jpg' })).not.toHaveProperty('imageUrl');
    expect(brokerCard({ ...simpleBroker, logo: 'http://static.example.ae/b.png' })).not.toHaveProperty('imageUrl');
    expect(developerCard(developerRecord({ logo_url: 'http://static.example.ae/d.png' }))).not.toHaveProperty(
      'imageUrl',
    );
  });
});
