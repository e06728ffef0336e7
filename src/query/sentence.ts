// Commands written as sentences: "/manzil can you find 3 bedroom villas for sale in arabian ranches".
// Chat words at the start and the end are dropped, and the verb may come anywhere, in the forms people use
// ("for rent", "to buy", "sold", "price trend", "new projects", "off plan"). What is left is read as a terse command.
import { COMMAND_NAMES } from './command-names.js';
import type { Token } from './text.js';
import { PHRASES, smallTalkOpening } from './small-talk.js';
import { fail, type Family } from './types.js';
import { VERB_MAX_WORDS, matchVerb } from './verbs.js';
import { FILLERS } from './vocabulary.js';
import { withoutOwnWords } from './own-words.js';

/** Words that open a request rather than say what is wanted: "can you find", "show me", "I'm after", "is there". */
const OPENERS = new Set([
  'can',
  'could',
  'would',
  'will',
  'you',
  'please',
  'pls',
  'plz',
  'kindly',
  'find',
  'show',
  'me',
  'us',
  'get',
  'give',
  'search',
  'look',
  'looking',
  'for',
  'i',
  'im',
  "i'm",
  "i'd",
  'id',
  'we',
  "we're",
  'were',
  'am',
  'are',
  'is',
  'there',
  'any',
  'anything',
  'something',
  'some',
  'what',
  'whats',
  "what's",
  'which',
  'who',
  'manzil',
  'after',
  'want',
  'need',
  'like',
  'to',
  'do',
  'have',
  'has',
  'got',
  'list',
  'tell',
  'about',
  'a',
  'an',
  'the',
  'all',
  'just',
  'ok',
  'okay',
  'so',
  'also',
  'still',
  'currently',
  'now',
  'let',
  'know',
  'see',
  'help',
  'interested',
  'in',
  'of',
  'options',
  'available',
  'did',
  'does',
]);
/** Greetings are dropped too, but a command that is only a greeting and a word is not a sentence: "/hello marina". */
const GREETINGS = new Set([
  'hi',
  'hey',
  'hello',
  'hiya',
  'howdy',
  'salam',
  'salaam',
  'marhaba',
  'marhaban',
  'ahlan',
  'morning',
  'afternoon',
  'evening',
  'good',
]);

/**
 * Politeness at the end: "thanks", "thank you", "please", and every other thanks small talk knows ("much appreciated").
 */
const CLOSERS: readonly (readonly string[])[] = [
  ...PHRASES.filter(([kind]) => kind === 'thanks')
    .flatMap(([, phrases]) => phrases)
    // Not "ta": an area may end in it.
    .filter((p) => p !== 'ta')
    .map((p) => p.split(' '))
    .sort((a, b) => b.length - a.length),
  ['thank', 'you', 'very', 'much'],
  ['thanks', 'a', 'lot'],
  ['many', 'thanks'],
  ['thank', 'you'],
  ['thanks'],
  ['thx'],
  ['ty'],
  ['please'],
  ['pls'],
  ['plz'],
  ['cheers'],
  ['asap'],
  ['mate'],
  ['guys'],
];

/** Chat words inside a sentence, dropped like "in" and "the" are in terse commands. */
export const SENTENCE_FILLERS: ReadonlySet<string> = new Set([
  // Not "after" (a date word), "like" or "of" ("Mall of the Emirates").
  ...[...OPENERS].filter((w) => w !== 'after' && w !== 'like' && w !== 'of'),
  ...GREETINGS,
  'ideally',
  'preferably',
  'that',
  'where',
  'thanks',
  'thank',
  'please',
  'properties',
  'property',
  'listings',
  'units',
  'homes',
  'home',
  'or',
  'so',
  'but',
  'close',
  'nearby',
  'next',
  // Questions about the past and about who is best: "what was rented", "what's been sold lately", "how many villas",
  // "upcoming projects", "the top brokers". "Lately" and "recently" leave the default period.
  'was',
  'been',
  'had',
  'how',
  'many',
  'much',
  'upcoming',
  'top',
  'best',
  'lately',
  'recently',
]);

type Strength = 'noun' | 'trend' | 'projects' | 'transactions' | 'deal' | 'weak';

interface SentenceVerb {
  words: readonly string[];
  family: Family;
  strength: Strength;
  deal?: 'rent' | 'sale';
}

