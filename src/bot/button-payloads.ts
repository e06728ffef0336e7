// What is stored behind chat buttons, checked when read back: a row can be weeks old and from another release,
// so it is parsed with a schema carrying a version `v`, migrated when it is an older shape, refused otherwise.
// One row per reply: its buttons carry `<rowToken>.<suffix>` (`.n` next, `.p` previous, `.s` save, `.d3` details
// of the 4th card, `.c1` the 2nd area offered, `.r` the Refine picker, `.y` yes to "did you mean 80,000?", `.q1` the
// 2nd answer to "to rent or to buy?", `.l2` the listings of the 3rd agent or brokerage the cards name).
import { z } from 'zod';
import { OPERATION_NAMES, operationSpec, type OperationName } from '../api/operations.js';
import { wordsSchema, type Query } from '../query/index.js';
import { PERSON_LISTINGS, type PersonRef } from '../views/index.js';
import { CARD_OPERATIONS } from './render-results.js';
import { MAX_SEEN } from './snapshot.js';
import type { Surface } from './types.js';

export const PAYLOAD_VERSION = 1;

/** The pages Manzil will show: "page 5000" is a typo or a scraper, and each page costs a call. */
export const MAX_PAGE = 100;

/** The last service page Manzil asks for: MAX_PAGE pages as people count them (ADREC counts from 0). */
export const lastPage = (query: Query) => MAX_PAGE - 1 + (operationSpec(query.operation).firstPage ?? 1);

export const DEFAULT_SURFACE: Surface = { cardsPerPage: 10, buttonsPerCard: 5 };

/** The adapter's surface, within what any platform can show; the defaults when it says nothing. */
export function fitSurface(surface: Surface | undefined): Surface {
  if (!surface) return DEFAULT_SURFACE;
  const whole = (n: number, min: number, max: number, fallback: number) =>
    Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
  return {
    cardsPerPage: whole(surface.cardsPerPage, 1, 50, DEFAULT_SURFACE.cardsPerPage),
    buttonsPerCard: whole(surface.buttonsPerCard, 0, 25, DEFAULT_SURFACE.buttonsPerCard),
    ...(surface.personButtons === false ? { personButtons: false } : {}),
  };
}

const areaSchema = z.object({ id: z.number().int().nonnegative(), name: z.string().min(1).max(300) });

export const querySchema = z.object({
  operation: z.enum(OPERATION_NAMES as [OperationName, ...OperationName[]]),
  params: z.record(z.string(), z.string()),
  location: z.string().nullable(),
  unknownWords: z.array(z.string()),
  // How the command was read ("read "furnishd" as furnished"): the summary of every page says it again.
  corrections: z.array(z.string().max(300)).max(20).optional(),
  // Price per sqft: filtered on what the service returns, so it must survive Next, Previous and "Did you mean".
  perSqft: z.object({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() }).optional(),
  // Words in and out: checked in what the service returns, so they too must survive Next, Previous and Save.
  words: wordsSchema,
}) satisfies z.ZodType<Query>;

const pageNumber = z.number().int().min(0).max(MAX_PAGE);
const recordKeys = z.array(z.string().max(64)).max(MAX_SEEN + 50);

/**
 * Where a chat page is: a service page and, for tables, nothing more (`offset` 0). A result shown card by card adds
 * its snapshot (bot/snapshot.ts: the keys passed over, the cards shown, where earlier pages started); rows from before
 * snapshots have only `offset`, the card's index on that service page, and are read as a skip. `chat`: a chat page
 * typed (`page 3`), counted from the result's first card.
 */
const positionSchema = z.object({
  page: pageNumber,
  offset: z.number().int().min(-1),
  chat: z.number().int().min(1).max(MAX_PAGE).optional(),
  skip: z.number().int().min(0).max(MAX_SEEN).optional(),
  shown: z
    .number()
    .int()
    .min(0)
    .max(MAX_SEEN + 50)
    .optional(),
  seen: recordKeys.optional(),
  back: z
    .array(
      z.object({
        page: pageNumber,
        skip: z.number().int().min(0).max(MAX_SEEN),
        shown: z.number().int().min(0),
        seen: z.number().int().min(0),
      }),
    )
    .max(MAX_PAGE + 1)
    .optional(),
  arrived: recordKeys.optional(),
});

const surfaceSchema = z.object({
  cardsPerPage: z.number().int().min(1).max(50),
  buttonsPerCard: z.number().int().min(0).max(25),
  personButtons: z.boolean().optional(),
});

/** An agent or a brokerage a card names; the id as the listing operations take it (digits). */
const personSchema = z.object({ kind: z.enum(['agent', 'broker']), id: z.string().regex(/^\d{1,32}$/) });

/** A chat page of a search: where it is, what its buttons lead to, and the surface it was laid out for. */
const pageRowSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  query: querySchema,
  location: areaSchema.optional(),
  surface: surfaceSchema,
  /** The property ids behind the Details buttons, in card order. */
  details: z.array(z.string().max(64)).max(50),
  next: positionSchema.optional(),
  previous: positionSchema.optional(),
  /** The agents and brokerages behind the cards' "…'s listings" buttons (bot/people.ts). */
  people: z.array(personSchema).max(50).optional(),
});

