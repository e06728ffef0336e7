// Command text -> tokens. Case, extra spaces, Unicode dashes and full-width forms stop mattering here.
import { fail, type Query } from './types.js';

/** The longest command read, counted after normalisation (what the parser actually reads). */
export const MAX_LENGTH = 500;
/** Raw text beyond this is refused before normalising: NFKC never shrinks text this much, and it bounds the work. */
export const RAW_MAX_LENGTH = MAX_LENGTH * 8;
/** The longest area text sent upstream: real area names are a few words ("Jumeirah Village Circle"). */
export const AREA_MAX_CHARS = 80;
export const AREA_MAX_WORDS = 8;

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
// `≤120k`, `≥ 1000 sqft`: the signs as typed on a phone, read as `<=` and `>=`.
const LESS_OR_EQUAL = /[\u2264\u2A7D]/g;
const MORE_OR_EQUAL = /[\u2265\u2A7E]/g;
const NOISE = /[!?;()[\]{}]/g;
// A comma is a separator unless it sits between digits (120,000 or 1,2 br).
const SEPARATOR_COMMA = /,(?!\d)|(?<!\d),/g;
const COMPARISON = /(<=|>=|<|>)/g;
// `120k/month` -> `120k /month`; `b/r`, `a/c` and dates are left alone. A currency written on goes with the amount:
// `150aed/sqft` -> `150aed /sqft`, `120k aed/yr` -> `aed /yr` (a bare `aed/sqft` is one word the scanner reads whole).
const PER_SLASH = /(\d(?:k|m|mn)?(?:aed|dhs)?)\/(?=[a-z]|\s)/gi;
const CURRENCY_PER_PERIOD = /(?<![\p{L}\p{N}])(aed|dhs)\/(?=(?:yr|year|mo|month|week|wk|day)(?![\p{L}]))/giu;
// `/sqft/yr`, `psf/yr`, `per sq ft/month`: a price per size unit and its rent period, two filters.
const SIZE_THEN_PERIOD = /(?<=(?:^|[\s/])(?:sq\.?ft|sqft|ft|sf|sqm|sq\.?m|m2|ft2|p\.?s\.?f|foot|feet)\.?)\/(?=[a-z])/gi;
// `150psf` is `150 psf`, an amount and its unit.
const FUSED_PSF = /(?<=\d(?:k|m|mn)?)psf\b/gi;
// `100k-150k`, `1.5 m-2 m`, `80 grand-90k`, `80k-AED 120k` and `1-3br` -> ranges with a separate dash; `2-bed` stays
// one word.
const NUMBER_DASH =
  /(?<=\d(?: ?(?:k|m|mn|thousands?|grand|millions?|mil|mln|aed|dhs|dirhams)){0,2}|\d\+)-(?=\d|(?:aed|dhs) ?\d)/gi;
// Dates typed with dashes become DD/MM/YYYY before the dashes above are split.
const DASH_DATE = /\b(\d{1,2})-(\d{1,2})-(\d{4})\b/g;
const LETTER_DASH = /(?<=\p{L})-(?=\p{L})/u;
// Arabic-Indic (٠-٩) and Persian (۰-۹) digits, the Arabic decimal (٫) and thousands (٬) separators, the Arabic comma
// and question mark: read as their Latin forms wherever numbers are read. Letters of any script are left as typed.
const ARABIC_NUMERALS = /[\u0660-\u066C\u06F0-\u06F9\u060C\u061F]/g;
const latinNumeral = (c: string): string => {
  const code = c.charCodeAt(0);
  if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
  return c === '\u066B' ? '.' : c === '\u066C' || c === '\u060C' ? ',' : c === '\u061F' ? '?' : c;
};
// `2br+maid` -> `2br + maid`, `1.5m+` -> `1.5m +`; `3+br` and `1000+` keep theirs (a count and up).
const LETTER_PLUS = /(?<=\p{L})\+/gu;
// Emoji (with their skin tones, joiners and presentation selectors) say nothing a filter or an area needs: "in jlt 🙏".
const EMOJI = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\u{FE0F}|\u{200D}/gu;
// Pipes and bullets separate filters: `marina | 2br | furnished`.
const BARS = /[|\u2022\u00B7]/g;

const SHORTER = 'Try something shorter, like "/rent marina 2br under 120k".';

/**
 * The text the parser reads: NFKC (full-width `１２０ｋ` is `120k`, ligatures split, accents composed). Run before the
 * length
 * limit so a command is judged by the length it has once normalised, not by how it was typed.
 */
export function normalizeCommand(text: string): string {
  if (text.length > RAW_MAX_LENGTH)
    fail(`That's ${text.length} characters; I read commands of up to ${MAX_LENGTH}. ${SHORTER}`);
  return nfkc(text);
}

// ASCII is its own NFKC form, and most commands are printable ASCII: skipping ICU for them is a measurable share of a
// parse.
// Anything else (control characters too, to keep the class readable) takes the full path.
const NON_ASCII = /[^ -~\t\n\r]/;
const nfkc = (text: string): string => (NON_ASCII.test(text) ? text.normalize('NFKC') : text);