const verbs = (
  phrases: readonly string[],
  family: Family,
  strength: Strength,
  deal?: 'rent' | 'sale',
): SentenceVerb[] => phrases.map((p) => ({ words: p.split(' '), family, strength, ...(deal ? { deal } : {}) }));

/** Verbs as sentences say them, anywhere in the text. Stronger kinds decide over weaker ones ("agents for rent"). */
const SENTENCE_VERBS: readonly SentenceVerb[] = [
  ...verbs(['agents'], 'agents', 'noun'),
  ...verbs(['brokers', 'brokerages'], 'brokers', 'noun'),
  ...verbs(['developers'], 'developers', 'noun'),
  ...verbs(
    ['price trends of', 'price trend of', 'trends of', 'trend of', 'price trends', 'price trend', 'trends', 'trend'],
    'trend',
    'trend',
  ),
  ...verbs(
    ['new projects', 'new project', 'new launches', 'new developments', 'projects', 'project'],
    'projects',
    'projects',
  ),
  // The command's own names, said in a sentence: taken with the verb, never left in the area ("sold transactions in
  // jvc", "abu dhabi transactions in saadiyat": "abu dhabi" there is ADREC's scope, not a place inside it).
  ...verbs(
    ['abu dhabi transactions', 'abu dhabi records', 'adrec transactions', 'adrec records', 'adrec'],
    'adrec',
    'noun',
  ),
  ...verbs(['transaction history', 'transactions', 'transaction', 'txns'], 'transactions', 'transactions'),
  ...verbs(['sold'], 'transactions', 'transactions', 'sale'),
  ...verbs(['rented', 'leased'], 'transactions', 'transactions', 'rent'),
  ...verbs(
    ['for rent', 'to rent', 'for lease', 'to lease', 'rentals', 'rental', 'renting', 'rent', 'lease'],
    'rent',
    'deal',
  ),
  ...verbs(
    ['for sale', 'to buy', 'to purchase', 'on sale', 'buying', 'buy', 'purchase', 'sale', 'sales'],
    'buy',
    'deal',
  ),
  ...verbs(['off plan', 'offplan'], 'projects', 'weak'),
].sort((a, b) => b.words.length - a.words.length);

/** By first word, longest first: a sentence is searched word by word. */
const VERBS_BY_FIRST = new Map<string, SentenceVerb[]>();
for (const v of SENTENCE_VERBS) VERBS_BY_FIRST.set(v.words[0]!, [...(VERBS_BY_FIRST.get(v.words[0]!) ?? []), v]);

const STRENGTH_ORDER: readonly Strength[] = ['noun', 'trend', 'projects', 'transactions', 'deal', 'weak'];

export interface Reading {
  family: Family;
  /** Rent or sale said by the verb itself ("sold", "rented"). */
  deal?: { value: 'rent' | 'sale'; text: string };
  /** The words after the verb (or around it, in a sentence), chat words dropped. */
  rest: Token[];
  /**
   * Written as a sentence (chat words, or the verb not first): typos are then corrected and chat words inside dropped.
   */
  sentence: boolean;
  /**
   * No verb anywhere ("cheapest 3 bed villa in dubai hills"): the words may still ask for a search, and the price may
   * say
   * rent or buy (parse.ts). This is the refusal to give when they ask for none. `family` is then only a placeholder.
   */
  verbless?: string;
}

const VERB_NAMES = COMMAND_NAMES.join(', ');
const wordsOf = (tokens: readonly Token[]) => tokens.map((t) => (t.quoted ? '' : t.word));

/** The verb starting at tokens[start]: only the words a verb phrase can take are looked at, not all of them copied. */
function verbAt(tokens: readonly Token[], start: number): ReturnType<typeof matchVerb> {
  const words: string[] = [];
  for (let k = start; k < tokens.length && k < start + VERB_MAX_WORDS; k++)
    words.push(tokens[k]!.quoted ? '' : tokens[k]!.word);
  return matchVerb(words);
}

/** After a terse verb, only words that cannot be a filter open a request: not "to" (a date), "for" or "after". */
const OPENERS_AFTER_VERB = new Set(
  [...OPENERS].filter((w) => !FILLERS.has(w) && !['to', 'after', 'any', 'all', 'some', 'like'].includes(w)),
);

/**
 * Chat words dropped from the start; `chatty` when any went that is not a greeting or an ordinary filler ("in", "the").
 */
