// The parsed form of a command, shared by every part of the command language.
import type { OperationName } from '../api/operations.js';

/** JSON-serialisable (it is stored in SQLite for saved searches and buttons). */
export interface Query {
  operation: OperationName;
  /** Every parameter that would be sent, as text, except location_id; unset ones absent. Includes page when given. */
  params: Record<string, string>;
  /** The location words as typed (quotes removed), or null. Includes unrecognised words. */
  location: string | null;
  /** Words that were not understood and were kept in `location` (so a failed resolution can name them). */
  unknownWords: string[];
  /**
   * How the command was read where it differed from what was typed, for the summary: a typo corrected
   * (`read "furnshed" as furnished`), a range read the right way round, an extra left out. Absent when there is none.
   */
  corrections?: string[];
  /**
   * Bounds on the price per square foot (AED, in the rent's period for rents). The service has no such parameter, so
   * they are never sent: Manzil filters the listings each page returns, and the summary says so. Absent when not asked.
   */
  perSqft?: { min?: number; max?: number };
  /** Asked "how many …": the reply opens with the count (never sent). Absent otherwise. */
  count?: true;
  /**
   * Words in and out (`-shared`, `+"sea view"`, `not by allsopp`: words.ts). The service has no such filter, so they
   * are never sent: Manzil checks them in each listing it returns (words-match.ts). Absent when none were said.
   */
  words?: Words;
}

/** The words of a command, lower case, each list without repeats; absent lists are empty. */
export interface Words {
  /** Listings whose text has any of these are left out. */
  exclude?: string[];
  /** Only listings whose text has every one of these are kept. */
  require?: string[];
  /** Listings of a brokerage (or agent) whose name has any of these are left out; digits alone: a brokerage's id. */
  notBy?: string[];
}

/** What a refusal offers instead, when it can tell: "Did you mean 75,000?" and the search that would run. */
export interface Suggestion {
  /** A button's label: "Yes, 75,000". */
  label: string;
  query: Query;
}

/**
 * A refusal may offer one search instead (`suggestion`: "Did you mean 80,000?"), or ask which of a few it was meant
 * as (`choices`: "To rent or to buy?", a button each).
 */
export type ParseResult =
  { ok: true; query: Query } | { ok: false; error: string; suggestion?: Suggestion; choices?: Suggestion[] };

/** Groups of verbs that read their filters the same way. */
export type Family =
  | 'rent'
  | 'buy'
  | 'projects'
  | 'transactions'
  | 'adrec'
  | 'trend'
  | 'agents'
  | 'brokers'
  | 'agent'
  | 'broker'
  | 'property'
  | 'developers'
  | 'location';

/**
 * A message for the person who typed the command; thrown inside the parser, returned as `{ ok: false }`.
 * Not an Error: refusals are ordinary, and capturing a stack for each would halve the parser's speed.
 */
export class ParseError {
  constructor(
    readonly message: string,
    readonly suggestion?: Suggestion,
    readonly choices?: Suggestion[],
  ) {}
}

export const fail = (message: string): never => {
  throw new ParseError(message);
};

const noted = (query: Query, notes: readonly string[]): Query => ({
  ...query,
  corrections: [...(query.corrections ?? []), ...notes],
});

/**
 * The query read, with notes on how the text was read before parsing (Arabic read as English, chat words left out);
 * the searches a refusal offers ("To rent or to buy?") carry them too.
 */
export function withNotes(notes: readonly string[], read: () => Query): Query {
  if (notes.length === 0) return read();
  try {
    return noted(read(), notes);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    throw new ParseError(
      e.message,
      e.suggestion && { ...e.suggestion, query: noted(e.suggestion.query, notes) },
      e.choices?.map((c) => ({ ...c, query: noted(c.query, notes) })),
    );
  }
}
