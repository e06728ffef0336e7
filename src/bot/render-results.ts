// Which view shows which operation's records, and which operations page card by card.
import type { OperationName, RecordOf } from '../api/operations.js';
import type { Block, Button } from '../views/model.js';
import {
  adrecView,
  agentCard,
  brokerCard,
  developerCard,
  foldSameFlats,
  listingCard,
  listingGroupCard,
  locationList,
  projectCard,
  propertyDetailsCard,
  transactionsView,
  trendView,
  type FlatGroup,
  type TransactionsScope,
  type PersonButtons,
} from '../views/index.js';

/** Operations whose records are property listings: they get Details buttons and can be saved as alerts. */
export const LISTING_OPERATIONS: ReadonlySet<OperationName> = new Set([
  'search-buy',
  'search-rent',
  'search-commercial-rent',
  'search-commercial-buy',
  'agent-properties',
  'broker-properties',
]);

/** Operations shown as one card per record, ten to a chat page; the others show the service's whole page. */
export const CARD_OPERATIONS: ReadonlySet<OperationName> = new Set([
  ...LISTING_OPERATIONS,
  'search-new-projects',
  'search-agents',
  'search-agents-detailed',
  'search-brokers',
  'search-brokers-detailed',
  'real-estate-developer',
  'get-adrec-transactions',
]);

export interface RenderContext {
  locationName: string;
  /** The property type the search asked for (a slug), when it asked one. */
  propertyType?: string | undefined;
  /** Buttons for one listing card (Details), given its property id. */
  listingButtons: (propertyId: string) => Button[];
  /** Buttons to the listings of an agent or a brokerage a card names (bot/people.ts); none without it. */
  personButtons?: PersonButtons;
  /** Where a listing stands in its market ("8 % below Dubai Marina's 2-bed average of AED 2,230/sqft"), when known. */
  marketContext?: (propertyId: string) => string | undefined;
  /** What a transactions page's figures cover (the period read whole, or the page, said so). */
  period?: TransactionsScope;
}

export function renderRecords(operation: OperationName, records: readonly unknown[], ctx: RenderContext): Block[] {
  const card = (c: ReturnType<typeof listingCard>): Block => ({ kind: 'card', card: c });
  switch (operation) {
    case 'search-buy':
    case 'search-rent':
    case 'search-commercial-rent':
    case 'search-commercial-buy':
    case 'agent-properties':
    case 'broker-properties':
      return (records as RecordOf<'search-buy'>[]).map((r) =>
        card(
          listingCard(r, {
            buttons: ctx.listingButtons(r.property_id),
            ...commercialOf(operation),
            ...people(ctx),
            tile: true,
          }),
        ),
      );
    case 'search-new-projects':
      return (records as RecordOf<'search-new-projects'>[]).map((r) => card(projectCard(r)));
    case 'search-agents':
    case 'search-agents-detailed':
      return (records as RecordOf<'search-agents'>[]).map((r) => card(agentCard(r, people(ctx))));
    case 'search-brokers':
    case 'search-brokers-detailed':
      return (records as RecordOf<'search-brokers'>[]).map((r) => card(brokerCard(r, people(ctx))));
    case 'real-estate-developer':
      return (records as RecordOf<'real-estate-developer'>[]).map((r) => card(developerCard(r)));
    case 'get-get-transactions':
      return transactionsView(records as RecordOf<'get-get-transactions'>[], ctx.period);
    case 'get-adrec-transactions':
      return adrecView(records as RecordOf<'get-adrec-transactions'>[]);
    case 'price-trend-of-location':
      return trendView(records as RecordOf<'price-trend-of-location'>[], ctx.locationName, ctx.propertyType);
    case 'autocomplete-location':
      return locationList(records as RecordOf<'autocomplete-location'>[]);
    case 'property-details':
      return (records as RecordOf<'property-details'>[]).map((r) => card(propertyDetailsCard(r, people(ctx))));
  }
}