function trimStart(
  tokens: readonly Token[],
  openers: ReadonlySet<string>,
): { tokens: Token[]; chatty: boolean; greeted: boolean } {
  // "Good morning Manzil,", "hi there!", "thanks, and": small talk before the request (small-talk.ts knows its kin).
  const quoted = tokens.findIndex((t) => t.quoted);
  let start = smallTalkOpening((quoted === -1 ? tokens : tokens.slice(0, quoted)).map((t) => t.word));
  let chatty = false;
  let greeted = start > 0;
  while (start < tokens.length && !tokens[start]!.quoted) {
    const word = tokens[start]!.word;
    if (!GREETINGS.has(word) && !openers.has(word)) break;
    // A verb is never an opener: "rent" in "to rent" is where the request begins ("for sale" is a verb too).
    if (word !== 'to' && word !== 'for' && verbAt(tokens, start)) break;
    if (GREETINGS.has(word)) greeted = true;
    else if (openers.has(word)) chatty ||= !FILLERS.has(word);
    else break;
    start++;
  }
  return { tokens: tokens.slice(start), chatty, greeted };
}

/** The last word of each closer: a sentence ending in none of them has nothing to trim. */
const CLOSER_ENDS = new Set(CLOSERS.map((c) => c[c.length - 1]!));

/** Politeness dropped from the end of a sentence. Terse commands keep theirs: the area words are reported as typed. */
export function trimEnd(tokens: readonly Token[]): Token[] {
  let end = tokens.length;
  for (let again = true; again;) {
    again = false;
    if (end === 0 || tokens[end - 1]!.quoted || !CLOSER_ENDS.has(tokens[end - 1]!.word)) break;
    for (const closer of CLOSERS) {
      if (end - closer.length < 0) continue;
      if (
        closer.every((w, k) => !tokens[end - closer.length + k]!.quoted && tokens[end - closer.length + k]!.word === w)
      ) {
        end -= closer.length;
        again = true;
        break;
      }
    }
  }
  return tokens.slice(0, end);
}

/** Where the verb is and what it says: first (a terse command), after chat words, or anywhere in a sentence. */
export function readVerb(tokens: readonly Token[]): Reading {
  const first = verbAt(tokens, 0);
  if (first) {
    const family = first.verb.family;
    const after = withoutOwnWords(family, tokens.slice(first.length));
    const deal = first.deal ? { value: first.deal, text: tokens[0]!.word } : undefined;
    // Location lookups and ids take their words as they are.
    if (family === 'location' || family === 'agent' || family === 'broker' || family === 'property') {
      return { family, rest: after, sentence: false, ...(deal ? { deal } : {}) };
    }
    // "/rent can you find me a 2br in marina": a terse verb, then a sentence.
    const trimmed = trimStart(after, OPENERS_AFTER_VERB);
    const sentence = trimmed.chatty || trimmed.greeted;
    return { family, rest: sentence ? trimEnd(trimmed.tokens) : trimmed.tokens, sentence, ...(deal ? { deal } : {}) };
  }
  const trimmed = trimStart(tokens, OPENERS);
  const rest = trimEnd(trimmed.tokens);
  const again = verbAt(rest, 0);
  if (again && rest.length > 0) {
    const deal = again.deal ? { value: again.deal, text: rest[0]!.word } : undefined;
    const after = withoutOwnWords(again.verb.family, rest.slice(again.length));
    return { family: again.verb.family, rest: after, sentence: true, ...(deal ? { deal } : {}) };
  }
  if (rest.length === 0 && (trimmed.chatty || trimmed.greeted) && tokens.length > 1) {
    fail(
      'Tell me what to look for, like "/manzil 2 bed flats to rent in marina". Say "help" to see everything I can do.',
    );
  }
  // "What did …": the "did" was dropped with the chat words, but still says the question is about the past.
  const opened = tokens.slice(0, tokens.length - trimmed.tokens.length);
  const found = findSentenceVerb(
    rest,
    opened.some((t) => t.word === 'did'),
    opened.some((t) => ASKED_NOW.has(t.word)),
  );
  if (!found) {
    const verbless =
      trimmed.chatty && rest.length > 0
        ? `I couldn't tell whether you want to rent, buy, or something else. Say it, like "/manzil 2 bed flats to rent in marina", or start with one of: ${VERB_NAMES}.`
        : `I don't know "${tokens[0]!.raw}". Try one of: ${VERB_NAMES}. For example "/rent marina 2br under 120k".`;
    return { family: 'rent', rest, sentence: true, verbless };
  }
  return { ...found, sentence: true };
}

