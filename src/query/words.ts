// Words in and out (issue 40): `-shared`, `-"bed space"`, `without shared`, `no shared` leave out listings with a
// word; `+"sea view"` keeps only listings with it; `not by <brokerage>` leaves out an agency's. The service has no such
// filter, so they are never sent: Manzil reads them here, before the rest of the command, and checks them in each
// listing the service returns (words-match.ts). Quoted text is a phrase; unquoted, one word.
import { z } from 'zod';
import type { Token } from './text.js';
import { ParseError, fail, type Query, type Words } from './types.js';

export type { Words };

const EXCLUDE_WORDS = new Set(['without', 'no', 'excluding', 'except']);
// "no more than 120k", "no less than": bounds, read by the scanner (scan.ts), never words to leave out.
const NOT_WORDS_AFTER_NO = new Set(['more', 'less', 'higher', 'lower', 'later', 'earlier', 'older', 'newer']);
// "no agent fees", "no commission": a wish about the deal, not a word a listing's text would carry; left as typed.
const DEAL_WORDS = new Set(['agent', 'agents', 'agency', 'commission', 'fee', 'fees', 'deposit']);

const norm = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** A word that can be said in or out: letters (any script) with inner dashes, apostrophes or dots, or digits after. */
const WORDLIKE = /^\p{L}[\p{L}\p{N}'’.&-]*$/u;

function add(words: Words, key: keyof Words, text: string): void {
  const value = norm(text);
  if (value === '') return;
  const list = (words[key] ??= []);
  if (!list.includes(value)) list.push(value);
}

/** The word at i joined with the pieces dashed to it (`-semi-furnished` was split at its inner dash). */
function dashedRun(tokens: readonly Token[], i: number, first: string): { text: string; next: number } {
  let text = first;
  let j = i + 1;
  while (tokens[j]?.dashBefore && !tokens[j]!.quoted) text += `-${tokens[j++]!.word}`;
  return { text, next: j };
}

/**
 * The tokens without their words in and out, and the words; the same tokens (and no words) when there are none, the
 * usual case: one check of a few characters a token.
 */
export function takeWords(tokens: readonly Token[]): { tokens: readonly Token[]; words?: Words } {
  if (!tokens.some(mayStart)) return { tokens };
  const words: Words = {};
  const kept: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.quoted) {
      kept.push(t);
      continue;
    }
    // `-"bed space"`, `+"sea view"`: the sign before a quoted phrase (the tokenizer split them at the quote).
    if ((t.word === '-' || t.word === '+') && next?.quoted) {
      add(words, t.word === '-' ? 'exclude' : 'require', next.word);
      i++;
      continue;
    }
    // `-shared`, `+balcony`: a sign joined to a word. `-120k` and `3+` are numbers and stay.
    if ((t.word.startsWith('-') || t.word.startsWith('+')) && WORDLIKE.test(t.word.slice(1))) {
      const run = dashedRun(tokens, i, t.word.slice(1));
      add(words, t.word.startsWith('-') ? 'exclude' : 'require', run.text);
      i = run.next - 1;
      continue;
    }
    // "not by Allsopp", `not by "Allsopp & Allsopp"`; "not furnished" is furnishing, read by the scanner.
    if (t.word === 'not' && tokens[i + 1]?.word === 'by' && !tokens[i + 1]!.quoted) {
      const name = tokens[i + 2];
      if (name && (name.quoted || WORDLIKE.test(name.word) || /^\d+$/.test(name.word))) {
        const run = name.quoted ? { text: name.word, next: i + 3 } : dashedRun(tokens, i + 2, name.word);
        add(words, 'notBy', run.text);
        i = run.next - 1;
        continue;
      }
    }
    // "without shared", `no "bed space"`: not "no more than", and not a number ("no 2br" is no word to look for).
    if (EXCLUDE_WORDS.has(t.word) && next && !t.dashBefore && !next.dashBefore) {
      const isWord =
        next.quoted ||
        (WORDLIKE.test(next.word) &&
          !NOT_WORDS_AFTER_NO.has(next.word) &&
          !(t.word === 'no' && DEAL_WORDS.has(next.word)));
      if (isWord) {
        const run = next.quoted ? { text: next.word, next: i + 2 } : dashedRun(tokens, i + 1, next.word);
        add(words, 'exclude', run.text);
        i = run.next - 1;
        continue;
      }
    }
    kept.push(t);
  }
  return Object.keys(words).length === 0 ? { tokens } : { tokens: kept, words };
}

