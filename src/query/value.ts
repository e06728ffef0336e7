// `/value <area> <beds> [<size>]` and the sentences that ask the same ("is 1.8m fair for a 2 bed in jvc?", "what would
// a 1,200 sqft 2br in marina rent for"): what is asked, read with the command language itself (bedrooms, sizes,
// amounts, types and the area as a search reads them), once the words that ask for a value are taken out. Pure.
import { parseCommand } from './parse.js';
import type { Query } from './types.js';

export interface ValueRequest {
  /** The area's words as typed. */
  area: string;
  bedrooms: number;
  sizeSqft?: number;
  /** A residential type slug; "apartment" unless asked. */
  propertyType: string;
  /** A price to place in the range (a rent per year). */
  asking?: { price: number; kind: 'sale' | 'rent' };
}

/** `/value …`, `/manzil value …`, `worth …`: the command itself. */
const TERSE = /^\/?(?:manzil\s+)?\/?(?:value|valuation|estimate|worth)(?:\s+([\s\S]*))?$/i;
/** A sentence asking for a value: "worth", "fair", "overpriced", or ending "… rent for?" / "… sell for?". */
const ASKS =
  /\b(?:worth|fair|fairly|overpriced|underpriced|valuation|value|estimate)\b|\b(?:rent|sell|go|lease)\s+for\s*[?.!]*\s*$/i;
/**
 * "What did 2br in marina sell for", "what do 1br in jvc rent for": what homes sold or let for, a question about the
 * past for transactions, not an estimate ("what would … rent for" is one). Only the "… for?" ending is read so: "is
 * 1.8m fair", "what is it worth" stay values.
 */
const PAST_ASKS =
  /\b(?:did|do|does|have|has|had|are|were)\b[\s\S]*\b(?:sell|sold|selling|rent|rented|renting|lease|leased|leasing)\s+for\s*[?.!]*\s*$/i;
const VALUE_WORDS =
  /\b(?:worth|fair|fairly|overpriced|underpriced|valuation|value|estimate|would|could|should|will|might)\b/i;
/** The words that ask, taken out before the rest is read as a search. */
const ASKING_WORDS =
  /\b(?:how\s+much|a\s+fair\s+price|fairly\s+priced|(?:rent|sell|go|lease)\s+for|worth|fair|fairly|overpriced|underpriced|valuation|value|estimate|price)\b/gi;
const RENT_WORDS = /\b(?:(?:to|for|on)\s+)?(?:rent|rents|rental|renting|rented|lease|let|tenancy)\b/gi;
/** A rent's period said with the amount: the price asked is a rent. */
const RENT_PERIODS = /\b(?:monthly|weekly|daily|yearly|annually|per\s+(?:month|year|annum)|a\s+(?:month|year))\b/i;
const COMMERCIAL = new Set(['search-commercial-buy', 'search-commercial-rent']);
const PER_YEAR: Readonly<Record<string, number>> = { yearly: 1, monthly: 12, weekly: 52, daily: 365 };
const EXAMPLE = 'Try `/value jvc 2br 1200 sqft` or "is 1.8m fair for a 2 bed in jvc?".';

/** `help value`. */
export const VALUE_HELP = [
  '/value <area> <beds> [<size>]: what a home is worth and would rent for, an estimate from public records (not a valuation).',
  '• Area and bedrooms: required ("jvc 2br", "marina studio"); a type if not an apartment ("dubai hills villa 4 bed")',
  "• Size: 1200 sqft or 110 sqm: the price trend's AED per sqft times the size, spread as the live listings' are; without it, the middle half of the last 6 months' transactions",
  '• A price to place: "is 1.8m fair for a 2 bed in jvc?", "is 8k monthly fair for a 1br in jvc" (where it sits in the range)',
  'Examples:',
  '• /value jvc 2br 1200 sqft',
  '• what would a 1,200 sqft 2br in marina rent for',
  '• is 1.8m fair for a 2 bed in jvc?',
].join('\n');

/**
 * The value asked for in a command, or why it cannot be read; undefined when the text asks for something else.
 */
export function valueRequest(text: string): { ask: ValueRequest } | { error: string } | undefined {
  // `/manzil is 1.8m fair…`: the command that carried the sentence is not part of it.
  const trimmed = text.trim().replace(/^\/?manzil(?:\s+|$)/i, '');
  const terse = TERSE.exec(trimmed);
  if (!terse && (!ASKS.test(trimmed) || (PAST_ASKS.test(trimmed) && !VALUE_WORDS.test(trimmed)))) return undefined;
  const asked = terse ? (terse[1] ?? '') : trimmed;
  const words = asked.replace(ASKING_WORDS, ' ').replace(/\s+/g, ' ').trim();
  if (words === '' || /^help\??$/i.test(words)) return { error: `Which home? ${EXAMPLE}` };
  // Before the asking words go: "a fair rent for" says the price is a rent.
  const rent = new RegExp(RENT_WORDS.source, 'i').test(asked) || RENT_PERIODS.test(asked);
  // Read as a search: the verb first, the deal words it needs left in (a rent's "monthly" is a rent's).
  const parsed = parseCommand(`${rent ? 'rent' : 'buy'} ${words.replace(RENT_WORDS, ' ')}`);
  // The search's refusal, in a value's terms: its examples are searches.
  if (!parsed.ok)
    return {
      error: /^Where\?/.test(parsed.error) ? `In which area? ${EXAMPLE}` : `${parsed.error} For a value: ${EXAMPLE}`,
    };
  return readQuery(parsed.query, rent ? 'rent' : 'sale');
}

function readQuery(q: Query, kind: 'sale' | 'rent'): { ask: ValueRequest } | { error: string } {
  if (COMMERCIAL.has(q.operation)) return { error: `I estimate homes, not commercial space. ${EXAMPLE}` };
  const p = q.params;
  if (!q.location) return { error: `In which area? ${EXAMPLE}` };
  const beds = p.bedrooms?.split(',') ?? [];
  if (beds.length !== 1 || !/^\d+$/.test(beds[0]!))
    return {
      error:
        beds.length > 1
          ? `One bedroom count, please: a value is for one kind of home. ${EXAMPLE}`
          : `How many bedrooms? ${EXAMPLE}`,
    };
  const types = p.property_type?.split(',') ?? [];
  if (types.length > 1) return { error: `One type of home, please (an apartment, a villa…). ${EXAMPLE}` };
  const size = one(p.area_min, p.area_max);
  if (size === null) return { error: `One size, please, not a range. ${EXAMPLE}` };
  const price = one(p.price_min, p.price_max);
  if (price === null) return { error: `One price, please, not a range. ${EXAMPLE}` };
  const perYear = PER_YEAR[p.rent_frequency ?? 'yearly'] ?? 1;
  return {
    ask: {
      area: q.location,
      bedrooms: Number(beds[0]),
      propertyType: types[0] ?? 'apartment',
      ...(size !== undefined ? { sizeSqft: size } : {}),
      ...(price !== undefined ? { asking: { price: kind === 'rent' ? price * perYear : price, kind } } : {}),
    },
  };
}

/** One number from a bound or two equal ones; null for a range, undefined for none. */
function one(min: string | undefined, max: string | undefined): number | null | undefined {
  if (min !== undefined && max !== undefined && Number(min) !== Number(max)) return null;
  const v = min ?? max;
  return v === undefined ? undefined : Number(v);
}
