// Buttons from the agents and brokerages a reply names to their listings. The cards say which people they name
// (views/people.ts); a page stores them in its one row, and `.l<i>` runs the listings of the i-th, as the command shown
// beside it would.
import type { OperationName } from '../api/operations.js';
import type { Query } from '../query/index.js';
import {
  PERSON_BUTTON_LABEL,
  PERSON_LISTINGS,
  agentRefs,
  brokerRef,
  listingAgent,
  listingBroker,
  sameRef,
  type FlatGroup,
  type PersonButtons,
  type PersonRef,
} from '../views/index.js';
import type { Block, Button } from '../views/model.js';
import { PAYLOAD_VERSION, type PageRow } from './button-payloads.js';
import { LISTING_OPERATIONS, fitCardButtons, renderRecords } from './render-results.js';
import type { ButtonStateStore, Surface } from './types.js';

/** Most people one row stores (the cards of a chat page name at most two each). */
const MAX_PEOPLE = 50;

/** Whether the surface takes buttons to people: room under a card, and not a chat that shows only the command. */
export const offersPersonButtons = (surface: Surface): boolean =>
  surface.buttonsPerCard > 0 && surface.personButtons !== false;

/** The people one record's card names, in the order of its buttons. */
function recordPeople(operation: OperationName, record: unknown): (PersonRef | undefined)[] {
  if (operation === 'property-details') return [listingAgent(record), listingBroker(record)];
  if (LISTING_OPERATIONS.has(operation)) return [listingAgent(record)];
  if (operation === 'search-agents' || operation === 'search-agents-detailed') {
    const { agent, broker } = agentRefs(record);
    return [agent, broker];
  }
  if (operation === 'search-brokers' || operation === 'search-brokers-detailed') return [brokerRef(record)];
  return [];
}

/** The people the cards of a page name, each once: what its row stores for their buttons. */
export function pagePeople(operation: OperationName, groups: readonly FlatGroup<unknown>[]): PersonRef[] {
  const out: PersonRef[] = [];
  for (const g of groups) {
    for (const ref of recordPeople(operation, g.listing)) {
      if (ref && out.length < MAX_PEOPLE && !out.some((o) => sameRef(o, ref))) out.push(ref);
    }
  }
  return out;
}

/** A card's button for a person the row stores; none for one it does not (never a button that leads nowhere). */
export const personButtons =
  (people: readonly PersonRef[], row: string): PersonButtons =>
  (ref) => {
    const i = people.findIndex((p) => sameRef(p, ref));
    return i === -1
      ? []
      : [{ label: PERSON_BUTTON_LABEL[ref.kind], action: 'page', token: `${row}.l${i}` } satisfies Button];
  };

/**
 * An agent's or a brokerage's listings that came back empty: where to find one with listings, rather than a dead end.
 */
export function noPersonListings(query: Query): string | undefined {
  const kind =
    query.operation === 'agent-properties' ? 'agent' : query.operation === 'broker-properties' ? 'broker' : undefined;
  if (!kind) return undefined;
  const id = query.params[PERSON_LISTINGS[kind].param] ?? '';
  const [one, many, verb] = kind === 'agent' ? ['agent', 'agents', 'agents'] : ['brokerage', 'brokerages', 'brokers'];
  return `No listings of ${one} ${id} to show (or no ${one} has that id). \`/${verb}\` and a place (\`/${verb} dubai marina\`) lists ${many} with their ids and how many listings each has.`;
}

/** A property's details (the Details button), with buttons to its agent's and brokerage's listings. */
export async function detailsBlocks(
  propertyId: string,
  records: readonly unknown[],
  surface: Surface,
  state: ButtonStateStore,
): Promise<Block[]> {
  const groups = records.map((listing) => ({ listing, copies: [] }));
  const people = offersPersonButtons(surface) ? pagePeople('property-details', groups) : [];
  const query: Query = {
    operation: 'property-details',
    params: { property_id: propertyId },
    location: null,
    unknownWords: [],
  };
  const row =
    people.length > 0
      ? await state.save('page', { v: PAYLOAD_VERSION, query, surface, details: [], people } satisfies PageRow)
      : '';
  const blocks = renderRecords('property-details', records, {
    locationName: '',
    listingButtons: () => [],
    personButtons: personButtons(people, row),
  });
  return fitCardButtons(blocks, surface.buttonsPerCard);
}
