// Command text -> Query: the verb first, then the filters in any order, then the area.
import { build } from './build.js';
import { arabicNote, readArabic } from './arabic.js';
import { chatNotes, dropChatWords, withoutMention } from './chat-words.js';
import { formatQuery } from './format.js';
import { impossibleValue } from './limits.js';
import { spellOutNumbers } from './number-words.js';
import { amountText, grouped } from './numbers.js';
import { isKnownAreaWord, knownAreaAt, scan, type Draft, type ScanOptions } from './scan.js';
import { SENTENCE_FILLERS, readVerb, type Reading } from './sentence.js';
import { MAX_LENGTH, boundAreaWords, joinWords, normalizeCommand, tokenize, type Token } from './text.js';
import { ParseError, fail, withNotes, type Family, type ParseResult, type Query } from './types.js';
import { typedWithSlash } from './small-talk.js';
import { correctionFor, isFilterWord, isWholeFilter } from './typos.js';
import { verblessIntent } from './verbless.js';
import { takeWords, withWords } from './words.js';
import {
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  DEAL_PHRASES,
  EMIRATE_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  MARKER_PHRASES,
  PERIOD_PHRASES,
  PROPERTY_TYPES,
  PhraseIndex,
  SHORT_PERIODS,
  SORT_PHRASES,
} from './vocabulary.js';

const COMMON = [
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  DEAL_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  MARKER_PHRASES,
  PERIOD_PHRASES,
  SORT_PHRASES,
];
const GENERAL = new PhraseIndex([...COMMON, PROPERTY_TYPES]);
// `6m` is six months in transactions and six million everywhere else.
const TRANSACTIONS = new PhraseIndex([...COMMON, PROPERTY_TYPES, SHORT_PERIODS]);
const ADREC = new PhraseIndex([...COMMON, ADREC_TYPES]);
const DEVELOPERS = new PhraseIndex([...COMMON, PROPERTY_TYPES, EMIRATE_PHRASES]);

const indexFor = (family: Family): PhraseIndex =>
  family === 'transactions'
    ? TRANSACTIONS
    : family === 'adrec'
      ? ADREC
      : family === 'developers'
        ? DEVELOPERS
        : GENERAL;

const ID_FAMILIES = new Set<Family>(['agent', 'broker', 'property']);
const ID_HINTS: Partial<Record<Family, string>> = {
  agent: 'Try "/agent 201460"; find agents with "/agents marina".',
  broker: 'Try "/broker 1005"; find brokerages with "/brokers marina".',
  property: 'Try "/property 15010364"; the number is on each listing.',
};

export function parseCommand(text: string): ParseResult {
  try {
    // Normalised before parse() judges the length; area text bounded before anything is sent upstream.
    return { ok: true, query: boundAreaWords(parse(normalizeCommand(text))) };
  } catch (e) {
    if (e instanceof ParseError)
      return {
        ok: false,
        error: e.message,
        ...(e.suggestion ? { suggestion: e.suggestion } : {}),
        ...(e.choices ? { choices: e.choices } : {}),
      };
    throw e;
  }
}

function parse(text: string): Query {
  if (text.length > MAX_LENGTH) {
    fail(
      `That's ${text.length} characters; I read commands of up to ${MAX_LENGTH}. Try something shorter, like "/rent marina 2br under 120k".`,
    );
  }
  // Arabic read as the language's English words first: "إيجار شقة غرفتين دبي مارينا" is `rent apartment 2br …`.
  const arabic = readArabic(text);
  const unmentioned = withoutMention(arabic ?? text);
  const typed = withoutPrefix(tokenize(unmentioned.text));
  const chat = dropChatWords(typed, unmentioned.mention);
  // Words in and out ("-shared", "not by allsopp") are read first: they are checked in listings, never sent.
  const said = takeWords(chat.tokens);
  // "@manzil /rent …": the slash after the mention is the command's own.
  const tokens = spellOutNumbers(chat.tokens === typed ? said.tokens : withoutPrefix(said.tokens), knownAreaAt);
  if (tokens.length === 0)
    fail('Tell me what to look for, like "/rent marina 2br under 120k". Say "help" to see everything I can do.');
  const reading = readVerb(tokens);
  // A sentence drops its own politeness, as it always has: only what it would have kept is worth a note.
  const notes = [
    ...(arabic === undefined ? [] : [arabicNote(arabic)]),
    ...chatNotes(reading.sentence ? chat.said : [...chat.said, ...chat.polite]),
  ];
  return withWords(said.words, () => withNotes(notes, () => readReading(reading, text)));
}