/** "Which area did you mean?": the search, and the areas offered. */
const chooseRowSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  query: querySchema,
  surface: surfaceSchema,
  choices: z.array(areaSchema).max(25),
});

/** "Did you mean 80,000?": the search that would run, and the area picked beside the command, if any. */
const runRowSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  query: querySchema,
  surface: surfaceSchema,
  chosen: z.object({ id: z.number().int().nonnegative().optional(), name: z.string().min(1).max(300) }).optional(),
});

/** "To rent or to buy?": a search per button, and the area picked beside the command, if any. */
const askRowSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  queries: z.array(querySchema).min(1).max(5),
  surface: surfaceSchema,
  chosen: runRowSchema.shape.chosen,
});

/** "What is it worth?" under a listing's details: the area it was found in and what is asked of it. */
const valueRowSchema = z.object({
  v: z.literal(PAYLOAD_VERSION),
  area: areaSchema,
  ask: z.object({
    bedrooms: z.number().int().min(0).max(50),
    sizeSqft: z.number().positive().optional(),
    propertyType: z.string().min(1).max(40),
    asking: z.object({ price: z.number().positive(), kind: z.enum(['sale', 'rent']) }).optional(),
  }),
});

export type PageRow = z.infer<typeof pageRowSchema>;
export type ValueRow = z.infer<typeof valueRowSchema>;
export type AskRow = z.infer<typeof askRowSchema>;
export type RunRow = z.infer<typeof runRowSchema>;
export type ChooseRow = z.infer<typeof chooseRowSchema>;
export type Area = z.infer<typeof areaSchema>;
export type Position = z.infer<typeof positionSchema>;

/** What a pressed button asks for, once its row is read and checked. */
export type ButtonIntent =
  /** `replace`: the reply replaces the message the button is on (paging), rather than being posted anew. */
  | { kind: 'show'; query: Query; location?: Area; position: Position; surface: Surface; replace: boolean }
  /** `area` and `sale`: the search the listing was found by, when it was a residential one in an area. */
  | { kind: 'details'; propertyId: string; area?: Area; sale?: boolean }
  | { kind: 'value'; area: Area; ask: ValueRow['ask'] }
  /** `to: 'me'`: "Save for me", an alert to the person's direct messages. */
  | { kind: 'save'; query: Query; location?: Area; to?: 'me' }
  | { kind: 'refine'; query: Query; surface: Surface }
  /** A search to run as a new command would (its area looked up): the yes of "did you mean 80,000?". */
  | { kind: 'run'; query: Query; surface: Surface; chosen?: { id?: number; name: string } }
  | { kind: 'unusable'; reason: 'older' | 'unknown' };

/** A button's token: the row's token and, after a dot, what the button does. Older tokens have no dot. */
export function splitToken(token: string): { row: string; suffix: string | undefined } {
  const dot = token.indexOf('.');
  return dot === -1 ? { row: token, suffix: undefined } : { row: token.slice(0, dot), suffix: token.slice(dot + 1) };
}

/** Reads a stored row for the button that was pressed. Never throws; anything unreadable is 'unusable'. */
export function readButton(kind: string, payload: unknown, suffix: string | undefined): ButtonIntent {
  if (suffix === undefined) return readLegacy(kind, payload);
  const index = (prefix: string) => new RegExp(`^${prefix}(\\d{1,2})$`).exec(suffix)?.[1];
  if (kind === 'page') {
    const row = pageRowSchema.safeParse(payload);
    if (!row.success) return unusable(payload);
    const { query, location, surface } = row.data;
    const at = (position: Position | undefined): ButtonIntent =>
      position
        ? { kind: 'show', query, ...(location ? { location } : {}), position, surface, replace: true }
        : { kind: 'unusable', reason: 'unknown' };
    if (suffix === 'n') return at(row.data.next);
    if (suffix === 'p') return at(row.data.previous);
    if (suffix === 's') return { kind: 'save', query, ...(location ? { location } : {}) };
    if (suffix === 'sm') return { kind: 'save', query, ...(location ? { location } : {}), to: 'me' };
    if (suffix === 'r') return { kind: 'refine', query, surface };
    const l = index('l');
    if (l !== undefined) {
      const person = row.data.people?.[Number(l)];
      return person ? { kind: 'run', query: personQuery(person), surface } : { kind: 'unusable', reason: 'unknown' };
    }
    const d = index('d');
    const propertyId = d !== undefined ? row.data.details[Number(d)] : undefined;
    if (propertyId === undefined) return { kind: 'unusable', reason: 'unknown' };
    const sale = { 'search-buy': true, 'search-rent': false }[query.operation as string];
    return { kind: 'details', propertyId, ...(location && sale !== undefined ? { area: location, sale } : {}) };
  }
  if (kind === 'value') {
    const row = valueRowSchema.safeParse(payload);
    if (!row.success) return unusable(payload);
    return suffix === 'v' ? { kind: 'value', ...row.data } : { kind: 'unusable', reason: 'unknown' };
  }
  if (kind === 'choose') {
    const row = chooseRowSchema.safeParse(payload);
    if (!row.success) return unusable(payload);
    const c = index('c');
    const location = c !== undefined ? row.data.choices[Number(c)] : undefined;
    if (!location) return { kind: 'unusable', reason: 'unknown' };
    // The "which one?" prompt is private: the results are posted for the channel, not in its place.
    return {
      kind: 'show',
      query: row.data.query,
      location,
      position: firstPosition(row.data.query),
      surface: row.data.surface,
      replace: false,
    };
  }
  if (kind === 'run') {
    const row = runRowSchema.safeParse(payload);
    if (!row.success) return unusable(payload);
    if (suffix !== 'y') return { kind: 'unusable', reason: 'unknown' };
    const { query, surface, chosen } = row.data;
    return { kind: 'run', query, surface, ...(chosen ? { chosen } : {}) };
  }
  if (kind === 'ask') {
    const row = askRowSchema.safeParse(payload);
    if (!row.success) return unusable(payload);
    const q = index('q');
    const query = q !== undefined ? row.data.queries[Number(q)] : undefined;
    if (!query) return { kind: 'unusable', reason: 'unknown' };
    const { surface, chosen } = row.data;
    return { kind: 'run', query, surface, ...(chosen ? { chosen } : {}) };
  }
  return { kind: 'unusable', reason: 'unknown' };
}

