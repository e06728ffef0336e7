// Command text -> Query: the verb first, then the filters in any order, then the place.
import { build } from './build.js';
import { spellOutNumbers } from './number-words.js';
import { scan, type Draft, type ScanOptions } from './scan.js';
import { SENTENCE_FILLERS, readVerb, type Reading } from './sentence.js';
import { MAX_LENGTH, boundPlaceWords, joinWords, normalizeCommand, tokenize, type Token } from './text.js';
import { ParseError, fail, type Family, type ParseResult, type Query } from './types.js';
import { correctionFor, isFilterWord, isWholeFilter } from './typos.js';
import {
  ADREC_TYPES, AMENITY_PHRASES, COMPLETION_PHRASES, DEAL_PHRASES, EMIRATE_PHRASES, FREQUENCY_PHRASES, FURNISHING_PHRASES,
  MARKER_PHRASES, PERIOD_PHRASES, PROPERTY_TYPES, PhraseIndex, SHORT_PERIODS, SORT_PHRASES,
} from './vocabulary.js';

const COMMON = [AMENITY_PHRASES, COMPLETION_PHRASES, DEAL_PHRASES, FREQUENCY_PHRASES, FURNISHING_PHRASES, MARKER_PHRASES, PERIOD_PHRASES, SORT_PHRASES];
const GENERAL = new PhraseIndex([...COMMON, PROPERTY_TYPES]);
// `6m` is six months in transactions and six million everywhere else.
const TRANSACTIONS = new PhraseIndex([...COMMON, PROPERTY_TYPES, SHORT_PERIODS]);
const ADREC = new PhraseIndex([...COMMON, ADREC_TYPES]);
const DEVELOPERS = new PhraseIndex([...COMMON, PROPERTY_TYPES, EMIRATE_PHRASES]);

const indexFor = (family: Family): PhraseIndex =>
  family === 'transactions' ? TRANSACTIONS : family === 'adrec' ? ADREC : family === 'developers' ? DEVELOPERS : GENERAL;

const ID_FAMILIES = new Set<Family>(['agent', 'broker', 'property']);
const ID_HINTS: Partial<Record<Family, string>> = {
  agent: 'Try "/agent 12345"; find agents with "/agents marina".',
  broker: 'Try "/broker 678"; find brokerages with "/brokers marina".',
  property: 'Try "/property 16266089"; the number is on each listing.',
};

export function parseCommand(text: string): ParseResult {
  try {
    // Normalised before parse() judges the length; place text bounded before anything is sent upstream.
    return { ok: true, query: boundPlaceWords(parse(normalizeCommand(text))) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message };
    throw e;
  }
}

function parse(text: string): Query {
  if (text.length > MAX_LENGTH) {
    fail(`That's ${text.length} characters; I read commands of up to ${MAX_LENGTH}. Try something shorter, like "/rent marina 2br under 120k".`);
  }
  const tokens = spellOutNumbers(withoutPrefix(tokenize(text)));
  if (tokens.length === 0) fail('Tell me what to look for, like "/rent marina 2br under 120k". Say "help" to see everything I can do.');
  const reading = readVerb(tokens);
  let family = reading.family;
  let rest = reading.rest;

  if (family === 'location') {
    const words = rest.filter((t) => t.word !== ',');
    if (words.length === 0) fail('Which place? Try "/location marina".');
    return { operation: 'autocomplete-location', params: { query: words.length === 1 && words[0]!.quoted ? words[0]!.raw : joinWords(words) }, location: null, unknownWords: [] };
  }
  // `/agents 123` can only mean one agent.
  if ((family === 'agents' || family === 'brokers') && /^\d+$/.test(rest[0]?.word ?? '')) family = family === 'agents' ? 'agent' : 'broker';

  let id: string | undefined;
  if (ID_FAMILIES.has(family)) {
    const first = rest[0];
    if (!first || first.quoted || !/^\d+$/.test(first.word)) {
      fail(`${first ? `"${first.raw}" is not a number. ` : ''}/${family} needs a number. ${ID_HINTS[family]}`);
    }
    id = first!.word;
    rest = rest.slice(1);
  }

  const index = indexFor(family);
  const options: ScanOptions = reading.sentence ? { dates: family === 'adrec', fillers: SENTENCE_FILLERS } : { dates: family === 'adrec' };
  // Typos are corrected in sentences only: in a terse command an unknown word stays in the place, named (see README).
  const plain = scan(rest, index, options);
  const corrected = reading.sentence ? scanCorrecting(rest, plain, index, options) : undefined;
  if (!corrected) return finish(family, reading, id, plain, []);
  try {
    return finish(family, reading, id, corrected.draft, corrected.corrections);
  } catch (e) {
    // A correction is kept only when the command is then understood: "la vila" read as a second type is a place again.
    if (!(e instanceof ParseError)) throw e;
    try {
      return finish(family, reading, id, plain, []);
    } catch {
      throw e;
    }
  }
}