function readReading(reading: Reading, text: string): Query {
  if (reading.verbless !== undefined) return readWithoutVerb(reading, typedWithSlash(text));
  let family = reading.family;
  let rest = reading.rest;

  if (family === 'location') {
    const words = rest.filter((t) => t.word !== ',');
    if (words.length === 0) fail('Which place? Try "/location marina".');
    return {
      operation: 'autocomplete-location',
      params: { query: words.length === 1 && words[0]!.quoted ? words[0]!.raw : joinWords(words) },
      location: null,
      unknownWords: [],
    };
  }
  // `/agents 123` can only mean one agent.
  if ((family === 'agents' || family === 'brokers') && /^\d+$/.test(rest[0]?.word ?? ''))
    family = family === 'agents' ? 'agent' : 'broker';

  let id: string | undefined;
  if (ID_FAMILIES.has(family)) {
    const first = rest[0];
    if (!first || first.quoted || !/^\d+$/.test(first.word)) {
      fail(`${first ? `"${first.raw}" is not a number. ` : ''}/${family} needs a number. ${ID_HINTS[family]}`);
    }
    id = first!.word;
    rest = rest.slice(1);
  }

  return readAs(family, reading, rest, id);
}

/** The words after the verb read as the family's filters and area, typos corrected, and built into a Query. */
function readAs(verbFamily: Family, reading: Reading, rest: Token[], id: string | undefined): Query {
  let family = verbFamily;
  let index = indexFor(family);
  const fillers =
    family === 'adrec'
      ? reading.sentence
        ? ADREC_SENTENCE_FILLERS
        : ADREC_FILLERS
      : reading.sentence
        ? SENTENCE_FILLERS
        : undefined;
  const options: ScanOptions = { dates: family === 'adrec', ...(fillers ? { fillers } : {}) };
  let plain = scan(rest, index, options);
  let deal: Pick<Reading, 'deal'> = reading;
  // "rentals in jvc over the last few months", "sales in downtown last 6 months": a question about the past.
  if (reading.sentence && (family === 'rent' || family === 'buy') && plain.period) {
    deal = {
      deal: reading.deal ?? (family === 'rent' ? { value: 'rent', text: 'rentals' } : { value: 'sale', text: 'sales' }),
    };
    family = 'transactions';
    index = indexFor(family);
    plain = scan(rest, index, options);
  }
  // Typos are corrected in every command, terse or a sentence, and the summary says so.
  const corrected = scanCorrecting(rest, plain, index, options);
  if (!corrected) return finish(family, deal, id, plain, []);
  try {
    return finish(family, deal, id, corrected.draft, corrected.corrections);
  } catch (e) {
    // A correction is kept only when the command is then understood: "la vila" read as a second type is an area again.
    if (!(e instanceof ParseError)) throw e;
    try {
      return finish(family, deal, id, plain, []);
    } catch {
      throw e;
    }
  }
}

/**
 * A request without a verb: read as a rent or a sale when the price says which (verbless.ts), and when it cannot, a
 * question with a button for each reading that can be searched ("Rent", "Buy"), and the commands to type instead.
 * Words that ask for no search at all get the refusal readVerb gave.
 */
function readWithoutVerb(reading: Reading, slash: boolean): Query {
  const options: ScanOptions = { dates: false, fillers: SENTENCE_FILLERS };
  const plain = scan(reading.rest, GENERAL, options);
  const intent = verblessIntent(scanCorrecting(reading.rest, plain, GENERAL, options)?.draft ?? plain);
  if (intent === 'none') throw new ParseError(reading.verbless!);
  const readings: Query[] = [];
  let refusal: unknown;
  for (const family of intent === 'ask' ? (['rent', 'buy'] as const) : [intent]) {
    try {
      readings.push(readAs(family, reading, reading.rest, undefined));
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      refusal ??= e;
    }
  }
  // One reading the service can take ("ready" is for sales only) is the answer; none, and the first refusal says why.
  if (readings.length === 0) throw refusal;
  if (readings.length === 1) return readings[0]!;
  const typed = readings.map((q) => `\`${slash ? '/' : ''}${formatQuery(q)}\``);
  const question = readings[0]!.operation === 'get-get-transactions' ? 'Rented or sold?' : 'To rent or to buy?';
  throw new ParseError(
    `${question} Choose one, or type ${typed.join(' or ')}.`,
    undefined,
    readings.map((query) => ({ label: choiceLabel(query), query })),
  );
}

