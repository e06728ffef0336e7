// Numbers spelled out ("three beds", "two million", "half a million", "one and a half million") become the digits
// the rest of the parser reads. A number word is only a number when it counts something: a scale word (hundred,
// thousand, million) is part of it, or a unit follows (beds, baths, sqft, AED...). "One JLT" and "Marina One" stay
// names.
import { SIZE_UNITS, CURRENCIES, MULTIPLIERS, amountText, roomUnit } from './numbers.js';
import type { Token } from './text.js';

const UNITS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
/** The digits after "point": "two point five million", "one point two five million". */
const DIGITS: Readonly<Record<string, string>> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = {
  thousand: 1_000,
  grand: 1_000,
  k: 1_000,
  million: 1_000_000,
  mil: 1_000_000,
  mn: 1_000_000,
  m: 1_000_000,
};

/** Words that can start a spelled-out number: checked first, so commands without one cost a set lookup per word. */
export const STARTS: ReadonlySet<string> = new Set([
  ...Object.keys(UNITS),
  ...Object.keys(TENS),
  'a',
  'an',
  'half',
  'hundred',
]);

/** Size unit phrases by first word, for "two thousand square feet". */
const SIZE_FIRST = new Set(SIZE_UNITS.map(([p]) => p.split(' ')[0]!));
/** Words that may sit between two counts: "two or three beds", "one to three bedrooms". */
const JOINERS = new Set(['or', 'to', '-', ',', 'and']);

interface Spelled {
  value: number;
  /** How many words it took. */
  length: number;
  /** 1, 1000 or 1000000: the scale said, so "two million" reads as 2m. */
  multiplier: number;
  /** A scale word (hundred, thousand, million) or "half" was part of it: surely an amount. */
  scaled: boolean;
}

/** A number of one to a few words at words[i] ("twenty five", "a hundred thousand", "one and a half million"). */
// At module level rather than a closure in readSpelled(): made on every call, it cost more than the calls (tsx names
// each one).
const wordAt = (words: readonly string[], n: number) => words[n] ?? '';

export function readSpelled(words: readonly string[], i: number): Spelled | undefined {
  let k = i;
  // "half a million", "half million"
  if (wordAt(words, k) === 'half') {
    const skip = wordAt(words, k + 1) === 'a' ? 1 : 0;
    const scale = SCALES[wordAt(words, k + 1 + skip)];
    if (scale === undefined || (scale === 1_000 && wordAt(words, k + 1 + skip) === 'k')) return undefined;
    return { value: scale / 2, length: 2 + skip, multiplier: scale, scaled: true };
  }
  let value: number;
  let scaled = false;
  if (
    (wordAt(words, k) === 'a' || wordAt(words, k) === 'an') &&
    (wordAt(words, k + 1) === 'hundred' || wordAt(words, k + 1) === 'thousand' || wordAt(words, k + 1) === 'million')
  ) {
    value = 1;
    k++;
  } else if (UNITS[wordAt(words, k)] !== undefined) {
    value = UNITS[wordAt(words, k)]!;
    k++;
  } else if (TENS[wordAt(words, k)] !== undefined) {
    value = TENS[wordAt(words, k)]!;
    k++;
    if (UNITS[wordAt(words, k)] !== undefined && UNITS[wordAt(words, k)]! < 10) value += UNITS[wordAt(words, k++)]!;
  } else if (wordAt(words, k) === 'hundred') {
    value = 1;
  } else {
    return undefined;
  }
  if (wordAt(words, k) === 'hundred') {
    value *= 100;
    scaled = true;
    k++;
    // "one hundred and fifty thousand", "two hundred fifty k"
    const andSkip =
      wordAt(words, k) === 'and' &&
      (UNITS[wordAt(words, k + 1)] !== undefined || TENS[wordAt(words, k + 1)] !== undefined)
        ? 1
        : 0;
    const rest = readSpelled(words, k + andSkip);
    if (rest && !rest.scaled) {
      value += rest.value;
      k += andSkip + rest.length;
    }
  }
  // "one and a half million", "two point five million"
  let half = 0;
  if (
    wordAt(words, k) === 'and' &&
    wordAt(words, k + 1) === 'a' &&
    wordAt(words, k + 2) === 'half' &&
    SCALES[wordAt(words, k + 3)] !== undefined
  ) {
    half = 0.5;
    k += 3;
  } else if (wordAt(words, k) === 'point') {
    let digits = '';
    while (DIGITS[wordAt(words, k + 1 + digits.length)] !== undefined)
      digits += DIGITS[wordAt(words, k + 1 + digits.length)];
    if (digits === '') return undefined;
    k += 1 + digits.length;
    // Without a scale, "two point five" is 2.5, read as the digits would be ("2.5 baths").
    if (SCALES[wordAt(words, k)] === undefined)
      return { value: Number(`${value}.${digits}`), length: k - i, multiplier: 1, scaled };
    half = Number(`0.${digits}`);
  }
  const scale = SCALES[wordAt(words, k)];
  // A bare "k" or "m" after a spelled number ("ten k") counts; it is the unit people type.
  if (scale !== undefined) {
    return { value: (value + half) * scale, length: k + 1 - i, multiplier: scale, scaled: true };
  }
  if (half) return undefined;
  return { value, length: k - i, multiplier: 1, scaled };
}

