// Requests in Arabic, whole or mixed with English (issue 39): a pre-pass that reads the Arabic words as the command
// language's own English ones ("إيجار شقة غرفتين دبي مارينا" -> `rent apartment 2br "Dubai Marina"`), which the parser
// then reads as any command. It runs only when the text has Arabic letters, so English commands pay one regex test.
// Spellings are folded first: alef forms, taa marbuta, yaa, hamza seats, tatweel and diacritics do not matter.
import { ARABIC_AREA_NAMES } from './arabic-areas.js';
import { ARABIC_HALF_WORDS, ARABIC_NUMBER_WORDS, ARABIC_SCALE_WORDS, ARABIC_WORDS } from './arabic-words.js';

/** Arabic letters (not its digits or punctuation, which text.ts reads wherever numbers are read). */
const ARABIC_LETTER = /[\u0621-\u064A\u066E-\u06D3\u06FA-\u06FF]/;
export const hasArabic = (text: string): boolean => ARABIC_LETTER.test(text);

const DIACRITICS = /[\u064B-\u065F\u0670\u0640]/g;

/** One spelling for the forms people type alike: "أبراج" and "ابراج", "جميرة" and "جميرا" are not two names. */
export const foldArabic = (word: string): string =>
  word
    .replace(DIACRITICS, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    .replace(/(?<=\p{L})ء$/u, '');

/** A name's words folded, each without a leading "al" (ال), and "جميرا"/"جميره" as one: how names are compared. */
export const areaKey = (text: string): string =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) =>
      foldArabic(w)
        .replace(/^ال(?=..)/, '')
        .replace(/ه$/, 'ا'),
    )
    .join(' ');

/** Folded Arabic area spelling -> the area's English name. */
const AREAS = new Map<string, string>();
for (const [name, ...spellings] of ARABIC_AREA_NAMES) for (const s of spellings) AREAS.set(areaKey(s), name);
const AREA_MAX_WORDS = Math.max(...[...AREAS.keys()].map((k) => k.split(' ').length));

/** English name -> its Arabic spellings: as written (the first is the one shown), and folded. */
const BY_NAME = new Map(ARABIC_AREA_NAMES.map(([name, ...spellings]) => [name, spellings]));
const FOLDED_BY_NAME = new Map(ARABIC_AREA_NAMES.map(([name, ...spellings]) => [name, spellings.map(areaKey)]));

/** The Arabic name of a known area, as "did you mean" shows it beside the English one: "دبي مارينا". */
export const arabicNameOf = (name: string): string | undefined => BY_NAME.get(name)?.[0];

/** The folded Arabic spellings of a known area, for ranking a near miss typed in Arabic ("دبي مرينا"). */
export const arabicSpellingsOf = (name: string): readonly string[] => FOLDED_BY_NAME.get(name) ?? [];

/** Folded phrase -> its English words; longest phrases first by their word count. */
const PHRASES = new Map<string, string>();
for (const [english, ...arabic] of ARABIC_WORDS)
  for (const a of arabic) PHRASES.set(a.split(/\s+/).map(foldArabic).join(' '), english);
const PHRASE_MAX_WORDS = Math.max(...[...PHRASES.keys()].map((k) => k.split(' ').length));

const NUMBER_WORDS = new Map(ARABIC_NUMBER_WORDS.map(([w, n]) => [foldArabic(w), n]));
const SCALES = new Map(ARABIC_SCALE_WORDS.map(([w, count, size]) => [foldArabic(w), [count, size] as const]));
const HALF = new Set(ARABIC_HALF_WORDS.map(foldArabic));

/** Letters a word may carry in front: "and" (و), "in"/"with" (ب), "for" (ل), and "in the" (بال). */
const PREFIXES: readonly [string, string][] = [
  ['وبال', 'and in'],
  ['بال', 'in'],
  ['وال', 'and'],
  ['و', 'and'],
  ['ب', 'in'],
  ['ل', 'for'],
];

const DIGITS = /^\d+(?:[.,]\d+)?$/;
const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9\u066B\u066C]/g;
const latinDigit = (c: string): string => {
  const code = c.charCodeAt(0);
  if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
  return c === '\u066B' ? '.' : ',';
};

interface Out {
  words: string[];
  /** Indexes in `words` of amounts read from Arabic, with the scale said (1 when none): "بين 80 و 120 ألف". */
  amounts: Map<number, number>;
  /** Indexes of Arabic words not known, kept as typed. */
  unknown: Set<number>;
  /** Indexes of emirates read from Arabic ("دبي" dubai), with the Arabic as typed. */
  emirates: Map<number, string>;
}

const EMIRATES = new Set(['dubai', 'abu dhabi', 'sharjah', 'ajman', 'ras al khaimah', 'fujairah', 'umm al quwain']);

