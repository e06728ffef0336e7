// Stage 2, plan the search and resolve its area: a planned search becomes the first chat page to fetch (its area's id
// known), or a question for the person: "which one?" when several areas match, "did you mean?" when none does. The
// questions go only to the person who typed; the channel sees the results.
import { operationSpec } from '../../api/operations.js';
import type { LocationResolver } from '../../locations/index.js';
import { arabicNameOf, hasArabic, type Query } from '../../query/index.js';
import type { Block } from '../../views/model.js';
import { PAYLOAD_VERSION, firstPosition, type Area, type ChooseRow, type Position } from '../button-payloads.js';
import { pick, type PlannedSearch } from '../requests.js';
import type { Surface } from '../types.js';
import type { Draft } from './stages.js';

const EXAMPLE = 'Try `/rent marina 2br under 120k` or `/manzil help`.';

/** One chat page to show: a search, where in it, and the surface it is laid out for. */
export interface PageView {
  query: Query;
  location?: Area | undefined;
  position: Position;
  surface: Surface;
}

/** The first page to fetch, or a question (its buttons still to remember). */
export type Resolved = { view: PageView } | { ask: Draft };

export async function resolveArea(
  locations: LocationResolver,
  { query, chosen }: PlannedSearch,
  surface: Surface,
): Promise<Resolved> {
  const first = (location?: Area): Resolved => ({
    view: { query, ...(location ? { location } : {}), position: firstPosition(query), surface },
  });
  if (!('location_id' in operationSpec(query.operation).params) || !query.location) return first();
  // An area picked from a list carries its id: searched there, with no second lookup (two areas may share a name).
  if (chosen?.id !== undefined) return first({ id: chosen.id, name: chosen.name });
  const resolution = await locations.resolve(query.location);
  if (resolution.kind === 'found') return first(pick(resolution.location));
  if (resolution.kind === 'ambiguous') {
    const text = `"${query.location}" matches several places. Which one did you mean?`;
    return { ask: choices(text, query, surface, resolution.choices.map(pick)) };
  }
  const unknown =
    query.unknownWords.length > 0
      ? ` I also didn't understand ${query.unknownWords.map((w) => `"${w}"`).join(', ')}.`
      : '';
  // "Did you mean Dubai Marina?": the resolver's best few, named in the text and offered as buttons.
  // Asked in Arabic, each is named in Arabic too: "Dubai Marina (دبي مارينا)".
  const arabic = hasArabic(query.location);
  const names = resolution.suggestions.map((s) => {
    const inArabic = arabic ? arabicNameOf(s.name) : undefined;
    return inArabic ? `${s.name} (${inArabic})` : s.name;
  });
  const question =
    names.length > 0
      ? ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`
      : '';
  const text = `I couldn't find a place called "${query.location}".${question}${unknown}`;
  if (resolution.suggestions.length > 0)
    return { ask: choices(text, query, surface, resolution.suggestions.map(pick)) };
  const blocks: Block[] = [
    { kind: 'text', text },
    { kind: 'context', text: EXAMPLE },
  ];
  return { ask: { layout: () => ({ text, blocks, ephemeral: true }) } };
}

/** The question and one row of buttons for the areas offered; each button carries its index. */
function choices(text: string, query: Query, surface: Surface, areas: Area[]): Draft {
  const offered = areas.slice(0, 25);
  return {
    row: { kind: 'choose', payload: { v: PAYLOAD_VERSION, query, surface, choices: offered } satisfies ChooseRow },
    layout: (row) => ({
      text,
      blocks: [
        { kind: 'text', text },
        {
          kind: 'actions',
          buttons: offered.map((c, i) => ({ label: c.name, action: 'choose', token: `${row}.c${i}` })),
        },
      ],
      ephemeral: true,
    }),
  };
}
