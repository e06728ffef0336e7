// Command text -> tokens. Case, extra spaces and Unicode dashes stop mattering here.
import { fail } from './types.js';

export const MAX_LENGTH = 500;

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
