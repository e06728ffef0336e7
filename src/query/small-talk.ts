// Small talk: "hello", "thanks", "what can you do?" and their kin get a short friendly answer with three commands to
// try, never "I don't know". Only a text that is nothing but small talk is answered so: "hi, 2 bed in marina to rent"
// is a search (the parser drops its greeting). Pure: the bot decides how to send the answer.

/**
 * The commands small talk offers: a rent, a sale and a request written as a person would write it, without a verb
 * (test/bot/talk.test.ts checks that each runs and finds listings in the sandbox).
 */
const EXAMPLES = [
  '/rent marina 2br under 120k',
  '/buy downtown 1-2 br ready under 2.5m',
  '/manzil 2 bed flat in jlt under 100k a year',
];

export type SmallTalkKind = 'greeting' | 'thanks' | 'capabilities' | 'help';

/** Phrases as their words are written once the text is folded (lower case, no accents or apostrophes). */
export const PHRASES: readonly (readonly [kind: SmallTalkKind, phrases: readonly string[]])[] = [
  [
    'greeting',
    [
      'hi',
      'hey',
      'hello',
      'hallo',
      'hiya',
      'heya',
      'howdy',
      'yo',
      'sup',
      'wassup',
      'whats up',
      'greetings',
      'good morning',
      'good afternoon',
      'good evening',
      'good day',
      'morning',
      'afternoon',
      'evening',
      'gm',
      'how are you',
      'how are you doing',
      'hows it going',
      'how is it going',
      'salam',
      'salaam',
      'salam alaikum',
      'salaam alaikum',
      'salam alaykum',
      'as salam alaikum',
      'as salamu alaikum',
      'as salamu alaykum',
      'assalamu alaikum',
      'assalamualaikum',
      'assalam alaikum',
      'asalam o alaikum',
      'marhaba',
      'marhaban',
      'ahlan',
      'ahlan wa sahlan',
      'مرحبا',
      'اهلا',
      'السلام عليكم',
    ],
  ],
  [
    'thanks',
    [
      'thanks',
      'thank you',
      'thank u',
      'thankyou',
      'thx',
      'thnx',
      'thanx',
      'tnx',
      'ty',
      'tysm',
      'ta',
      'cheers',
      'many thanks',
      'thanks a lot',
      'thanks a bunch',
      'thanks so much',
      'thank you so much',
      'thank you very much',
      'much appreciated',
      'appreciated',
      'appreciate it',
      'shukran',
      'shukran jazeelan',
      'شكرا',
    ],
  ],
  [
    'capabilities',
    [
      'what can you do',
      'what else can you do',
      'what do you do',
      'what are you',
      'who are you',
      'what is this',
      'whats this',
      'what is manzil',
      'help me',
      'can you help',
      'can you help me',
      'could you help me',
      'how can you help',
      'how can you help me',
      'what can you help with',
      'what can you help me with',
      'i need help',
      'need help',
      'how does this work',
      'how does it work',
      'how do you work',
      'how do i use this',
      'how do i use you',
      'how to use',
      'how do i start',
      'what can i ask',
      'what can i ask you',
      'what can i do',
      'what do you know',
      'what should i type',
      'what should i ask',
      'what are your commands',
      'get started',
      'getting started',
    ],
  ],
  // "help?" and "Help!" are "help": the full list, as the plain word gets.
  ['help', ['help']],
];

/** Words that go with small talk without changing it: "hi there", "thanks manzil", "ok great, thanks!". */
const COMPANIONS = new Set([
  'manzil',
  'there',
  'please',
  'pls',
  'bot',
  'ok',
  'okay',
  'oh',
  'so',
  'again',
  'guys',
  'mate',
  'team',
  'all',
  'everyone',
  'and',
  'great',
  'perfect',
  'awesome',
  'nice',
  'cool',
  'brilliant',
  'lovely',
  'dear',
  'friend',
  'yes',
]);

/** The phrases by their first word, longest first. */
const BY_FIRST = new Map<string, { words: readonly string[]; kind: SmallTalkKind }[]>();
for (const [kind, phrases] of PHRASES) {
  for (const phrase of phrases) {
    const words = phrase.split(' ');
    BY_FIRST.set(words[0]!, [...(BY_FIRST.get(words[0]!) ?? []), { words, kind }]);
  }
}
for (const list of BY_FIRST.values()) list.sort((a, b) => b.words.length - a.words.length);
const LONGEST_PHRASE = Math.max(...[...BY_FIRST.values()].flat().map((p) => p.words.length));

/** What a stretched word means: "hiii", "heyyy", "thanksss" and "hellooo" are hi, hey, thanks and hello. */
function known(word: string): string {
  if (BY_FIRST.has(word) || COMPANIONS.has(word)) return word;
  // Only a word ending in a repeated letter is stretched; the regex runs for those (and for letters outside the BMP).
  const n = word.length;
  const last = word.charCodeAt(n - 1);
  if (n < 2 || (word.charCodeAt(n - 2) !== last && (last < 0xdc00 || last > 0xdfff))) return word;
  const short = word.replace(/(.)\1+$/u, '$1');
  return BY_FIRST.has(short) || COMPANIONS.has(short) ? short : word;
}