const people = (ctx: RenderContext): { personButtons?: PersonButtons } =>
  ctx.personButtons ? { personButtons: ctx.personButtons } : {};

/** Commercial searches' cards show size and price per sqft, never bedrooms (a commercial villa included). */
const commercialOf = (operation: OperationName): { commercial?: true } =>
  operation === 'search-commercial-rent' || operation === 'search-commercial-buy' ? { commercial: true } : {};

/** The property ids of listing records, in order: what the Details buttons of a chat page lead to. */
export function listingIds(operation: OperationName, records: readonly unknown[]): string[] {
  if (!LISTING_OPERATIONS.has(operation)) return [];
  return (records as RecordOf<'search-buy'>[]).map((r) => r.property_id);
}

/** Most Details buttons one page stores (its row's schema allows 50). */
const MAX_DETAILS = 50;

/**
 * The records of a service page as the cards to show: listings of the same flat from several agents folded into one
 * (the rule alerts use, views/same-flat.ts); any other record is a card of its own.
 */
export function cardGroups(operation: OperationName, records: readonly unknown[]): FlatGroup<unknown>[] {
  if (!LISTING_OPERATIONS.has(operation)) return records.map((listing) => ({ listing, copies: [] }));
  return foldSameFlats(records as RecordOf<'search-buy'>[]);
}

/**
 * The property ids behind a page's Details buttons: each card's listing, then the copies folded into them (the Details
 * of a copy with no link).
 */
export function groupListingIds(operation: OperationName, groups: readonly FlatGroup<unknown>[]): string[] {
  if (!LISTING_OPERATIONS.has(operation)) return [];
  const ids = listingIds(
    operation,
    groups.map((g) => g.listing),
  );
  for (const g of groups) for (const id of listingIds(operation, g.copies)) if (ids.length < MAX_DETAILS) ids.push(id);
  return ids;
}

/**
 * The cards of a page of groups: one per flat for listings ("also listed by N other agents"), else as renderRecords.
 */
export function renderGroups(
  operation: OperationName,
  groups: readonly FlatGroup<unknown>[],
  ctx: RenderContext,
): Block[] {
  if (!LISTING_OPERATIONS.has(operation))
    return renderRecords(
      operation,
      groups.map((g) => g.listing),
      ctx,
    );
  return (groups as FlatGroup<RecordOf<'search-buy'>>[]).map((g): Block => {
    const card = listingGroupCard(g.listing, g.copies, {
      ...commercialOf(operation),
      tile: true,
      ...people(ctx),
      buttons: ctx.listingButtons(g.listing.property_id),
      copyButtons: (copy) => ctx.listingButtons((copy as RecordOf<'search-buy'>).property_id),
    });
    const market = ctx.marketContext?.(g.listing.property_id);
    return {
      kind: 'card',
      // The market line leads the tile's body (Slack's card), before who lists it.
      card: market
        ? {
            ...card,
            fields: [...card.fields, { label: 'Market', value: market }],
            ...(card.tile ? { tile: { ...card.tile, body: [market, card.tile.body].filter(Boolean).join('\n') } } : {}),
          }
        : card,
    };
  });
}

/**
 * Keeps each card within the buttons the platform shows under one card: the card's links (View listing) first,
 * since they need no state, then its buttons (Details) in the room left.
 */
export function fitCardButtons(blocks: readonly Block[], buttonsPerCard: number): Block[] {
  return blocks.map((b) => {
    if (b.kind !== 'card') return b;
    const links = (b.card.links ?? []).slice(0, buttonsPerCard);
    const buttons = (b.card.buttons ?? []).slice(0, Math.max(0, buttonsPerCard - links.length));
    const { links: _links, buttons: _buttons, ...rest } = b.card;
    return {
      kind: 'card',
      card: { ...rest, ...(links.length ? { links } : {}), ...(buttons.length ? { buttons } : {}) },
    };
  });
}
