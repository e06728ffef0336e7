// Which leftover words look like a filter that was not understood, so a failed location lookup can name them.
// An area name rarely mixes digits and letters, is a bare unit ("br", "sqft"), or is one typo away from our words.
import { SIZE_UNITS, BATHROOM_UNITS, BEDROOM_UNITS, CURRENCIES, MULTIPLIERS } from './numbers.js';
import {
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  PROPERTY_TYPES,
  SORT_PHRASES,
} from './vocabulary.js';

/** Words that mean nothing alone: a unit, a currency or a bound without its number. */
const LONE_WORDS = new Set<string>([
  // Not "grand": it is also a word of names ("Grand Bleu Tower").
  ...BEDROOM_UNITS,
  ...BATHROOM_UNITS,
  ...CURRENCIES,
  ...Object.keys(MULTIPLIERS).filter((m) => m.length > 1 && m !== 'grand'),
  ...SIZE_UNITS.map(([p]) => p).filter((p) => !p.includes(' ')),
  'under',
  'below',
  'over',
  'above',
  'upto',
  'between',
  'maximum',
  'minimum',
  'page',
  'pg',
]);

/** Single words of the language, for spotting typos ("furnishd", "bedrom", "apartmnt"). */
const VOCABULARY = [
  ...[
    PROPERTY_TYPES,
    ADREC_TYPES,
    AMENITY_PHRASES,
    COMPLETION_PHRASES,
    FREQUENCY_PHRASES,
    FURNISHING_PHRASES,
    SORT_PHRASES,
  ].flatMap((table) => table.map(([p]) => p).filter((p) => !p.includes(' '))),
  ...LONE_WORDS,
].filter((w) => w.length >= 4);

/**
 * Answers already worked out: area words recur ("marina", "jvc"), and each answer costs a pass over the vocabulary.
 */
const ANSWERS = new Map<string, boolean>();
const ANSWERS_CAP = 20_000;

export function isUnknownWord(word: string): boolean {
  let answer = ANSWERS.get(word);
  if (answer === undefined) {
    answer = looksLikeAFilter(word);
    if (ANSWERS.size >= ANSWERS_CAP) ANSWERS.clear();
    ANSWERS.set(word, answer);
  }
  return answer;
}

function looksLikeAFilter(word: string): boolean {
  if (LONE_WORDS.has(word)) return true;
  if (/\d/.test(word) && /\D/.test(word)) return true;
  if (word.length < 4) return false;
  for (let length = word.length - 1; length <= word.length + 1; length++) {
    for (const v of BY_LENGTH.get(length) ?? [])
      if (v !== word && !isPlural(v, word) && withinOneEdit(v, word)) return true;
  }
  return false;
}

const BY_LENGTH = new Map<number, string[]>();
for (const v of new Set(VOCABULARY)) BY_LENGTH.set(v.length, [...(BY_LENGTH.get(v.length) ?? []), v]);

// "Gardens" is an area (Discovery Gardens), not a typo of "garden". Compared in area: building `${b}s` per pair was
// most of the cost.
const isPlural = (a: string, b: string) =>
  (a.length === b.length + 1 && a.endsWith('s') && a.startsWith(b)) ||
  (b.length === a.length + 1 && b.endsWith('s') && b.startsWith(a));

/**
 * True when one insertion, deletion, substitution or swap of neighbours turns a into b. Without allocating: it runs per
 * vocabulary word.
 */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length === b.length) {
    let first = -1;
    let second = -1;
    for (let k = 0; k < a.length; k++) {
      if (a.charCodeAt(k) === b.charCodeAt(k)) continue;
      if (first === -1) first = k;
      else if (second === -1) second = k;
      else return false;
    }
    if (first !== -1 && second === -1) return true;
    return second !== -1 && second === first + 1 && a[first] === b[second] && a[second] === b[first];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let k = 0;
  while (k < short.length && short[k] === long[k]) k++;
  for (; k < short.length; k++) if (short.charCodeAt(k) !== long.charCodeAt(k + 1)) return false;
  return true;
}