/** The button of a reading: what it searches, in a word. */
const choiceLabel = (query: Query): string =>
  query.operation === 'get-get-transactions'
    ? query.params.transaction_type === 'rented'
      ? 'Rented'
      : 'Sold'
    : query.operation.includes('rent')
      ? 'Rent'
      : 'Buy';

/** Words of ADREC requests that name no district: "adrec transactions in yas island", "records for al reem". */
const ADREC_WORDS = [
  'transactions',
  'transaction',
  'records',
  'record',
  'data',
  'deals',
  'official',
  'district',
  'districts',
];
const ADREC_FILLERS: ReadonlySet<string> = new Set(ADREC_WORDS);
const ADREC_SENTENCE_FILLERS: ReadonlySet<string> = new Set([...SENTENCE_FILLERS, ...ADREC_WORDS]);

/** The Query of a scanned command: the verb's own deal word checked against the filters', then built. */
function finish(
  family: Family,
  reading: Pick<Reading, 'deal'>,
  id: string | undefined,
  draft: Draft,
  corrections: readonly string[],
): Query {
  if (reading.deal) {
    if (draft.deal && draft.deal.value !== reading.deal.value)
      fail(`You asked for both "${reading.deal.text}" and "${draft.deal.text}". Pick one.`);
    draft.deal ??= reading.deal;
  }
  const built = build(family, draft, id);
  const query =
    corrections.length === 0 && draft.notes.length === 0
      ? built
      : { ...built, corrections: [...corrections, ...draft.notes] };
  // The scanner refuses each amount beyond any listing as it reads it; this catches any way round it.
  const impossible = impossibleValue(query);
  if (impossible)
    fail(
      `That search asks for ${impossible}, which no listing has, so I didn't search. Try "/rent marina 2br under 120k".`,
    );
  checkFloors(query, draft);
  return query;
}

// --- Prices too small to be prices
// ------------------------------------------------------------------------------------

/** The least a home rents for in a year, and sells for: below these a number was surely not meant as the price. */
export const RENT_FLOOR = 1_000;
export const SALE_FLOOR = 10_000;
const PER_YEAR: Readonly<Record<string, number>> = { yearly: 1, monthly: 12, weekly: 52, daily: 365 };
const PER_NAME: Readonly<Record<string, string>> = {
  yearly: 'a year',
  monthly: 'a month',
  weekly: 'a week',
  daily: 'a day',
};
const RENT_OPERATIONS = new Set(['search-rent', 'search-commercial-rent']);
const SALE_OPERATIONS = new Set(['search-buy', 'search-commercial-buy', 'search-new-projects']);
const tooSmall = (n: number | undefined, least: number) => n !== undefined && n > 0 && n < least;
/** An amount too small scaled by a thousand, or by a million when a thousand is still too small (a sale "under 2"). */
const scaledUp = (n: number | undefined, least: number) =>
  tooSmall(n, least) ? [1_000, 1_000_000].map((f) => n! * f).find((x) => !tooSmall(x, least)) : n;
const amountsText = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined
    ? `${grouped(amountText(a))} to ${grouped(amountText(b))}`
    : grouped(amountText((a ?? b)!));

/**
 * A rent under AED 1,000 a year or a sale price under AED 10,000 is not searched: "under 75" was surely 75,000. Refused
 * with
 * the question and the search that would run ("Did you mean 75,000?"), never searched as typed.
 */