/** Accents and Arabic vowel marks dropped, and apostrophes: "what's" is "whats", "مرحباً" is "مرحبا". */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/['\u2018\u2019\u02BC`]/gu, '');

/**
 * A text's words in lower case, everything that is neither a letter nor a digit (punctuation, emoji, "/manzil") a
 * space.
 */
function words(text: string): string[] {
  return plain(
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/^\s*\/(?:manzil\b)?/u, ''),
  )
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map(known);
}

/** The phrase starting at list[i], the longest, if any. */
const phraseAt = (list: readonly string[], i: number) =>
  BY_FIRST.get(list[i]!)?.find((p) => p.words.every((w, k) => list[i + k] === w));

/**
 * How many of a request's first words (the parser's, in lower case) are small talk: "hi there", "good morning
 * manzil", "thanks! and", "help me". 0 when it opens with none. Punctuation words (",") inside the run are taken too.
 */
export function smallTalkOpening(firstWords: readonly string[]): number {
  // Folded as read, and only as far as small talk goes: this runs on every request.
  const list: string[] = [];
  let end = 0;
  let seen = false;
  for (let i = 0; foldedAt(firstWords, list, i) !== undefined;) {
    const word = list[i]!;
    // A phrase's later words are folded before it is matched.
    if (word !== '' && BY_FIRST.has(word)) foldedAt(firstWords, list, i + LONGEST_PHRASE - 1);
    const phrase = word === '' ? undefined : phraseAt(list, i);
    if (!phrase && word !== '' && !COMPANIONS.has(word)) break;
    seen ||= phrase !== undefined;
    i += phrase ? phrase.words.length : 1;
    if (seen) end = i;
  }
  return end;
}

/**
 * list[i], folding firstWords into `list` up to i first. At module level: a closure made per call costs more than the
 * folding (tsx names each one).
 */
function foldedAt(firstWords: readonly string[], list: string[], i: number): string | undefined {
  for (let k = list.length; k <= i && k < firstWords.length; k++) list.push(foldWord(firstWords[k]!));
  return list[i];
}

/** Printable ASCII only: no marks to drop, its letters and digits [A-Za-z0-9]. */
const ASCII = /^[ -~]*$/;

/** A word of the parser's as small talk reads it: '' for punctuation ("," or "..."). */
const foldWord = (word: string): string =>
  known(
    /^[a-z]*$/.test(word)
      ? word
      : // No NFD and no Unicode classes where there is nothing for them to do.
        ASCII.test(word)
        ? word.replace(/[^A-Za-z0-9]+/g, '')
        : plain(word).replace(/[^\p{L}\p{N}]+/gu, ''),
  );

/** The texts longer than this are never only small talk: no phrase and companion run so long. */
const LONGEST = 120;

/**
 * What a text that is only small talk asks for; undefined when it is anything else (a search, a word we don't know).
 */
export function smallTalkOf(text: string): SmallTalkKind | undefined {
  if (text.length > LONGEST) return undefined;
  const list = words(text);
  const kinds = new Set<SmallTalkKind>();
  for (let i = 0; i < list.length;) {
    const phrase = phraseAt(list, i);
    if (phrase) {
      kinds.add(phrase.kind);
      i += phrase.words.length;
    } else if (COMPANIONS.has(list[i]!)) {
      i++;
    } else {
      return undefined;
    }
  }
  // The strongest ask wins: "hi, what can you do?" wants to know what Manzil does; "help" with a greeting is help.
  return (['help', 'capabilities', 'thanks', 'greeting'] as const).find((k) => kinds.has(k));
}

const OPENINGS: Readonly<Record<Exclude<SmallTalkKind, 'help'>, string>> = {
  greeting:
    "Hello! I'm Manzil: I search the UAE property market for you, homes and commercial space to rent or to buy.",
  thanks: "You're welcome! Anything else I can look up?",
  capabilities:
    "I'm Manzil: I search the UAE property market. I find homes and commercial space to rent or to buy, new projects, " +
    'what sold or rented, price trends, agents and brokerages, and I can watch a search and post its new listings here.',
};

/**
 * The answer to small talk: a short friendly line and three commands to try, written as they are typed where the
 * person is: with the slash where commands have one (Slack, Discord: "/manzil hello"), without in the terminal chat.
 */
export function smallTalkReply(kind: Exclude<SmallTalkKind, 'help'>, slash: boolean): string {
  const typed = (command: string) => (slash ? command : command.replace(/^\/(?:manzil )?/, ''));
  return [
    OPENINGS[kind],
    'Try:',
    ...EXAMPLES.map((e) => `• ${typed(e)}`),
    `Say "${slash ? '/manzil help' : 'help'}" to see everything I can do.`,
  ].join('\n');
}

/**
 * Whether the text was typed as a slash command ("/manzil hi" in Slack or Discord), so answers are written likewise.
 */
export const typedWithSlash = (text: string): boolean => text.trimStart().startsWith('/');
