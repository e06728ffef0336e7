// The same flat from several agents (issue 17): one rule, in views/same-flat.ts, for alerts and for search results.
import { describe, expect, it } from 'vitest';
import { compare } from '../../src/alerts/compare.js';
import type { ListingSummary } from '../../src/api/records.js';
import { foldSameFlats, listingCard, listingGroupCard } from '../../src/views/index.js';
import { searchResult } from './fixtures.js';

const flat = (id: string, agent: string, price: number, over: Record<string, unknown> = {}): ListingSummary =>
  searchResult({
    property_id: id,
    price: { value: price, currency: 'AED', period: 'yearly', is_hidden: false },
    agent_details: { id: `a${id}`, name: agent, is_super_agent: false, image: '', languages: [] },
    property_url: `https://www.propertyfinder.ae/en/plp/rent/${id}.html`,
    ...over,
  });

describe('folding the same flat', () => {
  const listings = [
    flat('1', 'Sara Haddad', 120_000),
    flat('2', 'Omar Khan', 150_000), // same flat, 25 % dearer: another flat
    flat('3', 'Lina Aziz', 121_500), // within 2 %: the first flat again
    flat('4', 'Raj Patel', 120_000, { bedrooms: '2' }), // two bedrooms: another flat
    flat('5', 'Mia Stone', 120_000, { size: { value: 900, unit: 'sqft' } }), // 11 % larger: another flat
    flat('6', 'Ali Noor', 120_500, { address: { full_name: 'Marina Gate 2, Marina Gate, Dubai Marina, Dubai' } }), // another building
    flat('3', 'Lina Aziz', 121_500), // the same id again (a later page): counted once
  ];

  it('folds listings of the same area, bedrooms, and size and price within 2 % into the first one, in order', () => {
    const groups = foldSameFlats(listings);
    expect(groups.map((g) => [g.listing.property_id, g.copies.map((c) => c.property_id)])).toEqual([
      ['1', ['3']],
      ['2', []],
      ['4', []],
      ['5', []],
      ['6', []],
    ]);
  });

  it('is the rule alerts fold new listings by: the same groups on the same listings', () => {
    const alerts = compare([], listings, { primed: true, priceDropPct: 5 }).fresh;
    expect(alerts.map((g) => [g.listing.property_id, g.copies.map((c) => c.property_id)])).toEqual(
      foldSameFlats(listings).map((g) => [g.listing.property_id, g.copies.map((c) => c.property_id)]),
    );
  });

  it('never folds listings without an area, a size or a shown price', () => {
    const hidden = { price: { value: 0, currency: 'AED', period: 'yearly', is_hidden: true } };
    expect(foldSameFlats([flat('1', 'A', 0, hidden), flat('2', 'B', 0, hidden)])).toHaveLength(2);
    expect(foldSameFlats([flat('1', 'A', 1, { size: null }), flat('2', 'B', 1, { size: null })])).toHaveLength(2);
  });
});

describe('the card of a flat listed by several agents', () => {
  const details = (id: string) => [{ label: 'Details', action: 'details' as const, token: `row.${id}` }];

  it('says "also listed by N other agents" and links each copy', () => {
    const card = listingGroupCard(
      flat('1', 'Sara Haddad', 120_000),
      [flat('3', 'Lina Aziz', 121_500), flat('7', 'Omar Khan', 120_000)],
      {
        buttons: details('1'),
        copyButtons: (c) => details((c as ListingSummary).property_id),
      },
    );
    expect(card.fields).toContainEqual({ label: 'Also listed by', value: '2 other agents: Lina Aziz, Omar Khan' });
    expect(card.links).toEqual([
      { label: 'View listing', url: 'https://www.propertyfinder.ae/en/plp/rent/1.html' },
      { label: 'Listing by Lina Aziz', url: 'https://www.propertyfinder.ae/en/plp/rent/3.html' },
      { label: 'Listing by Omar Khan', url: 'https://www.propertyfinder.ae/en/plp/rent/7.html' },
    ]);
    expect(card.buttons).toEqual(details('1'));
  });

  it('offers the Details of a copy with no link to follow, named by its agent', () => {
    const card = listingGroupCard(
      flat('1', 'Sara Haddad', 120_000),
      [flat('3', 'Lina Aziz', 121_500, { property_url: 'http://evil.example/3' })],
      {
        buttons: details('1'),
        copyButtons: (c) => details((c as ListingSummary).property_id),
      },
    );
    expect(card.fields).toContainEqual({ label: 'Also listed by', value: '1 other agent: Lina Aziz' });
    expect(card.buttons).toEqual([
      ...details('1'),
      { label: 'Details (Lina Aziz)', action: 'details', token: 'row.3' },
    ]);
  });

  it('is the plain listing card when nobody else lists the flat', () => {
    expect(listingGroupCard(flat('1', 'Sara Haddad', 120_000), [], { buttons: details('1') })).toEqual(
      listingCard(flat('1', 'Sara Haddad', 120_000), { buttons: details('1') }),
    );
  });
});

describe('a copy whose listing names no agent (agent_details null, issue 38)', () => {
  const details = (id: string) => [{ label: 'Details', action: 'details' as const, token: `row.${id}` }];
  const sale = (id: string, agent: string | null, price: number, over: Record<string, unknown> = {}) =>
    flat(id, agent ?? '', price, {
      price: { value: price, currency: 'AED', period: 'sell', is_hidden: false },
      property_url: `https://www.propertyfinder.ae/en/plp/buy/${id}.html`,
      ...(agent === null ? { agent_details: null } : {}),
      ...over,
    });

  it('a sale listed again with no agent: counted as another listing, no person named or to look up', () => {
    const card = listingGroupCard(sale('11', 'Olga Mueller', 2_400_000), [sale('12', null, 2_410_000)]);
    expect(card.fields).toContainEqual({ label: 'Also listed', value: '1 more listing naming no agent' });
    const text = JSON.stringify(card);
    expect(text).not.toMatch(/agent \d/);
    expect(card.links).toContainEqual({
      label: 'Another listing',
      url: 'https://www.propertyfinder.ae/en/plp/buy/12.html',
    });
  });

  it('a letting with one named copy and one without: the named agent, and the other counted', () => {
    const card = listingGroupCard(
      flat('21', 'Sara Haddad', 95_000),
      [
        flat('22', 'Karim Petrova', 95_500),
        flat('23', '', 94_800, { agent_details: null, property_url: 'http://x.example/23' }),
      ],
      { buttons: details('21'), copyButtons: (c) => details((c as ListingSummary).property_id) },
    );
    expect(card.fields).toContainEqual({
      label: 'Also listed by',
      value: '1 other agent: Karim Petrova; 1 more listing naming no agent',
    });
    expect(card.buttons).toContainEqual({ label: 'Details (another listing)', action: 'details', token: 'row.23' });
    expect(JSON.stringify(card)).not.toMatch(/agent [23]\b/);
  });
});