/** The longest sentence verb starting at words[i]. */
function sentenceVerbAt(words: readonly string[], i: number): SentenceVerb | undefined {
  const list = VERBS_BY_FIRST.get(words[i]!);
  if (!list) return undefined;
  outer: for (const v of list) {
    for (let k = 1; k < v.words.length; k++) if (words[i + k] !== v.words[k]) continue outer;
    return v;
  }
  return undefined;
}

// At module level: a closure made on each call costs more than the call (tsx names every one).
const hitText = (tokens: readonly Token[], h: { start: number; length: number }) =>
  tokens
    .slice(h.start, h.start + h.length)
    .map((t) => t.word)
    .join(' ');

/**
 * "What did … sell for", "how much did … rent for": after "did", a deal verb ending the question asks about the past.
 */
const PAST_DEALS: Readonly<Record<string, SentenceVerb>> = {
  sell: { words: ['sell'], family: 'transactions', strength: 'transactions', deal: 'sale' },
  rent: { words: ['rent'], family: 'transactions', strength: 'transactions', deal: 'rent' },
  lease: { words: ['lease'], family: 'transactions', strength: 'transactions', deal: 'rent' },
  selling: { words: ['selling'], family: 'transactions', strength: 'transactions', deal: 'sale' },
  renting: { words: ['renting'], family: 'transactions', strength: 'transactions', deal: 'rent' },
  leasing: { words: ['leasing'], family: 'transactions', strength: 'transactions', deal: 'rent' },
};
/** "What do 1br in jvc rent for", "what are villas selling for": what homes go for, asked of the records too. */
const ASKED_NOW = new Set(['do', 'does', 'are', 'were', 'is']);

/** The verb of a sentence, its phrases taken out of the words; a question when two verbs disagree. */
function findSentenceVerb(
  tokens: readonly Token[],
  asked: boolean,
  askedNow: boolean,
): Omit<Reading, 'sentence'> | undefined {
  const words = wordsOf(tokens);
  const hits: { start: number; length: number; verb: SentenceVerb }[] = [];
  let past = asked;
  let now = askedNow;
  for (let i = 0; i < words.length; i++) {
    past ||= words[i] === 'did';
    now ||= ASKED_NOW.has(words[i]!);
    const ends = words[i + 1] === undefined || words[i + 1] === 'for' || words[i + 1] === 'at';
    // Only "… rent for" closing the question: "are there flats to rent" is a search.
    const goesFor = now && words[i + 1] === 'for' && words[i + 2] === undefined;
    const verb = ((past && ends) || goesFor ? PAST_DEALS[words[i]!] : undefined) ?? sentenceVerbAt(words, i);
    if (verb) {
      hits.push({ start: i, length: verb.words.length, verb });
      i += verb.words.length - 1;
    }
  }
  if (hits.length === 0) return undefined;
  const strongest = STRENGTH_ORDER.find((s) => hits.some((h) => h.verb.strength === s))!;
  const chosen = hits.filter((h) => h.verb.strength === strongest);
  // "sold transactions": one verb said twice, the deal from the word that has one.
  const head = chosen.find((h) => h.verb.deal) ?? chosen[0]!;
  const clash = chosen.find(
    (h) => h.verb.family !== head.verb.family || (h.verb.deal !== undefined && h.verb.deal !== head.verb.deal),
  );
  if (clash) fail(`You asked for both "${hitText(tokens, head)}" and "${hitText(tokens, clash)}". Pick one.`);
  // The words of the chosen phrases marked in place: a Set of their indexes cost more than the search.
  const taken: boolean[] = new Array<boolean>(tokens.length).fill(false);
  for (const h of chosen) for (let k = h.start; k < h.start + h.length; k++) taken[k] = true;
  // "off plan" next to a rent or sale verb is a completion status, not the projects verb: left for the filters.
  return {
    family: head.verb.family,
    rest: tokens.filter((_, k) => !taken[k]),
    ...(head.verb.deal ? { deal: { value: head.verb.deal, text: hitText(tokens, head) } } : {}),
  };
}