function checkFloors(query: Query, draft: Draft): void {
  const rent = RENT_OPERATIONS.has(query.operation);
  if (!rent && !SALE_OPERATIONS.has(query.operation)) return;
  const min = query.params.price_min !== undefined ? Number(query.params.price_min) : undefined;
  const max = query.params.price_max !== undefined ? Number(query.params.price_max) : undefined;
  if (min === undefined && max === undefined) return;
  const frequency = query.params.rent_frequency ?? 'yearly';
  const least = rent ? RENT_FLOOR / (PER_YEAR[frequency] ?? 1) : SALE_FLOOR;
  if (!tooSmall(min, least) && !tooSmall(max, least)) return;
  const [newMin, newMax] = [scaledUp(min, least), scaledUp(max, least)];
  const said = draft.price.max?.text ?? draft.price.min!.text;
  const typed = `AED ${amountsText(min, max)}${rent ? ` ${PER_NAME[frequency] ?? ''}` : ''}`;
  const what = rent ? 'any rent' : 'any sale price';
  const usable =
    (min === undefined || newMin !== undefined) &&
    (max === undefined || newMax !== undefined) &&
    (newMin ?? 0) <= (newMax ?? Infinity);
  if (!usable)
    fail(
      `"${said}" reads as ${typed}, less than ${what}, so I didn't search. Write the amount in full, like "under 75k" or "under 1.2m".`,
    );
  const meant = `${amountsText(newMin, newMax)}${rent && frequency !== 'yearly' ? ` ${PER_NAME[frequency] ?? ''}` : ''}`;
  const params = { ...query.params };
  if (newMin !== undefined) params.price_min = amountText(newMin);
  if (newMax !== undefined) params.price_max = amountText(newMax);
  const suggestion: Query = {
    ...query,
    params,
    corrections: [...(query.corrections ?? []), `read "${said}" as AED ${meant}`],
  };
  throw new ParseError(`"${said}" reads as ${typed}, less than ${what}, so I didn't search. Did you mean ${meant}?`, {
    label: `Yes, ${meant}`,
    query: suggestion,
  });
}

/**
 * Scans with typos corrected: each leftover word close to one filter word is read as it, and kept only when the
 * corrected word is then understood as a filter. A word that would still be left over stays as typed, in the area,
 * and so does a word among area words ("Jumeirah Park furnished" is not "Jumeirah, part furnished"). Undefined when
 * nothing was corrected.
 */
function scanCorrecting(
  tokens: readonly Token[],
  plain: Draft,
  index: PhraseIndex,
  options: ScanOptions,
): { draft: Draft; corrections: string[] } | undefined {
  const fixed = new Map<Token, Token>();
  for (const token of plain.words) {
    // A word of a known area ("park" of Jumeirah Park) is no typo, inside the area or out of it.
    if (token.quoted || plain.known?.has(token) || isKnownAreaWord(token.word)) continue;
    const target = correctionFor(token.word);
    if (
      target &&
      (isWholeFilter(target) ? !betweenAreaWords(tokens, token, plain) : !nextToAreaWord(tokens, token, plain))
    ) {
      fixed.set(token, { ...token, word: target });
    }
  }
  for (let round = 0; round < 2 && fixed.size > 0; round++) {
    const corrected = tokens.map((t) => fixed.get(t) ?? t);
    let next: Draft;
    try {
      next = scan(corrected, index, options);
    } catch (e) {
      // "Al Bateen" read as "al between" asks "between what?": the words were an area, not a typo.
      if (e instanceof ParseError) return undefined;
      throw e;
    }
    // A correction never takes a word out of the area: "Wadi Al Safa 5 bedroooms" is not 5 bedrooms in "Wadi Al Safa".
    const areaWords = plain.words.filter((t) => !fixed.has(t) && isAreaWord(t, plain));
    if (areaWords.some((t) => !next.words.includes(t))) return undefined;
    const stillLeft = [...fixed].filter(([, to]) => next.words.includes(to));
    if (stillLeft.length === 0)
      return { draft: next, corrections: [...fixed].map(([from, to]) => `read "${from.raw}" as ${to.word}`) };
    for (const [from] of stillLeft) fixed.delete(from);
  }
  return undefined;
}

/** A word left over that is no number, no filter's word and no typo of one: a word of the area. */
const isAreaWord = (token: Token | undefined, draft: Draft): boolean =>
  token !== undefined &&
  token.word !== ',' &&
  draft.words.includes(token) &&
  (token.quoted ||
    draft.known?.has(token) === true ||
    (!/\d/.test(token.word) && !isFilterWord(token.word) && !correctionFor(token.word)));

/** Next to an area word: "park" in "Jumeirah Park", "port" in "Port de La Mer", "bateen" in "Al Bateen". */
function nextToAreaWord(tokens: readonly Token[], token: Token, draft: Draft): boolean {
  const k = tokens.indexOf(token);
  return isAreaWord(tokens[k - 1], draft) || isAreaWord(tokens[k + 1], draft);
}

/** Inside a run of area words, with area words on both sides. */
function betweenAreaWords(tokens: readonly Token[], token: Token, draft: Draft): boolean {
  const k = tokens.indexOf(token);
  return isAreaWord(tokens[k - 1], draft) && isAreaWord(tokens[k + 1], draft);
}

/** `/rent ...`, `/manzil rent ...` and `rent ...` are the same command. */
function withoutPrefix(tokens: readonly Token[]): Token[] {
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