/** Spans of time a count may be of: "last three months". */
const TIME_UNITS = new Set(['month', 'months', 'year', 'years', 'days', 'weeks']);
/** Words after which a number is meant: "page two", "under ninety thousand", "between two and three million". */
const BEFORE_NUMBER = new Set([
  'page',
  'pg',
  'under',
  'below',
  'over',
  'above',
  'between',
  'max',
  'min',
  'upto',
  'maximum',
  'minimum',
  'than',
  'least',
  'budget',
]);

/** True when words[j] is what a count is of: a room unit, a size unit, a currency, a multiplier or a span of time. */
function isUnitAt(words: readonly string[], j: number): boolean {
  const w = words[j];
  if (w === undefined) return false;
  return (
    roomUnit(w) !== undefined ||
    SIZE_FIRST.has(w) ||
    CURRENCIES.has(w) ||
    MULTIPLIERS[w] !== undefined ||
    TIME_UNITS.has(w)
  );
}

const isNumberAt = (words: readonly string[], j: number) =>
  /^\d/.test(words[j] ?? '') || readSpelled(words, j) !== undefined;

/**
 * After a count, its unit, possibly after more counts ("two or three beds"): then the count is a number, not a name.
 */
function countsSomething(words: readonly string[], end: number): boolean {
  let j = end;
  for (let guard = 0; guard < 6; guard++) {
    if (isUnitAt(words, j)) return true;
    if (!JOINERS.has(words[j] ?? '') || !isNumberAt(words, j + 1)) return false;
    const next = readSpelled(words, j + 1);
    j += 1 + (next ? next.length : 1);
  }
  return false;
}

/** The spelled-out number as the parser's own digits: 3, 500, 100k, 1.5m. */
function digits(n: Spelled): string {
  if (n.multiplier === 1) return amountText(n.value);
  return `${amountText(n.value / n.multiplier)}${n.multiplier === 1_000 ? 'k' : 'm'}`;
}

/**
 * The tokens with every spelled-out count replaced by digits; the same array when there is none. `kept(words, i)` says
 * how
 * many words from i are a name to leave as typed ("Between Two Bridges" is an area, not "between 2").
 */
export function spellOutNumbers(
  tokens: readonly Token[],
  kept?: (words: readonly string[], i: number) => number,
): readonly Token[] {
  if (!tokens.some((t) => !t.quoted && STARTS.has(t.word))) return tokens;
  const words = tokens.map((t) => (t.quoted ? '\u0000' : t.word));
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const name = kept ? kept(words, i) : 0;
    if (name > 0) {
      out.push(...tokens.slice(i, i + name));
      i += name - 1;
      continue;
    }
    const n = token.quoted || !STARTS.has(token.word) ? undefined : readSpelled(words, i);
    if (n && (n.scaled || BEFORE_NUMBER.has(words[i - 1] ?? '') || countsSomething(words, i + n.length))) {
      const text = digits(n);
      out.push({ raw: text, word: text, quoted: false, dashBefore: false });
      i += n.length - 1;
    } else {
      out.push(token);
    }
  }
  return out;
}