/** A row that fails its schema: from an older release when it has no version, else simply unreadable. */
function unusable(payload: unknown): ButtonIntent {
  const versioned = typeof payload === 'object' && payload !== null && 'v' in payload;
  return { kind: 'unusable', reason: versioned ? 'unknown' : 'older' };
}

// --- Rows from before versioning: one row per button, the token without a suffix. ---------------------------------

const legacySearch = z.object({
  query: querySchema,
  location: areaSchema.optional(),
  page: positionSchema.shape.page,
  offset: positionSchema.shape.offset,
});
const legacyChoose = z.object({ query: querySchema, location: areaSchema });
const legacyDetails = z.object({ propertyId: z.string().min(1).max(64) });
const legacySave = z.object({ query: querySchema, location: areaSchema.optional() });
const legacyRefine = z.object({ query: querySchema });

function readLegacy(kind: string, payload: unknown): ButtonIntent {
  const older = { kind: 'unusable', reason: 'older' } as const;
  switch (kind) {
    case 'search': {
      const p = legacySearch.safeParse(payload);
      if (!p.success) return older;
      const { query, location, page, offset } = p.data;
      return {
        kind: 'show',
        query,
        ...(location ? { location } : {}),
        position: { page, offset },
        surface: DEFAULT_SURFACE,
        replace: true,
      };
    }
    case 'choose': {
      const p = legacyChoose.safeParse(payload);
      // Older releases asked "which one?" in the channel, so the answer still takes the question's place.
      return p.success
        ? {
            kind: 'show',
            query: p.data.query,
            location: p.data.location,
            position: firstPosition(p.data.query),
            surface: DEFAULT_SURFACE,
            replace: true,
          }
        : older;
    }
    case 'details': {
      const p = legacyDetails.safeParse(payload);
      return p.success ? { kind: 'details', propertyId: p.data.propertyId } : older;
    }
    case 'save': {
      const p = legacySave.safeParse(payload);
      return p.success
        ? { kind: 'save', query: p.data.query, ...(p.data.location ? { location: p.data.location } : {}) }
        : older;
    }
    case 'refine': {
      const p = legacyRefine.safeParse(payload);
      return p.success ? { kind: 'refine', query: p.data.query, surface: DEFAULT_SURFACE } : older;
    }
    default:
      return older;
  }
}

/** The search a person's button runs: the same as typing the command shown beside it (views/people.ts). */
export const personQuery = (ref: PersonRef): Query => ({
  operation: PERSON_LISTINGS[ref.kind].operation,
  params: { [PERSON_LISTINGS[ref.kind].param]: ref.id },
  location: null,
  unknownWords: [],
});

/**
 * The page a query asks for ("page 3"), or the operation's first page. A result shown card by card counts the pages
 * typed as chat pages (`chat`), read from the service's first page; a table's page is the service's.
 */
export function firstPosition(query: Query): Position {
  const typed = query.params.page !== undefined ? Number(query.params.page) : undefined;
  const first = operationSpec(query.operation).firstPage ?? 1;
  const page = typed !== undefined && Number.isInteger(typed) ? typed : first;
  if (!CARD_OPERATIONS.has(query.operation)) return { page, offset: 0 };
  const chat = page - first + 1;
  return { page: first, offset: 0, ...(chat > 1 ? { chat } : {}) };
}