/** The Query of a scanned command: the verb's own deal word checked against the filters', then built. */
function finish(family: Family, reading: Pick<Reading, 'deal'>, id: string | undefined, draft: Draft, corrections: readonly string[]): Query {
  if (reading.deal) {
    if (draft.deal && draft.deal.value !== reading.deal.value) fail(`You asked for both "${reading.deal.text}" and "${draft.deal.text}". Pick one.`);
    draft.deal ??= reading.deal;
  }
  const query = build(family, draft, id);
  if (corrections.length === 0 && draft.notes.length === 0) return query;
  return { ...query, corrections: [...corrections, ...draft.notes] };
}

/**
 * Scans with typos corrected: each leftover word close to one filter word is read as it, and kept only when the
 * corrected word is then understood as a filter. A word that would still be left over stays as typed, in the place,
 * and so does a word among place words ("Jumeirah Park furnished" is not "Jumeirah, part furnished"). Undefined when
 * nothing was corrected.
 */
function scanCorrecting(tokens: readonly Token[], plain: Draft, index: PhraseIndex, options: ScanOptions): { draft: Draft; corrections: string[] } | undefined {
  const fixed = new Map<Token, Token>();
  for (const token of plain.words) {
    if (token.quoted) continue;
    const target = correctionFor(token.word);
    if (target && (isWholeFilter(target) ? !betweenPlaceWords(tokens, token, plain) : !nextToPlaceWord(tokens, token, plain))) {
      fixed.set(token, { ...token, word: target });
    }
  }
  for (let round = 0; round < 2 && fixed.size > 0; round++) {
    const corrected = tokens.map((t) => fixed.get(t) ?? t);
    let next: Draft;
    try {
      next = scan(corrected, index, options);
    } catch (e) {
      // "Al Bateen" read as "al between" asks "between what?": the words were a place, not a typo.
      if (e instanceof ParseError) return undefined;
      throw e;
    }
    const stillLeft = [...fixed].filter(([, to]) => next.words.includes(to));
    if (stillLeft.length === 0) return { draft: next, corrections: [...fixed].map(([from, to]) => `read "${from.raw}" as ${to.word}`) };
    for (const [from] of stillLeft) fixed.delete(from);
  }
  return undefined;
}

/** A word left over that is no number, no filter's word and no typo of one: a word of the place. */
const isPlaceWord = (token: Token | undefined, draft: Draft): boolean =>
  token !== undefined && token.word !== ',' && draft.words.includes(token) &&
  (token.quoted || (!/\d/.test(token.word) && !isFilterWord(token.word) && !correctionFor(token.word)));

/** Next to a place word: "park" in "Jumeirah Park", "port" in "Port de La Mer", "bateen" in "Al Bateen". */
function nextToPlaceWord(tokens: readonly Token[], token: Token, draft: Draft): boolean {
  const k = tokens.indexOf(token);
  return isPlaceWord(tokens[k - 1], draft) || isPlaceWord(tokens[k + 1], draft);
}

/** Inside a run of place words, with place words on both sides. */
function betweenPlaceWords(tokens: readonly Token[], token: Token, draft: Draft): boolean {
  const k = tokens.indexOf(token);
  return isPlaceWord(tokens[k - 1], draft) && isPlaceWord(tokens[k + 1], draft);
}

/** `/rent ...`, `/manzil rent ...` and `rent ...` are the same command. */
function withoutPrefix(tokens: Token[]): Token[] {
  const out = [...tokens];
  const first = out[0];
  if (first && !first.quoted && first.word.startsWith('/')) {
    const word = first.word.slice(1);
    if (word === '') out.shift();
    else out[0] = { ...first, raw: first.raw.slice(1), word };
  }
  if (out[0]?.word === 'manzil' && !out[0].quoted) out.shift();
  return out;
}