/**
 * An emirate beside an Arabic word not known is part of one name not known ("دبي مرينا"): kept in Arabic as a whole,
 * so the lookup and "did you mean" see the name as typed, not "dubai مرينا".
 */
function keepNamesTogether(out: Out): void {
  for (const at of out.unknown) {
    for (const step of [-1, 1])
      for (let k = at + step; out.emirates.has(k); k += step) out.words[k] = out.emirates.get(k)!;
  }
}

/**
 * The text with its Arabic read as English, or undefined when it has no Arabic letters. Words of other scripts, and
 * Arabic words not known, are kept as typed: an Arabic name not in the table is still looked up as written.
 */
export function readArabic(text: string): string | undefined {
  if (!hasArabic(text)) return undefined;
  // Quoted text is a name, verbatim: read only as a known area's English name (quotes as Arabic is typed: «…»).
  const parts = text.replace(DOUBLE_QUOTES, '"').split('"');
  if (parts.length % 2 === 0) return readWords(text);
  return parts
    .map((part, k) => {
      if (k % 2 === 0) return hasArabic(part) ? readWords(part) : part;
      return `"${AREAS.get(areaKey(part.trim())) ?? part}"`;
    })
    .join(' ');
}

const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g;

/** Unquoted text with its Arabic read as English. */
function readWords(text: string): string {
  const spaced = text
    .replace(ARABIC_DIGITS, latinDigit)
    // Arabic letters apart from digits and Latin letters: "3غرف", "2br-شقة".
    .replace(/(?<=[\u0621-\u06FF])(?=[0-9A-Za-z])|(?<=[0-9A-Za-z])(?=[\u0621-\u06FF])/g, ' ')
    .replace(/[\u060C\u061B]/g, ' , ')
    .replace(/\u061F/g, ' ? ');
  const typed = spaced.split(/\s+/).filter(Boolean);
  const folded = typed.map((w) => (hasArabic(w) ? foldArabic(w) : w));
  const out: Out = { words: [], amounts: new Map(), unknown: new Set(), emirates: new Map() };
  for (let i = 0; i < typed.length;) i = readAt(typed, folded, i, out);
  scaleRanges(out);
  keepNamesTogether(out);
  return out.words.join(' ');
}

/** Reads the word(s) at i into `out`; the index after them. */
function readAt(typed: readonly string[], folded: readonly string[], i: number, out: Out): number {
  const word = folded[i]!;
  if (!hasArabic(word)) {
    // "3 غرف": a Latin count stays; an Arabic scale after it makes it an amount ("120 ألف").
    if (DIGITS.test(word)) return readAmount(folded, i, out) ?? (out.words.push(typed[i]!), i + 1);
    out.words.push(typed[i]!);
    return i + 1;
  }
  // "من 80 إلى 120 ألف": from, before an amount; otherwise "of" ("شقة من غرفتين"), said by nothing.
  if (word === 'من' && !PHRASES.has(`من ${folded[i + 1] ?? ''}`)) {
    const next = folded[i + 1] ?? '';
    if (DIGITS.test(next) || NUMBER_WORDS.has(next) || SCALES.has(next)) out.words.push('from');
    return i + 1;
  }
  const amount = readAmount(folded, i, out);
  if (amount !== undefined) return amount;
  const rooms = readRooms(folded, i, out);
  if (rooms !== undefined) return rooms;
  for (const [prefix, said] of [['', ''] as const, ...PREFIXES]) {
    if (prefix !== '' && (!word.startsWith(prefix) || word.length <= prefix.length + 1)) continue;
    const first = word.slice(prefix.length);
    const rest = [first, ...folded.slice(i + 1)];
    const area = longest(rest, AREA_MAX_WORDS, (k) => AREAS.get(areaKey(k)));
    const phrase = area ? undefined : longest(rest, PHRASE_MAX_WORDS, (k) => PHRASES.get(k));
    const found = area ? { ...area, english: `"${area.value}"` } : phrase && { ...phrase, english: phrase.value };
    if (!found) continue;
    if (said !== '' && said !== 'for') out.words.push(said);
    if (EMIRATES.has(found.english) && found.length === 1) out.emirates.set(out.words.length, typed[i]!);
    if (found.english !== '') out.words.push(found.english);
    return i + found.length;
  }
  // A word not known: kept as typed, for the lookup ("البرشاء" spelt another way still finds "did you mean").
  out.unknown.add(out.words.length);
  out.words.push(typed[i]!);
  return i + 1;
}

/** The longest run of up to `max` words from words[0] that `get` knows: its value and length. */
function longest(
  words: readonly string[],
  max: number,
  get: (key: string) => string | undefined,
): { value: string; length: number } | undefined {
  for (let n = Math.min(max, words.length); n >= 1; n--) {
    const value = get(words.slice(0, n).join(' '));
    if (value !== undefined) return { value, length: n };
  }
  return undefined;
}

