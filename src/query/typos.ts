// Typos in the language's own words: "furnshed" is furnished, "bedrms" is bedrooms, "townhose" is townhouse.
// Only into filter words, never into an area, and only words close enough to one filter word alone: the same first
// letter, one edit for short words and two for long ones, and no tie between two different words.
import { distance } from 'fastest-levenshtein';
import { SIZE_UNITS, BATHROOM_UNITS, BEDROOM_UNITS, CURRENCIES, MULTIPLIERS } from './numbers.js';
import {
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  DEAL_PHRASES,
  EMIRATE_PHRASES,
  FILLERS,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  MARKER_PHRASES,
  PERIOD_PHRASES,
  PROPERTY_TYPES,
  SORT_PHRASES,
  type PhraseTable,
} from './vocabulary.js';

const wordsOf = (tables: readonly PhraseTable[]) => tables.flatMap((t) => t.flatMap(([p]) => p.split(' ')));

const BOUND_WORDS = [
  'under',
  'below',
  'above',
  'over',
  'between',
  'maximum',
  'minimum',
  'least',
  'budget',
  'less',
  'more',
];

/**
 * What a typo may become: words of filters, each with its meaning, so that "townhose" (as near "townhome" as
 * "townhouse") is no tie. Not deal or emirate words: those are verbs and areas.
 */
const MEANINGS = new Map<string, string>();
const mean = (word: string, meaning: string) => {
  if (word.length >= 4 && /^[a-z]+$/.test(word) && !MEANINGS.has(word)) MEANINGS.set(word, meaning);
};
for (const table of [
  PROPERTY_TYPES,
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  SORT_PHRASES,
  MARKER_PHRASES,
]) {
  for (const [phrase, effect] of table) {
    const words = phrase.split(' ');
    for (const w of words)
      mean(w, words.length === 1 ? `${effect.kind}:${'value' in effect ? effect.value : ''}` : `word:${w}`);
  }
}
// Not abbreviations without vowels ("bdrms"): "bedrms" reads better as bedrooms than as bdrms.
for (const u of BEDROOM_UNITS) if (/[aeiou]/.test(u)) mean(u, 'bedrooms');
mean('studio', 'bedrooms:0');
for (const u of BATHROOM_UNITS) mean(u, 'bathrooms');
for (const [p] of SIZE_UNITS) for (const w of p.split(' ')) mean(w, 'size');
for (const w of BOUND_WORDS) mean(w, `bound:${w}`);

/** Words the language knows as they are: never corrected. */
const KNOWN = new Set<string>([
  ...MEANINGS.keys(),
  ...BEDROOM_UNITS,
  ...wordsOf([DEAL_PHRASES, EMIRATE_PHRASES, PERIOD_PHRASES]),
  ...FILLERS,
  ...CURRENCIES,
  ...Object.keys(MULTIPLIERS),
]);

const BY_FIRST = new Map<string, string[]>();
for (const t of MEANINGS.keys()) BY_FIRST.set(t[0]!, [...(BY_FIRST.get(t[0]!) ?? []), t]);

/**
 * True when the word is a filter on its own ("villa", "cheapest"), not a unit needing a count, a bound needing an
 * amount, or one word of a longer phrase ("part" of "part furnished"): next to an area word, only these are corrected.
 */
export function isWholeFilter(word: string): boolean {
  const meaning = MEANINGS.get(word);
  return (
    meaning !== undefined && meaning.includes(':') && !meaning.startsWith('word:') && !meaning.startsWith('bound:')
  );
}

/** A word of the language's filters ("first" of "newest first"), which is never a word of an area. */
export const isFilterWord = (word: string): boolean => MEANINGS.has(word);

/** Two neighbouring letters swapped ("stuido", "balocny"): one slip of the fingers, though Levenshtein counts two. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  return k < a.length - 1 && a[k] === b[k + 1] && a[k + 1] === b[k] && a.slice(k + 2) === b.slice(k + 2);
}

// "Gardens" is an area (Discovery Gardens), not a typo of "garden".
const isPlural = (a: string, b: string) => a === `${b}s` || b === `${a}s` || a === `${b}es` || b === `${a}es`;

/** Answers already worked out: the same few hundred words recur, and each answer costs a Levenshtein pass. */
const CORRECTIONS = new Map<string, string | undefined>();
const CORRECTIONS_CAP = 20_000;

/** The filter word a typo stands for, or undefined when the word is known, too short, or not close to exactly one. */
export function correctionFor(word: string): string | undefined {
  if (word.length < 4 || KNOWN.has(word) || !/^[a-z']+$/.test(word)) return undefined;
  if (CORRECTIONS.has(word)) return CORRECTIONS.get(word);
  const answer = closestFilterWord(word);
  if (CORRECTIONS.size >= CORRECTIONS_CAP) CORRECTIONS.clear();
  CORRECTIONS.set(word, answer);
  return answer;
}

function closestFilterWord(word: string): string | undefined {
  const most = word.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const target of BY_FIRST.get(word[0]!) ?? []) {
    if (Math.abs(target.length - word.length) > most || isPlural(target, word)) continue;
    const d = isSwap(word, target) ? 1 : distance(word, target);
    // Two edits only for letters left out ("bedrms") or in long words ("furnsihed"): "village" is not "villas".
    if (d > most || (d === 2 && target.length <= word.length && word.length < 8)) continue;
    // Of two spellings of one meaning, the longer reads better: "bedrooms", not "beds".
    if (
      d < bestDistance ||
      (d === bestDistance && MEANINGS.get(target) === MEANINGS.get(best!) && target.length > best!.length)
    ) {
      best = target;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance && MEANINGS.get(target) !== MEANINGS.get(best!)) {
      tie = true;
    }
  }
  return tie ? undefined : best;
}
