// `/value` and a listing's "What is it worth?": the area looked up as a search's area is (the location resolver), the
// estimate read through the ValuePort (src/market, from the shared market cache) and shown in words. An area that is
// ambiguous or unknown is said, with the names to type; the service's failures are thrown to the caller's friendly
// error, never read as "no data".
import { bedroomCount, listingFacts, typeSlug } from '../market/figures.js';
import type { ValueAsk } from '../market/value.js';
import { RESIDENTIAL_TYPES } from '../api/operations.js';
import type { LocationResolver } from '../locations/index.js';
import type { ValueRequest } from '../query/value.js';
import { valueView } from '../views/value.js';
import type { Block, Reply } from '../views/model.js';
import { PAYLOAD_VERSION, type Area, type ValueRow } from './button-payloads.js';
import { pick } from './requests.js';
import type { ButtonStateStore, ValuePort } from './types.js';

export const VALUE_OFF = 'Value estimates are not enabled on this Manzil.';
const VALUE_BUTTON = 'What is it worth?';

const names = (areas: readonly { name: string }[]) =>
  areas.length === 1
    ? areas[0]!.name
    : `${areas
        .slice(0, -1)
        .map((p) => p.name)
        .join(', ')} or ${areas.at(-1)!.name}`;

const privately = (text: string): Reply => ({ text, blocks: [{ kind: 'text', text }], ephemeral: true });

/** The estimate for an area already known (a button), as a reply for the channel. */
export async function valueOf(port: ValuePort, area: Area, ask: ValueAsk): Promise<Reply> {
  const estimate = await port.estimate(area, ask);
  return valueView(estimate, area.name);
}

/** `/value <area> <beds> [<size>]`: the area looked up, then the estimate. */
export async function valueCommand(
  port: ValuePort,
  locations: LocationResolver,
  request: ValueRequest,
): Promise<Reply> {
  const { area: typed, ...ask } = request;
  const found = await locations.resolve(typed);
  if (found.kind === 'found') return valueOf(port, pick(found.location), ask);
  const example = (name: string) => `/value "${name}" ${ask.bedrooms === 0 ? 'studio' : `${ask.bedrooms}br`}`;
  if (found.kind === 'ambiguous')
    return privately(
      `"${typed}" matches several places: ${names(found.choices.slice(0, 5))}. Say which, e.g. \`${example(found.choices[0]!.name)}\`.`,
    );
  const guess = found.suggestions.length ? ` Did you mean ${names(found.suggestions.slice(0, 3))}?` : '';
  return privately(`I couldn't find a place called "${typed}".${guess}`);
}

/**
 * What a listing's Details can be valued as: a home for sale or rent with a price and a bedroom count, found by a
 * search in a known area. Undefined otherwise (no button is shown).
 */
export function listingAsk(record: unknown, fromSale: boolean | undefined): ValueAsk | undefined {
  if (fromSale === undefined || typeof record !== 'object' || record === null) return undefined;
  const facts = listingFacts(record as Parameters<typeof listingFacts>[0], fromSale ? 'sale' : 'rent');
  const bedrooms = bedroomCount((record as { bedrooms?: string | number }).bedrooms);
  const type = facts?.propertyType ?? 'apartment';
  if (!facts || bedrooms === undefined || !(RESIDENTIAL_TYPES as readonly string[]).includes(typeSlug(type)))
    return undefined;
  return {
    bedrooms,
    propertyType: type,
    ...(facts.sizeSqft !== undefined ? { sizeSqft: Math.round(facts.sizeSqft) } : {}),
    asking: { price: facts.price, kind: facts.kind },
  };
}

/** The "What is it worth?" button under a listing's details, its row saved; none when no estimate can be made. */
export async function valueButton(
  record: unknown,
  from: { area?: Area; sale?: boolean },
  state: ButtonStateStore,
): Promise<Block[]> {
  const ask = from.area && listingAsk(record, from.sale);
  if (!ask || !from.area) return [];
  const row = await state.save('value', { v: PAYLOAD_VERSION, area: from.area, ask } satisfies ValueRow);
  return [{ kind: 'actions', buttons: [{ label: VALUE_BUTTON, action: 'value', token: `${row}.v` }] }];
}
