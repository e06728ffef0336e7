// Command text -> tokens. Case, extra spaces, Unicode dashes and full-width forms stop mattering here.
import { fail, type Query } from './types.js';

/** The longest command read, counted after normalisation (what the parser actually reads). */
export const MAX_LENGTH = 500;
/** Raw text beyond this is refused before normalising: NFKC never shrinks text this much, and it bounds the work. */
export const RAW_MAX_LENGTH = MAX_LENGTH * 8;
/** The longest place text sent upstream: real place names are a few words ("Jumeirah Village Circle"). */
export const PLACE_MAX_CHARS = 80;
export const PLACE_MAX_WORDS = 8;

export interface Token {
  /** As typed (case kept), for location words. */
  readonly raw: string;
  /** Lower case, trailing dots dropped: what the tables are matched against. */
  readonly word: string;
  /** Text that was in double quotes: a location, verbatim. */
  readonly quoted: boolean;
  /** Joined to the previous token by a dash (`Al-Barsha`), so location words keep it. */
  readonly dashBefore: boolean;
}

const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201B\u02BC\u2032`]/g;
const NOISE = /[!?;()[\]{}]/g;
// A comma is a separator unless it sits between digits (120,000 or 1,2 br).
const SEPARATOR_COMMA = /,(?!\d)|(?<!\d),/g;
const COMPARISON = /(<=|>=|<|>)/g;
// `120k/month` -> `120k /month`; `b/r`, `a/c` and dates are left alone.
const PER_SLASH = /(\d(?:k|m|mn)?)\/(?=[a-z])/gi;
// `100k-150k` and `1-3br` -> ranges with a separate dash; `2-bed` stays one word.
const NUMBER_DASH = /(?<=\d(?:k|m|mn)?|\d\+)-(?=\d)/gi;
// Dates typed with dashes become DD/MM/YYYY before the dashes above are split.
const DASH_DATE = /\b(\d{1,2})-(\d{1,2})-(\d{4})\b/g;
const LETTER_DASH = /(?<=\p{L})-(?=\p{L})/u;
// `2br+maid` -> `2br + maid`, `1.5m+` -> `1.5m +`; `3+br` and `1000+` keep theirs (a count and up).
const LETTER_PLUS = /(?<=\p{L})\+/gu;
// Pipes and bullets separate filters: `marina | 2br | furnished`.
const BARS = /[|\u2022\u00B7]/g;

const SHORTER = 'Try something shorter, like "/rent marina 2br under 120k".';

/**
 * The text the parser reads: NFKC (full-width `１２０ｋ` is `120k`, ligatures split, accents composed). Run before the length
 * limit so a command is judged by the length it has once normalised, not by how it was typed.
 */
export function normalizeCommand(text: string): string {
  if (text.length > RAW_MAX_LENGTH) fail(`That's ${text.length} characters; I read commands of up to ${MAX_LENGTH}. ${SHORTER}`);
  return text.normalize('NFKC');
}

function checkPlace(place: string, unknownWords: readonly string[] = []): void {
  const words = place.split(/\s+/).filter(Boolean).length;
  if (place.length <= PLACE_MAX_CHARS && words <= PLACE_MAX_WORDS) return;
  const size = place.length > PLACE_MAX_CHARS ? `${place.length} characters` : `${words} words`;
  // Usually the place is long because words were not understood as filters: name them, so the person can fix them.
  const unknown = unknownWords.length ? ` I didn't understand ${unknownWords.slice(0, 5).map((w) => `"${w}"`).join(', ')}.` : '';
  fail(
    `That place is ${size} long; I look places up by names of up to ${PLACE_MAX_CHARS} characters and ${PLACE_MAX_WORDS} words.${unknown} ` +
      'Give the main name, like "Dubai Marina", and put filters such as "2br" or "under 120k" outside any quotes.',
  );
}

/** Refuses a query whose place text (a location, a lookup, ADREC districts) is longer than a place name can be. */
export function boundPlaceWords(query: Query): Query {
  if (query.location !== null) checkPlace(query.location, query.unknownWords);
  if (query.operation === 'autocomplete-location' && query.params.query !== undefined) checkPlace(query.params.query);
  if (query.params.district !== undefined) for (const district of query.params.district.split(',')) checkPlace(district);
  return query;
}

/** Splits text into tokens; quoted text becomes one token. Throws ParseError on unbalanced quotes. */
export function tokenize(text: string): Token[] {
  const clean = text.normalize('NFKC').replace(DASHES, '-').replace(DOUBLE_QUOTES, '"').replace(SINGLE_QUOTES, "'");
  const parts = clean.split('"');
  if (parts.length % 2 === 0) fail('There is an opening quote without a closing one. Put the place in quotes like "Dubai Marina".');
  const tokens: Token[] = [];
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      const raw = part.trim().replace(/\s+/g, ' ');
      if (raw === '') fail('The quotes are empty. Put a place inside them, like "Dubai Marina".');
      tokens.push({ raw, word: raw.toLowerCase(), quoted: true, dashBefore: false });
      return;
    }
    const spaced = part
      .replace(NOISE, ' ')
      .replace(BARS, ' | ')
      .replace(LETTER_PLUS, ' + ')
      .replace(DASH_DATE, '$1/$2/$3')
      .replace(SEPARATOR_COMMA, ' , ')
      .replace(COMPARISON, ' $1 ')
      .replace(PER_SLASH, '$1 /')
      .replace(NUMBER_DASH, ' - ');
    for (const chunk of spaced.split(/\s+/)) {
      const pieces = chunk.includes('-') ? chunk.split(LETTER_DASH) : [chunk];
      for (let i = 0; i < pieces.length; i++) {
        const raw = pieces[i]!.endsWith('.') ? pieces[i]!.replace(/\.+$/, '') : pieces[i]!;
        if (raw !== '') tokens.push({ raw, word: raw.toLowerCase(), quoted: false, dashBefore: i > 0 });
      }
    }
  });
  return tokens;
}

/** Location words back into text, as typed: single spaces, dashes kept where they joined words. */
export function joinWords(tokens: readonly Token[]): string {
  let out = '';
  for (const t of tokens) out += out === '' ? t.raw : (t.dashBefore ? '-' : ' ') + t.raw;
  return out;
}