const mayStart = (t: Token): boolean =>
  !t.quoted && (t.word.startsWith('-') || t.word.startsWith('+') || EXCLUDE_WORDS.has(t.word) || t.word === 'not');

const quoted = (w: string) => `"${w}"`;
const or = (list: readonly string[], joiner: string) =>
  list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} ${joiner} ${list.at(-1)}`;

/** What a summary says of the words: `without "shared" or "bed space", with "sea view", not by "allsopp"`. */
export function wordsSummary(words: Words | undefined): string[] {
  if (!words) return [];
  const out: string[] = [];
  if (words.exclude?.length) out.push(`without ${or(words.exclude.map(quoted), 'or')}`);
  if (words.require?.length) out.push(`with ${or(words.require.map(quoted), 'and')}`);
  const by = (w: string) => (/^\d+$/.test(w) ? `brokerage ${w}` : quoted(w));
  if (words.notBy?.length) out.push(`not by ${or(words.notBy.map(by), 'or')}`);
  if (out.length > 0) out[out.length - 1] += ' (words Manzil checks in each listing)';
  return out;
}

/** The words as the command language writes them, read back to the same words: `-"shared" +"sea view" not by "x"`. */
export function wordsText(words: Words | undefined): string {
  if (!words) return '';
  return [
    ...(words.exclude ?? []).map((w) => `-${quoted(w)}`),
    ...(words.require ?? []).map((w) => `+${quoted(w)}`),
    ...(words.notBy ?? []).map((w) => `not by ${quoted(w)}`),
  ].join(' ');
}

/** One key for the same words in any order: two alerts of one query with these words are the same alert. '' for none. */
export function wordsKey(words: Words | undefined): string {
  if (!words) return '';
  const sorted = (list: readonly string[] | undefined) => [...(list ?? [])].sort();
  const key = { exclude: sorted(words.exclude), require: sorted(words.require), notBy: sorted(words.notBy) };
  return key.exclude.length + key.require.length + key.notBy.length === 0 ? '' : JSON.stringify(key);
}

/** The words back from their key ('' is none). */
export function wordsFromKey(key: string): Words | undefined {
  if (key === '') return undefined;
  try {
    const parsed = JSON.parse(key) as Words;
    const words: Words = {};
    for (const k of ['exclude', 'require', 'notBy'] as const) {
      const list = parsed[k];
      if (Array.isArray(list) && list.length > 0) words[k] = list.filter((w) => typeof w === 'string').map(norm);
    }
    return Object.keys(words).length > 0 ? words : undefined;
  } catch {
    return undefined;
  }
}

/** The listing searches words work on: what they return is listings with a title. */
const LISTING_OPERATIONS: ReadonlySet<string> = new Set([
  'search-rent',
  'search-buy',
  'search-commercial-rent',
  'search-commercial-buy',
  'agent-properties',
  'broker-properties',
]);

const withWordsOf = (query: Query, words: Words): Query => {
  if (!LISTING_OPERATIONS.has(query.operation))
    fail(
      `Words in and out (${wordsText(words)}) are checked in listings: say them after a search to rent or buy, like "/rent marina 2br -shared".`,
    );
  return { ...query, words };
};

/** The query read, with the words said; the searches a refusal offers ("Did you mean 80,000?") keep them too. */
export function withWords(words: Words | undefined, read: () => Query): Query {
  if (!words) return read();
  try {
    return withWordsOf(read(), words);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    throw new ParseError(
      e.message,
      e.suggestion && { ...e.suggestion, query: withWordsOf(e.suggestion.query, words) },
      e.choices?.map((c) => ({ ...c, query: withWordsOf(c.query, words) })),
    );
  }
}

const wordList = z.array(z.string().min(1).max(100)).min(1).max(20).optional();

/** The words as stored in a button's row or a saved alert: they must survive Next, Save and a restart. */
export const wordsSchema = z.object({ exclude: wordList, require: wordList, notBy: wordList }).optional();