function checkArea(area: string, unknownWords: readonly string[] = []): void {
  // A text of 2n characters has at most n words: short areas, nearly all of them, need no counting.
  if (area.length <= 2 * AREA_MAX_WORDS && area.length <= AREA_MAX_CHARS) return;
  const words = area.split(/\s+/).filter(Boolean).length;
  if (area.length <= AREA_MAX_CHARS && words <= AREA_MAX_WORDS) return;
  const size = area.length > AREA_MAX_CHARS ? `${area.length} characters` : `${words} words`;
  // Usually the area is long because words were not understood as filters: name them, so the person can fix them.
  const unknown = unknownWords.length
    ? ` I didn't understand ${unknownWords
        .slice(0, 5)
        .map((w) => `"${w}"`)
        .join(', ')}.`
    : '';
  fail(
    `That place is ${size} long; I look places up by names of up to ${AREA_MAX_CHARS} characters and ${AREA_MAX_WORDS} words.${unknown} ` +
      'Give the main name, like "Dubai Marina", and put filters such as "2br" or "under 120k" outside any quotes.',
  );
}

/** Refuses a query whose area text (a location, a lookup, ADREC districts) is longer than an area name can be. */
export function boundAreaWords(query: Query): Query {
  if (query.location !== null) checkArea(query.location, query.unknownWords);
  if (query.operation === 'autocomplete-location' && query.params.query !== undefined) checkArea(query.params.query);
  if (query.params.district !== undefined) for (const district of query.params.district.split(',')) checkArea(district);
  return query;
}

/** Splits text into tokens; quoted text becomes one token. Throws ParseError on unbalanced quotes. */
export function tokenize(text: string): Token[] {
  // Each replacement only when its character is there: most commands have none of them, and a regex pass costs more
  // than a search.
  let clean = nfkc(text);
  if (NON_ASCII.test(clean)) {
    clean = clean
      .replace(DASHES, '-')
      .replace(DOUBLE_QUOTES, '"')
      .replace(SINGLE_QUOTES, "'")
      .replace(ARABIC_NUMERALS, latinNumeral)
      .replace(LESS_OR_EQUAL, '<=')
      .replace(MORE_OR_EQUAL, '>=')
      .replace(EMOJI, ' ');
  } else if (clean.includes('`')) clean = clean.replace(SINGLE_QUOTES, "'");
  if (!clean.includes('"')) {
    // No quotes, the usual case: one unquoted part.
    const tokens: Token[] = [];
    splitPart(clean, tokens);
    return tokens;
  }
  const parts = clean.split('"');
  if (parts.length % 2 === 0)
    fail('There is an opening quote without a closing one. Put the place in quotes like "Dubai Marina".');
  const tokens: Token[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (index % 2 === 1) {
      const raw = part.trim().replace(/\s+/g, ' ');
      if (raw === '') fail('The quotes are empty. Put a place inside them, like "Dubai Marina".');
      tokens.push({ raw, word: raw.toLowerCase(), quoted: true, dashBefore: false });
      continue;
    }
    splitPart(part, tokens);
  }
  return tokens;
}

// The checks follow the order of the replacements, each on the text as the previous ones left it.
const NOISE_CHARS = /[!?;()[\]{}]/;
const BAR_CHARS = /[|\u2022\u00B7]/;

/** Unquoted text into tokens, pushed onto `tokens`. */
function splitPart(part: string, tokens: Token[]): void {
  let spaced = part;
  if (NOISE_CHARS.test(spaced)) spaced = spaced.replace(NOISE, ' ');
  if (BAR_CHARS.test(spaced)) spaced = spaced.replace(BARS, ' | ');
  if (spaced.includes('+')) spaced = spaced.replace(LETTER_PLUS, ' + ');
  const dashed = spaced.includes('-');
  if (dashed) spaced = spaced.replace(DASH_DATE, '$1/$2/$3');
  if (spaced.includes(',')) spaced = spaced.replace(SEPARATOR_COMMA, ' , ');
  if (spaced.includes('<') || spaced.includes('>')) spaced = spaced.replace(COMPARISON, ' $1 ');
  if (/psf/i.test(spaced)) spaced = spaced.replace(FUSED_PSF, ' psf');
  // A slash after an amount, a currency or a size unit: the one of `/rent` at the start never is.
  if (spaced.indexOf('/', 1) !== -1)
    spaced = spaced.replace(PER_SLASH, '$1 /').replace(CURRENCY_PER_PERIOD, '$1 /').replace(SIZE_THEN_PERIOD, ' /');
  if (dashed && spaced.includes('-')) spaced = spaced.replace(NUMBER_DASH, ' - ');
  // Split at single spaces where there is no other white space: the empty chunks of runs of spaces are dropped below.
  for (const chunk of OTHER_SPACE.test(spaced) ? spaced.split(WHITESPACE) : spaced.split(' ')) {
    if (chunk.includes('-')) {
      const pieces = chunk.split(LETTER_DASH);
      for (let i = 0; i < pieces.length; i++) pushWord(tokens, pieces[i]!, i > 0);
    } else {
      pushWord(tokens, chunk, false);
    }
  }
}

const WHITESPACE = /\s+/;
const OTHER_SPACE = /[^\S ]/;

// A colon ending a word is punctuation between filters, like a full stop: "for sale: villa", "jlt: 1 bed".
const TRAILING_STOPS = /[.:]+$/;

function pushWord(tokens: Token[], piece: string, dashBefore: boolean): void {
  const raw = piece.endsWith('.') || piece.endsWith(':') ? piece.replace(TRAILING_STOPS, '') : piece;
  if (raw !== '') tokens.push({ raw, word: raw.toLowerCase(), quoted: false, dashBefore });
}

/** Location words back into text, as typed: single spaces, dashes kept where they joined words. */
export function joinWords(tokens: readonly Token[]): string {
  let out = '';
  for (const t of tokens) out += out === '' ? t.raw : (t.dashBefore ? '-' : ' ') + t.raw;
  return out;
}