/** A number word's value, a leading "and" (و) allowed after the first. */
function numberWord(word: string, first: boolean): number | undefined {
  const value = NUMBER_WORDS.get(word);
  if (value !== undefined || first || !word.startsWith('و')) return value;
  return NUMBER_WORDS.get(word.slice(1));
}
const scaleWord = (word: string, first: boolean): readonly [number, number] | undefined =>
  SCALES.get(word) ?? (first || !word.startsWith('و') ? undefined : SCALES.get(word.slice(1)));

/**
 * An amount at words[i], Arabic style: parts added, scales multiplied ("مائة وخمسين ألف" 150,000, "مليون ومائتين ألف"
 * 1,200,000, "120 ألف", "مليون ونصف" 1,500,000, "نصف مليون"). Pushed as its digits; undefined when there is none
 * or it is a bare number in digits (left to the parser as typed).
 */
function readAmount(words: readonly string[], i: number, out: Out): number | undefined {
  let total = 0;
  let group = 0;
  let fromDigits = false;
  let largest = 1;
  let arabic = false;
  let k = i;
  for (; k < words.length; k++) {
    const w = words[k]!;
    const first = k === i;
    if (DIGITS.test(w)) {
      if (!first) break;
      group = Number(w.replace(/,(?=\d{3}$)/, ''));
      fromDigits = true;
      continue;
    }
    const n = numberWord(w, first);
    if (n !== undefined && !fromDigits) {
      // "ثلاث مائة": three hundred; otherwise parts add ("خمسة وعشرين": 25).
      group = n === 100 && group > 0 && group < 10 ? group * 100 : group + n;
      arabic = true;
      continue;
    }
    const scale = scaleWord(w, first);
    if (scale) {
      const [count, size] = scale;
      if (total > 0 && size >= largest) break;
      total += (group || count) * size;
      group = 0;
      largest = Math.max(largest, size);
      arabic = true;
      continue;
    }
    // "مليون ونصف": a half of the scale just said; "نصف مليون": half of the next.
    if (HALF.has(w) || (!first && w.startsWith('و') && HALF.has(w.slice(1)))) {
      const next = SCALES.get(words[k + 1] ?? '');
      if (next && group === 0 && total === 0) {
        total = next[1] / 2;
        largest = next[1];
        k++;
      } else if (largest > 1 && group === 0) total += largest / 2;
      else break;
      arabic = true;
      continue;
    }
    break;
  }
  if (!arabic) return undefined;
  out.amounts.set(out.words.length, largest);
  out.words.push(String(total + group));
  return k;
}

/** "غرفتين" 2br, "3 غرف نوم" 3 br, "غرفة" alone 1br; "حمامين" 2 baths. After an amount read, its count. */
function readRooms(words: readonly string[], i: number, out: Out): number | undefined {
  const w = words[i]!;
  const bed = w === 'غرفه' || w === 'غرف' ? 'br' : w === 'حمام' || w === 'حمامات' ? 'baths' : undefined;
  const pair = w === 'غرفتين' || w === 'غرفتان' ? '2br' : w === 'حمامين' || w === 'حمامان' ? '2 baths' : undefined;
  if (!bed && !pair) return undefined;
  // "غرفة نوم", "غرف النوم": the bedroom's own word.
  const sleep = words[i + 1] === 'نوم' || words[i + 1] === 'النوم' ? 1 : 0;
  const before = out.words[out.words.length - 1];
  if (pair) out.words.push(pair);
  else if (before !== undefined && /^\d+$/.test(before)) {
    out.words.push(bed!);
    out.amounts.delete(out.words.length - 2);
  } else if (w === 'غرفه' || w === 'حمام') out.words.push(bed === 'br' ? '1br' : '1 bath');
  return i + 1 + sleep;
}

/** "بين 80 و 120 ألف", "من 80 إلى 120 ألف": the scale said once is both ends'. */
function scaleRanges(out: Out): void {
  for (const [at, scale] of out.amounts) {
    if (scale === 1) continue;
    const join = out.words[at - 1];
    const low = at - 2;
    if ((join !== 'and' && join !== 'to') || !/^\d+(?:\.\d+)?$/.test(out.words[low] ?? '')) continue;
    const opener = out.words[low - 1];
    if (opener !== 'between' && opener !== 'from') continue;
    const lowScale = out.amounts.get(low);
    if (lowScale !== undefined && lowScale > 1) continue;
    const scaled = Number(out.words[low]) * scale;
    if (scaled <= Number(out.words[at])) out.words[low] = String(scaled);
  }
}

/** The summary's note on an Arabic request: how it was read, in the language's own words. */
export const arabicNote = (english: string): string =>
  `read as: ${english
    .replace(/^\s*\/?(?:manzil\b\s*)?/i, '')
    .replace(/"/g, '')
    .replace(/\s+/g, ' ')
    .trim()}`;
