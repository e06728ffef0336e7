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

/** At module level rather than a closure in readSpelled(): made on every call, it cost more than the calls. */
const wordAt = (words: readonly string[], n: number) => words[n] ?? '';

/** Up to two digits in words at words[k] ("fifty", "twenty five", "twelve"), or undefined. */
function tensAt(words: readonly string[], k: number): { value: number; end: number } | undefined {
  const unit = UNITS[wordAt(words, k)];
  if (unit !== undefined) return { value: unit, end: k + 1 };
  const tens = TENS[wordAt(words, k)];
  if (tens === undefined) return undefined;
  const next = UNITS[wordAt(words, k + 1)];
  return next !== undefined && next < 10 ? { value: tens + next, end: k + 2 } : { value: tens, end: k + 1 };
}

/**
 * A number below a thousand at words[k]: "fifty", "a hundred", "one hundred and fifty", "two hundred fifty". "And"
 * joins only what is not itself a hundreds ("between one hundred and two hundred" is two numbers).
 */
function groupAt(words: readonly string[], k: number): { value: number; end: number; hundred: boolean } | undefined {
  let value: number;
  let end: number;
  const word = wordAt(words, k);
  if ((word === 'a' || word === 'an') && SCALE_AFTER_A.has(wordAt(words, k + 1))) {
    value = 1;
    end = k + 1;
  } else if (word === 'hundred') {
    value = 1;
    end = k;
  } else {
    const small = tensAt(words, k);
    if (!small) return undefined;
    ({ value, end } = small);
  }
  if (wordAt(words, end) !== 'hundred') return { value, end, hundred: false };
  value *= 100;
  end++;
  const skip = wordAt(words, end) === 'and' ? 1 : 0;
  const rest = tensAt(words, end + skip);
  if (rest && wordAt(words, rest.end) !== 'hundred') return { value: value + rest.value, end: rest.end, hundred: true };
  return { value, end, hundred: true };
}
const SCALE_AFTER_A = new Set(['hundred', 'thousand', 'million']);

/**
 * A number of one to a few words at words[i]: "twenty five", "a hundred and twenty thousand", "one and a half million",
 * "a million and a half", "one million two hundred thousand". After a scale, more of the number follows only when it
 * is of a smaller scale ("two hundred thousand" after "one million") or hundreds after a thousand ("one thousand two
 * hundred"): "one hundred thousand two bedrooms" is an amount and a count.
 */
export function readSpelled(words: readonly string[], i: number): Spelled | undefined {
  // "half a million", "half million"
  if (wordAt(words, i) === 'half') {
    const skip = wordAt(words, i + 1) === 'a' ? 1 : 0;
    const scale = SCALES[wordAt(words, i + 1 + skip)];
    if (scale === undefined || (scale === 1_000 && wordAt(words, i + 1 + skip) === 'k')) return undefined;
    return { value: scale / 2, length: 2 + skip, multiplier: scale, scaled: true };
  }
  let group = groupAt(words, i);
  if (!group) return undefined;
  let total = 0;
  let largest = 1;
  let scaled = false;
  let k = group.end;
  for (;;) {
    scaled ||= group.hundred;
    // "one and a half million", "two point five million"
    let fraction = 0;
    let fractionEnd = k;
    if (
      wordAt(words, k) === 'and' &&
      wordAt(words, k + 1) === 'a' &&
      wordAt(words, k + 2) === 'half' &&
      SCALES[wordAt(words, k + 3)] !== undefined
    ) {
      fraction = 0.5;
      fractionEnd = k + 3;
    } else if (wordAt(words, k) === 'point' && total === 0) {
      let digits = '';
      while (DIGITS[wordAt(words, k + 1 + digits.length)] !== undefined)
        digits += DIGITS[wordAt(words, k + 1 + digits.length)];
      if (digits === '') return undefined;
      fractionEnd = k + 1 + digits.length;
      // Without a scale, "two point five" is 2.5, read as the digits would be ("2.5 baths").
      if (SCALES[wordAt(words, fractionEnd)] === undefined)
        return { value: Number(`${group.value}.${digits}`), length: fractionEnd - i, multiplier: 1, scaled };
      fraction = Number(`0.${digits}`);
    }
    const scale = SCALES[wordAt(words, fractionEnd)];
    // A bare "k" or "m" after a spelled number ("ten k") counts; it is the unit people type.
    if (scale === undefined || (total > 0 && scale >= largest)) {
      total += group.value;
      break;
    }
    total += (group.value + fraction) * scale;
    largest = Math.max(largest, scale);
    scaled = true;
    k = fractionEnd + 1;
    // "a million and a half"
    if (
      fraction === 0 &&
      wordAt(words, k) === 'and' &&
      wordAt(words, k + 1) === 'a' &&
      wordAt(words, k + 2) === 'half' &&
      SCALES[wordAt(words, k + 3)] === undefined
    ) {
      total += scale / 2;
      k += 3;
      break;
    }
    // "one million and two hundred thousand": "and" before a smaller scale goes on with the number, except in
    // "between … and …", where it joins the two bounds.
    const joined = wordAt(words, k) === 'and' && !afterBetween(words, i) ? groupAt(words, k + 1) : undefined;
    const joinedScale = joined ? SCALES[wordAt(words, joined.end)] : undefined;
    if (joined && joinedScale !== undefined && joinedScale < scale) {
      group = joined;
      k = joined.end;
      continue;
    }
    const next = groupAt(words, k);
    if (!next) break;
    const after = SCALES[wordAt(words, next.end)];
    if (after !== undefined && after < scale) {
      group = next;
      k = next.end;
      continue;
    }
    if (after === undefined && scale === 1_000 && next.hundred) {
      total += next.value;
      k = next.end;
    }
    break;
  }
  return { value: total, length: k - i, multiplier: largest, scaled };
}

/** True when "between" comes shortly before words[i] ("between aed one million and …"): its "and" is the range's. */
function afterBetween(words: readonly string[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) if (wordAt(words, j) === 'between') return true;
  return false;
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
  // "one million fifty one thousand" is 1051k: the amounts the scanner reads carry at most two decimals of their scale.
  const multiplier = n.multiplier === 1_000_000 && (n.value / 10_000) % 1 !== 0 ? 1_000 : n.multiplier;
  if (multiplier === 1 || (n.value / (multiplier / 100)) % 1 !== 0) return amountText(n.value);
  return `${amountText(n.value / multiplier)}${multiplier === 1_000 ? 'k' : 'm'}`;
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
