// Tokens -> a Draft: every filter found, in any order, and the words left over for the location.
// What a filter means for a given operation (and whether it is allowed there) is decided later, in build.ts.
import { KNOWN_AREAS } from './known-areas.js';
import {
  MAX_SIZE_SQFT,
  MAX_PRICE_AED,
  MAX_PRICE_PER_SQFT,
  beyond,
  tooDearPerSqftText,
  tooLargeText,
  tooManyRoomsText,
} from './limits.js';
import { STARTS as NUMBER_WORDS } from './number-words.js';
import {
  SIZE_UNITS,
  BATHROOM_UNITS,
  BEDROOM_UNITS,
  CURRENCIES,
  MAX_ROOMS,
  MULTIPLIERS,
  amountText,
  andUp,
  grouped,
  range,
  readAmountWord,
  readRoomItem,
  roomUnit,
  splitRoomWord,
  type RoomUnit,
} from './numbers.js';
import { AreaBook } from './areas.js';
import { SENTENCE_FILLERS } from './sentence.js';
import { fail } from './types.js';
import type { Token } from './text.js';
import { correctionFor } from './typos.js';
import { VERB_TABLE } from './verbs.js';
import {
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  DEAL_PHRASES,
  FILLERS,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  MARKER_PHRASES,
  PERIOD_PHRASES,
  PROPERTY_TYPES,
  SHORT_PERIODS,
  SORT_PHRASES,
  type Effect,
  type PhraseIndex,
  type SortKey,
} from './vocabulary.js';

/** A value and the words that asked for it, so a conflict or a refusal can quote the person. */
export interface Said<T> {
  value: T;
  text: string;
}

export interface Bounds {
  min?: Said<number>;
  max?: Said<number>;
}

export interface Draft {
  rooms: Partial<Record<RoomUnit, Said<number[]>>>;
  price: Bounds;
  /** Floor size in sqft ("over 1000 sqft"); sent as `area_min` / `area_max`. */
  size: Bounds;
  /** AED per sqft ("under 150 per sqft"): no service parameter, so a filter on what the service returns. */
  perSqft: Bounds;
  frequency?: Said<string>;
  types: Said<string>[];
  adrecTypes: string[];
  commercial?: string;
  furnishing?: Said<string>;
  completion?: Said<string>;
  amenities: Set<string>;
  amenityText?: string;
  sort?: Said<SortKey>;
  period?: Said<string>;
  deal?: Said<'rent' | 'sale'>;
  detailed?: string;
  page?: Said<number>;
  fromDate?: Said<string>;
  toDate?: Said<string>;
  emirate?: Said<string>;
  /** Rooms with extras ("2br + maid"): an amenity where the operation has amenities, else left out with a note. */
  extras: Said<string>[];
  /** What the person should know about how the command was read ("read "120k-80k" as AED 80,000 to 120,000"). */
  notes: string[];
  /** Left over, in order: location words, quoted text and commas (which separate ADREC districts). */
  words: Token[];
  /** The words of `words` that are a known area's ("Villa Lantana"): never a typo, never an unknown word. */
  known?: Set<Token>;
}

const newDraft = (): Draft => ({
  rooms: {},
  price: {},
  size: {},
  perSqft: {},
  types: [],
  adrecTypes: [],
  amenities: new Set(),
  extras: [],
  notes: [],
  words: [],
});

export interface ScanOptions {
  /** ADREC's from/to dates. */
  dates: boolean;
  /** Words dropped besides the usual ones ("in", "the"): the chat words of a sentence. */
  fillers?: ReadonlySet<string>;
}

/** Separators between filters ("marina | 2br - furnished"): never part of an area. */
const SEPARATORS = new Set(['-', '|', '+', '&', '/', '•', '·', '~', ':']);

/** Sets a field once; the same value twice is fine, two different ones is a question for the person. */
function once<
  K extends
    'frequency' | 'furnishing' | 'completion' | 'sort' | 'period' | 'deal' | 'page' | 'emirate' | 'fromDate' | 'toDate',
>(draft: Draft, key: K, said: NonNullable<Draft[K]>): void {
  const before = draft[key];
  if (before && before.value !== said.value) fail(`You asked for both "${before.text}" and "${said.text}". Pick one.`);
  draft[key] = said;
}

// The words as the person would recognise them: `1 - 3br` was typed `1-3br`.
function text(words: readonly string[], from: number, to: number): string {
  // Words have no spaces, so " - " can only come from a word that is a lone dash: without one, a plain join is the
  // same.
  if (to - from === 1 && from < words.length) return words[from]!;
  let dash = false;
  let joined = '';
  for (let k = from; k < to && k < words.length; k++) {
    if (words[k] === '-') dash = true;
    joined = k === from ? words[k]! : `${joined} ${words[k]}`;
  }
  return dash ? joined.replace(/ - /g, '-') : joined;
}

export function scan(tokens: readonly Token[], index: PhraseIndex, options: ScanOptions): Draft {
  const draft = newDraft();
  // Quoted text never matches a phrase.
  const words = tokens.map((t) => (t.quoted ? '\u0000' : t.word));
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.quoted || token.word === ',') {
      draft.words.push(token);
      i++;
      continue;
    }
    // A known area before any filter: "Villa Lantana", "Damac Hills 2", "Dubai Studio City".
    const area = knownAreaAt(words, i);
    if (area > 0) {
      draft.known ??= new Set();
      for (let k = i; k < i + area; k++) {
        draft.words.push(tokens[k]!);
        draft.known.add(tokens[k]!);
      }
      i += area;
      continue;
    }
    const used =
      negative(words, i) ||
      handoverYear(words, i) ||
      rooms(words, i, draft) ||
      phrase(words, i, draft, index) ||
      page(words, i, draft) ||
      (options.dates ? date(words, i, draft) : 0) ||
      span(words, i, draft) ||
      unitFirst(words, i, draft, index, options) ||
      quantity(words, i, draft, index, options);
    if (used > 0) {
      i += used;
      continue;
    }
    if (!FILLERS.has(token.word) && !SEPARATORS.has(token.word) && !options.fillers?.has(token.word))
      draft.words.push(token);
    i++;
  }
  return draft;
}

// --- Handover years: "handover 2026" is a year, not a price of AED 2,026 -------------------------------------------

const HANDOVER_WORDS = new Set(['handover', 'delivery', 'completion', 'completing', 'completed', 'delivered', 'ready']);
const YEAR = /^20\d\d$/;

/** "handover 2026", "completion in q4 2027", "2026 handover": refused, since no search filters by handover year. */
function handoverYear(words: readonly string[], i: number): number {
  let end = i + 2;
  if (HANDOVER_WORDS.has(words[i]!)) {
    let k = i + 1;
    if (words[k] === 'in' || words[k] === 'by') k++;
    if (/^q[1-4]$/.test(words[k] ?? '')) k++;
    if (!YEAR.test(words[k] ?? '')) return 0;
    end = k + 1;
  } else if (words[i]!.length !== 4 || !YEAR.test(words[i]!) || !HANDOVER_WORDS.has(words[i + 1] ?? '')) {
    return 0;
  }
  return fail(
    `I can't search by handover year ("${text(words, i, end)}"). To see the soonest first, sort by it, like "/projects dubai hills earliest handover".`,
  );
}

// --- Rooms: 2br, 2 beds, studio, 1-3 br, 1 to 3 br, 1,2 br, 1 or 2 br, studio or 1br, 3+ br --------------------

const ROOM_SEPARATORS = new Set(['or', ',', 'and', 'to', '-']);
const RANGE_SEPARATORS = new Set(['to', '-']);

const unitWord = (unit: RoomUnit) => (unit === 'bedrooms' ? 'bedrooms' : 'bathrooms');
const roomExample = (unit: RoomUnit) => (unit === 'bedrooms' ? '"2br" or "1-3 br"' : '"2 baths" or "1-2 baths"');
const badCount = (what: string, unit: RoomUnit): never =>
  fail(`I couldn't read "${what}" as a number of ${unitWord(unit)}. Try ${roomExample(unit)}.`);

interface RoomItem {
  values: number[];
  unit?: RoomUnit;
}

const DIGIT = /\d/;

function roomItem(word: string | undefined): RoomItem | undefined {
  // Every room count but "studio" has a digit; most words have none, and the fused-unit pattern is the costly part.
  if (word === undefined || (!DIGIT.test(word) && word !== 'studio' && word !== 'studios')) return undefined;
  const fused = splitRoomWord(word);
  if (fused) {
    const values = readRoomItem(fused.prefix) ?? badCount(fused.prefix, fused.unit);
    return { values, unit: fused.unit };
  }
  const values = readRoomItem(word);
  return values ? { values } : undefined;
}

/** "at least 2 beds", "min 3 br": the count and up, as "3+ br". */
const ROOM_MINIMA = tableIndex([['at least'], ['min'], ['minimum']] as const);
/** After a count: "2 beds or more", "3br and above". */
const ROOM_OR_MORE = tableIndex([
  ['or more'],
  ['and more'],
  ['or above'],
  ['and above'],
  ['and up'],
  ['or bigger'],
] as const);
/** "2br + maid", "2 bed plus study": the words joining an extra room to the count, and the extras. */
const EXTRA_JOINERS = new Set(['+', 'plus', '&', 'and', 'with']);
const EXTRAS = tableIndex([
  ['maid', 'maids_room'],
  ['maids', 'maids_room'],
  ["maid's", 'maids_room'],
  ['maid room', 'maids_room'],
  ['maids room', 'maids_room'],
  ["maid's room", 'maids_room'],
  ['maid rooms', 'maids_room'],
  ['study', ''],
  ['study room', ''],
  ['storage', ''],
  ['storage room', ''],
  ['laundry', ''],
  ['laundry room', ''],
  ['office', ''],
] as const);

function rooms(words: readonly string[], i: number, draft: Draft): number {
  const minimum = matchTable(words, i, ROOM_MINIMA);
  if (minimum) {
    const start = i + minimum.length;
    const counted = roomItem(words[start]);
    const unit = counted?.unit ?? roomUnit(words[start + 1] ?? '');
    if (!counted || !unit || counted.values.length !== 1) return 0;
    const end = start + (counted.unit ? 1 : 2);
    return setRooms(draft, unit, andUp(counted.values[0]!), text(words, i, end), end - i);
  }
  const run = roomRun(words, i, draft);
  if (!run) return 0;
  const unit = run.unit;
  let end = i + run.used;
  // "2 beds or more": the last count and up.
  const more = matchTable(words, end, ROOM_OR_MORE);
  if (more) {
    const said = draft.rooms[unit]!;
    const most = Math.max(...said.value);
    said.value = [...new Set([...said.value, ...andUp(most)])];
    said.text = `${said.text} ${text(words, end, end + more.length)}`;
    end += more.length;
  }
  // "2br + maid + study": extras, joined to the bedrooms.
  while (unit === 'bedrooms' && EXTRA_JOINERS.has(words[end] ?? '')) {
    const extra = matchTable(words, end + 1, EXTRAS);
    if (!extra) break;
    draft.extras.push({ value: extra.entry[1], text: text(words, end + 1, end + 1 + extra.length) });
    end += 1 + extra.length;
  }
  return end - i;
}

/** A run of counts and its unit ("1 or 2 br", "studio"): how many words, and bedrooms or bathrooms. */
function roomRun(words: readonly string[], i: number, draft: Draft): { used: number; unit: RoomUnit } | undefined {
  const first = roomItem(words[i]);
  if (!first) {
    const unit = roomUnit(words[i + 1] ?? '');
    if (unit && /\d/.test(words[i]!)) badCount(words[i]!, unit);
    return undefined;
  }
  // The longest run of items joined by separators, then an optional unit word.
  const items: { item: RoomItem; range: boolean; end: number }[] = [{ item: first, range: false, end: i + 1 }];
  let j = i + 1;
  for (;;) {
    const sep = words[j];
    if (sep === undefined || !ROOM_SEPARATORS.has(sep)) break;
    let next: RoomItem | undefined;
    try {
      next = roomItem(words[j + 1]);
    } catch {
      next = undefined;
    }
    if (!next) break;
    items.push({ item: next, range: RANGE_SEPARATORS.has(sep), end: j + 2 });
    j += 2;
  }
  let unit = roomUnit(words[j] ?? '');
  let end = j;
  if (unit) {
    end = j + 1;
  } else {
    // No unit word: keep the run up to the last item that carried its own unit (`1br or 2br`).
    let last = -1;
    for (let k = 0; k < items.length; k++) if (items[k]!.item.unit) last = k;
    if (last === -1) {
      if (words[i] === 'studio' || words[i] === 'studios')
        return { used: setRooms(draft, 'bedrooms', [0], words[i]!), unit: 'bedrooms' };
      return undefined;
    }
    items.length = last + 1;
    unit = items[last]!.item.unit!;
    end = items[last]!.end;
  }
  // Checked before a range is spelled out: "1-99999999999 br" would be an array of every count between.
  // Plain loops here: flatMap and entries() cost more than the rest of a room count (this runs on most commands).
  const counts: number[] = [];
  for (const { item } of items) for (const v of item.values) counts.push(v);
  refuseTooMany(unit, counts, text(words, i, end));
  const values: number[] = [];
  for (let k = 0; k < items.length; k++) {
    const { item, range: isRange } = items[k]!;
    if (item.unit && item.unit !== unit)
      fail(`"${text(words, i, end)}" mixes bedrooms and bathrooms. Write them apart, like "2br 2 baths".`);
    const previous = k > 0 ? items[k - 1]!.item.values : undefined;
    if (isRange && previous) {
      const [from, to] = [previous[previous.length - 1]!, item.values[0]!];
      // Ends reversed ("5 to 2 bedrooms"): read the right way round and said so, as for prices and sizes.
      if (from > to)
        draft.notes.push(`read "${text(words, i, end)}" as ${to === 0 ? 'studio' : to} to ${from} ${unitWord(unit)}`);
      values.push(...range(from, to));
    }
    values.push(...item.values);
  }
  if (
    unit === 'bathrooms' &&
    items.some(({ item }) => item.values.includes(0) && !item.unit && /studio/.test(words[i]!))
  ) {
    fail('"Studio" counts bedrooms, not bathrooms. Try "studio 1 bath".');
  }
  return { used: setRooms(draft, unit, values, text(words, i, end), end - i), unit };
}

/** True when a count of rooms starts at words[k] ("1 bed", "1 or 2 beds", "1-3br"), without reading it into a draft. */
function roomsAt(words: readonly string[], k: number): boolean {
  let j = k;
  while (readRoomItem(words[j] ?? '') && ROOM_SEPARATORS.has(words[j + 1] ?? '') && /\d/.test(words[j + 2] ?? ''))
    j += 2;
  return (
    roomUnit(words[j + 1] ?? '') !== undefined ||
    (readRoomItem(words[j] ?? '') === undefined && splitRoomWord(words[j] ?? '') !== undefined)
  );
}

/** More rooms than any home has, or a count that is no finite number: refused, quoting the count or what was typed. */
function refuseTooMany(unit: RoomUnit, values: readonly number[], said: string): void {
  // The first count that is no finite number, else the largest (at least 0); one pass, no spread of the counts.
  let most = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) {
      most = v;
      break;
    }
    if (v > most) most = v;
  }
  if (!beyond(most, MAX_ROOMS)) return;
  fail(
    Number.isSafeInteger(most)
      ? `${most} ${unitWord(unit)} is more than I can search for; the most is ${MAX_ROOMS}.`
      : tooManyRoomsText(unit, said),
  );
}

function setRooms(draft: Draft, unit: RoomUnit, values: number[], said: string, used = 1): number {
  refuseTooMany(unit, values, said);
  const before = draft.rooms[unit];
  draft.rooms[unit] = before
    ? { value: [...before.value, ...values], text: `${before.text} ${said}` }
    : { value: values, text: said };
  return used;
}

// --- Phrases: types, amenities, furnishing, sort, periods... -----------------------------------------------------

/** What "this year" and the like are read as: the service's periods count back from today. */
const ROLLING: Readonly<Record<string, string>> = {
  '1y': 'the last 12 months',
  '6m': 'the last 6 months',
  '3m': 'the last 3 months',
  '1m': 'the last month',
};

function phrase(words: readonly string[], i: number, draft: Draft, index: PhraseIndex): number {
  const found = index.match(words, i);
  if (!found) return 0;
  const said = text(words, i, i + found.length);
  apply(draft, found.effect, said);
  if (found.effect.kind === 'period' && words[i] === 'this')
    draft.notes.push(`read "${said}" as ${ROLLING[found.effect.value]}`);
  return found.length;
}

function apply(draft: Draft, effect: Effect, said: string): void {
  switch (effect.kind) {
    case 'type':
      if (!draft.types.some((t) => t.value === effect.value)) draft.types.push({ value: effect.value, text: said });
      return;
    case 'adrecType':
      if (!draft.adrecTypes.includes(effect.value)) draft.adrecTypes.push(effect.value);
      return;
    case 'amenity':
      draft.amenities.add(effect.value);
      draft.amenityText ??= said;
      return;
    case 'commercial':
      draft.commercial = said;
      return;
    case 'residential':
      return;
    case 'detailed':
      draft.detailed = said;
      return;
    case 'furnishing':
      return once(draft, 'furnishing', { value: effect.value, text: said });
    case 'completion':
      return once(draft, 'completion', { value: effect.value, text: said });
    case 'sort':
      return once(draft, 'sort', { value: effect.value, text: said });
    case 'period':
      return once(draft, 'period', { value: effect.value, text: said });
    case 'frequency':
      return once(draft, 'frequency', { value: effect.value, text: said });
    case 'deal':
      return once(draft, 'deal', { value: effect.value, text: said });
    case 'emirate':
      return once(draft, 'emirate', { value: effect.value, text: said });
  }
}

// --- Page: page 2, p2, pg 2 ---------------------------------------------------------------------------------------

const PAGE_WORDS = new Set(['page', 'pg']);

function page(words: readonly string[], i: number, draft: Draft): number {
  const word = words[i]!;
  const fused = /^(?:p|pg|page)(\d+)$/.exec(word);
  let digits: string;
  let used: number;
  if (fused) {
    digits = fused[1]!;
    used = 1;
  } else if (PAGE_WORDS.has(word)) {
    const next = words[i + 1];
    if (next === undefined || !/^\d+$/.test(next))
      fail(`I couldn't read ${next === undefined ? 'a page number' : `"${next}" as a page number`}. Try "page 2".`);
    digits = next!;
    used = 2;
  } else {
    return 0;
  }
  const n = Number(digits);
  if (n < 1) fail('Pages start at 1. Try "page 2".');
  once(draft, 'page', { value: n, text: text(words, i, i + used) });
  return used;
}

// --- Dates (ADREC): from DD/MM/YYYY, to DD/MM/YYYY ------------------------------------------------------------------

const DATE_WORDS: Readonly<Record<string, 'fromDate' | 'toDate'>> = {
  from: 'fromDate',
  since: 'fromDate',
  after: 'fromDate',
  to: 'toDate',
  until: 'toDate',
  till: 'toDate',
  before: 'toDate',
};

const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/** A year alone ("since 2024"): its first day, or its last after "to"/"until" ("before 2024" is up to 31/12/2023). */
const YEAR_ALONE = /^(19|20)\d\d$/;

function date(words: readonly string[], i: number, draft: Draft): number {
  // "between 01/01/2024 and 31/03/2024", "between 2023 and 2024": dates, not amounts.
  if (words[i] === 'between') {
    const [from, and, to] = [words[i + 1], words[i + 2], words[i + 3]];
    if (and !== 'and' || !isDateWord(from) || !isDateWord(to)) return 0;
    once(draft, 'fromDate', { value: dateValue(from!, 'from', 'from 01/01/2024'), text: text(words, i, i + 4) });
    once(draft, 'toDate', { value: dateValue(to!, 'to', 'to 31/12/2024'), text: text(words, i, i + 4) });
    return 4;
  }
  const key = DATE_WORDS[words[i]!];
  if (!key) return 0;
  const next = words[i + 1];
  const example = key === 'fromDate' ? 'from 01/01/2024' : 'to 31/12/2024';
  if (next === undefined) fail(`"${words[i]}" what date? Try "${example}".`);
  once(draft, key, { value: dateValue(next!, words[i]!, example), text: `${words[i]} ${next}` });
  return 2;
}

const isDateWord = (word: string | undefined) => word !== undefined && (DMY.test(word) || YEAR_ALONE.test(word));

/** DD/MM/YYYY of a typed date or year, read after `lead` ("since", "before"...). */
function dateValue(typed: string, lead: string, example: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (YEAR_ALONE.test(typed)) {
    const year = Number(typed);
    if (lead === 'after') return `01/01/${year + 1}`;
    if (lead === 'before') return `31/12/${year - 1}`;
    return DATE_WORDS[lead] === 'toDate' ? `31/12/${year}` : `01/01/${year}`;
  }
  const m = DMY.exec(typed);
  const day = Number(m?.[1]);
  const month = Number(m?.[2]);
  const year = Number(m?.[3]);
  const real =
    m !== null && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (!real) fail(`I couldn't read "${typed}" as a date. Use DD/MM/YYYY, like "${example}".`);
  return `${pad(day)}/${pad(month)}/${year}`;
}

// --- Spans of time: "last 4 months", "over the past 2 weeks", "in the last few months"
// --------------------------------

const SPAN_LEADS = tableIndex(
  ['last', 'past', 'previous'].flatMap((when) => [
    [when],
    ...['over', 'within', 'during', 'in', 'for'].map((lead) => [`${lead} the ${when}`]),
  ]) as [string][],
);
/** Counts said in words: "a few" is about three months, "a couple" two, "several" six. */
const SPAN_COUNTS: Readonly<Record<string, number>> = { few: 3, couple: 2, several: 6 };
/** Units of a span, in months. */
const SPAN_UNITS: Readonly<Record<string, number>> = {
  day: 1 / 30,
  days: 1 / 30,
  week: 7 / 30,
  weeks: 7 / 30,
  wk: 7 / 30,
  wks: 7 / 30,
  month: 1,
  months: 1,
  mo: 1,
  mos: 1,
  mth: 1,
  mths: 1,
  year: 12,
  years: 12,
  yr: 12,
  yrs: 12,
};
/** The periods transactions are kept for, in months, shortest first: a span is read as the shortest that covers it. */
const PERIODS: readonly (readonly [months: number, value: string])[] = [
  [1, '1m'],
  [3, '3m'],
  [6, '6m'],
  [12, '1y'],
];

function span(words: readonly string[], i: number, draft: Draft): number {
  const lead = matchTable(words, i, SPAN_LEADS);
  if (!lead) return 0;
  let k = i + lead.length;
  const said = words[k] ?? '';
  let count: number;
  if (/^\d+$/.test(said)) count = Number(said);
  else if (SPAN_COUNTS[said] !== undefined) count = SPAN_COUNTS[said]!;
  else return 0; // "last year", "past month": phrases of their own
  k++;
  if (words[k] === 'of') k++;
  const unit = SPAN_UNITS[words[k] ?? ''];
  if (unit === undefined) return 0;
  k++;
  const months = count * unit;
  const period = PERIODS.find(([m]) => months <= m + 1e-9);
  const typed = text(words, i, k);
  if (!period) return fail(`Transactions go back 12 months at most ("${typed}"). Try "last year".`);
  once(draft, 'period', { value: period[1], text: typed });
  if (unit < 1 || months !== period[0] || SPAN_COUNTS[said] !== undefined)
    draft.notes.push(`read "${typed}" as ${ROLLING[period[1]]}`);
  return k - i;
}

// --- Amounts and sizes: under 120k, 80k-120k, between 1m and 2m, over 1,000 sqft, 100 sqm -------------------------

type BoundKind = 'min' | 'max' | 'between';
/** `soft` bound words may also be ordinary words ("from"), so a missing amount after them is not an error. */
const BOUNDS: readonly (readonly [phrase: string, kind: BoundKind, soft?: true])[] = [
  ['under', 'max'],
  ['below', 'max'],
  ['max', 'max'],
  ['maximum', 'max'],
  ['up to', 'max'],
  ['upto', 'max'],
  ['less than', 'max'],
  ['<', 'max'],
  ['<=', 'max'],
  ['budget', 'max', true],
  ['within', 'max', true],
  ['over', 'min'],
  ['above', 'min'],
  ['min', 'min'],
  ['minimum', 'min'],
  ['from', 'min', true],
  ['at least', 'min'],
  ['more than', 'min'],
  ['>', 'min'],
  ['>=', 'min'],
  ['starting', 'min', true],
  ['between', 'between'],
  ['budget of', 'max', true],
  ['budget is', 'max', true],
  ['max budget', 'max'],
  ['maximum budget', 'max'],
  ['no more than', 'max'],
  ['not more than', 'max'],
  ['no less than', 'min'],
  // "not over 120k" is a maximum: without these, "over 120k" was read and "not" left in the area.
  ['at most', 'max'],
  ['not over', 'max'],
  ['not above', 'max'],
  ['not exceeding', 'max'],
  ['no higher than', 'max'],
  ['not higher than', 'max'],
  ['not under', 'min'],
  ['not below', 'min'],
  ['not less than', 'min'],
  ['no lower than', 'min'],
  ['not lower than', 'min'],
  ['starting from', 'min', true],
  ['starting at', 'min', true],
];

/** A small phrase table indexed by first word, longest phrases first. */
function tableIndex<T extends readonly [string, ...unknown[]]>(
  table: readonly T[],
): Map<string, { entry: T; words: string[] }[]> {
  const index = new Map<string, { entry: T; words: string[] }[]>();
  for (const entry of table) {
    const words = entry[0].split(' ');
    const list = index.get(words[0]!) ?? [];
    list.push({ entry, words });
    list.sort((a, b) => b.words.length - a.words.length);
    index.set(words[0]!, list);
  }
  return index;
}

/** The longest phrase of a small table that starts at words[i]. */
function matchTable<T>(
  words: readonly string[],
  i: number,
  index: Map<string, { entry: T; words: string[] }[]>,
): { entry: T; length: number } | undefined {
  const list = index.get(words[i] ?? '');
  if (!list) return undefined;
  outer: for (const { entry, words: parts } of list) {
    for (let k = 1; k < parts.length; k++) if (words[i + k] !== parts[k]) continue outer;
    return { entry, length: parts.length };
  }
  return undefined;
}

const BOUND_INDEX = tableIndex(BOUNDS);
const SIZE_INDEX = tableIndex(SIZE_UNITS);

interface Amount {
  value: number;
  /** The multiplier typed (1000 for k), or 1. */
  multiplier: number;
  currency: boolean;
  /** Factor to sqft when a size unit came with the amount ("100 sqm"). */
  sizeFactor?: number;
  /** "1.5m+", "1000+ sqft": this much or more. */
  plus?: boolean;
  end: number;
}

/** An amount word, or one with a `+` fused on ("1.5m+"). */
function amountWord(word: string): (ReturnType<typeof readAmountWord> & { plus?: boolean }) | undefined {
  const plain = readAmountWord(word);
  if (plain || !word.endsWith('+')) return plain;
  const base = readAmountWord(word.slice(0, -1));
  return base ? { ...base, plus: true } : undefined;
}

function readAmount(words: readonly string[], j: number): Amount | undefined {
  let k = j;
  let currency = false;
  if (CURRENCIES.has(words[k] ?? '') && amountWord(words[k + 1] ?? '')) {
    currency = true;
    k++;
  }
  const word = amountWord(words[k] ?? '');
  if (!word) return undefined;
  k++;
  let value = word.value;
  let multiplier = word.multiplier;
  let sizeFactor = word.sizeFactor;
  const after = MULTIPLIERS[words[k] ?? ''];
  if (multiplier === 1 && sizeFactor === undefined && after !== undefined) {
    value *= after;
    multiplier = after;
    k++;
  }
  if (sizeFactor === undefined) {
    const unit = matchTable(words, k, SIZE_INDEX);
    if (unit) {
      sizeFactor = unit.entry[1];
      k += unit.length;
    }
  }
  if (sizeFactor === undefined && CURRENCIES.has(words[k] ?? '')) {
    currency = true;
    k++;
  }
  return {
    value,
    multiplier,
    currency: currency || word.currency,
    ...(sizeFactor !== undefined ? { sizeFactor } : {}),
    ...(word.plus ? { plus: true } : {}),
    end: k,
  };
}

/** Bounds said after the amount: "120k max", "90k or less", "1,000 sqft or more", "2m+". */
const TRAILING_BOUNDS = tableIndex([
  ['max', 'max'],
  ['maximum', 'max'],
  ['tops', 'max'],
  ['at most', 'max'],
  ['or less', 'max'],
  ['or lower', 'max'],
  ['or below', 'max'],
  ['or under', 'max'],
  ['and under', 'max'],
  ['and below', 'max'],
  ['or cheaper', 'max'],
  ['or smaller', 'max'],
  ['min', 'min'],
  ['minimum', 'min'],
  ['or more', 'min'],
  ['or above', 'min'],
  ['or over', 'min'],
  ['or higher', 'min'],
  ['and above', 'min'],
  ['and up', 'min'],
  ['and over', 'min'],
  ['or bigger', 'min'],
  ['or larger', 'min'],
  ['plus', 'min'],
  ['+', 'min'],
] as const);

/** "-5000", "under -5k": refused, with what a price or a size can be. */
function negative(words: readonly string[], i: number): number {
  const word = words[i]!;
  if (!word.startsWith('-') || !readAmountWord(word.slice(1))) return 0;
  const fused = readAmountWord(word.slice(1))!;
  const unit = roomUnit(words[i + 1] ?? '');
  if (unit) fail(`A number of ${unitWord(unit)} can't be negative ("${word}"). Try ${roomExample(unit)}.`);
  const isSize = fused.sizeFactor !== undefined || matchTable(words, i + 1, SIZE_INDEX) !== undefined;
  return isSize
    ? fail(`An area can't be negative ("${word}"). Try "over 1000 sqft".`)
    : fail(`A price can't be negative ("${word}"). Try "under 120k" or "between 80k and 120k".`);
}

/** A price per size unit said before its amount ("per sqft under 150", "psf 100-200"): where it started, and its unit. */
interface PerSizeFirst {
  from: number;
  per: { length: number; toSqft: number };
}

function quantity(
  words: readonly string[],
  i: number,
  draft: Draft,
  index: PhraseIndex,
  options: ScanOptions,
  unit?: PerSizeFirst,
): number {
  const bound = matchTable(words, i, BOUND_INDEX);
  const boundWords = bound ? text(words, i, i + bound.length) : '';
  const start = i + (bound?.length ?? 0);
  const first = readAmount(words, start);
  // "under 2 baths", "over 3 beds": a count of rooms after a bound is not a price of AED 2.
  if (bound && first && isPlainAmount(first) && first.sizeFactor === undefined && roomsAt(words, start)) {
    const count = roomCountEnd(words, start);
    const hint = count.unit === 'bathrooms' ? '"1-2 baths" or "2+ baths"' : '"1-2 br" or "3+ br"';
    fail(
      `I can't read "${text(words, i, count.end)}" as a price, and rooms are counted rather than bounded: try ${hint}.`,
    );
  }
  if (!first) {
    if (!bound || bound.entry[2]) return 0;
    if (words[start] !== undefined) negative(words, start);
    const next = words[start];
    if (next === undefined) fail(`"${boundWords}" what? Add an amount, like "${boundWords} 120k".`);
    fail(
      `I couldn't read "${next === '\u0000' ? 'the quoted text' : next}" as an amount. Try "${boundWords} 120k" or "${boundWords} 1.2m".`,
    );
  }
  let j = first!.end;
  let second: Amount | undefined;
  const sep = words[j];
  if (sep === '-' || sep === 'to' || (bound?.entry[1] === 'between' && sep === 'and')) {
    second = readAmount(words, j + 1);
    // "90k - 1 bed": a count of rooms never ends a price or size range; the dash separated two filters. (After a bare
    // small number, "under 1-3 br" keeps the first edition's reading.)
    const surelyAmount =
      first!.multiplier > 1 || first!.currency || first!.sizeFactor !== undefined || first!.value >= 1000;
    if (second && surelyAmount && roomsAt(words, j + 1)) second = undefined;
    if (second) j = second.end;
  }
  // "150 per sqft", "100-200 aed/sqft", "1,000 per sqm": a price per unit of size, never a price or a size.
  if (unit && (first!.sizeFactor !== undefined || second?.sizeFactor !== undefined)) return 0;
  const perAfter =
    unit || first!.sizeFactor !== undefined || second?.sizeFactor !== undefined ? undefined : perSize(words, j, true);
  if (perAfter) j += perAfter.length;
  const per = unit?.per ?? perAfter;
  // "120k max", "90k or less", "2m+": a bound after the amount, unless it starts another amount ("120k min 1000 sqft").
  let after: 'min' | 'max' | undefined;
  const amountEnd = j;
  // "10k per month or less": the bound may follow the rent period, which is then read here too.
  let rentPeriod: ReturnType<PhraseIndex['match']>;
  if (!bound && !second) {
    const period = index.match(words, j);
    const k = period?.effect.kind === 'frequency' ? j + period.length : j;
    const trailing = matchTable(words, k, TRAILING_BOUNDS);
    if (first!.plus) after = 'min';
    // Only a bound word that may also lead ("min") can start the next amount instead: "120k min 1000 sqft".
    else if (trailing && (!matchTable(words, k, BOUND_INDEX) || !readAmount(words, k + trailing.length))) {
      after = trailing.entry[1];
      if (k > j) rentPeriod = period;
      j = k + trailing.length;
    }
  }
  if (bound?.entry[1] === 'between' && !second) {
    fail(`Between ${text(words, start, first!.end)} and what? Try "between 80k and 120k".`);
  }
  const factor = first!.sizeFactor ?? second?.sizeFactor;
  const isSize = factor !== undefined;
  if (!bound && !second && !isSize && !per) {
    // A bare small number is more likely part of a name ("Al Barsha 1") than a price.
    const frequencyNext = rentPeriod !== undefined || index.match(words, j)?.effect.kind === 'frequency';
    if (first!.multiplier === 1 && !first!.currency && first!.value < 1000 && !frequencyNext) return 0;
  }
  // "under 75 grnd", "1200 sqfeet": a plain number followed by a word that is no unit, filter or area is not a price.
  if (
    !isSize &&
    !per &&
    isPlainAmount(first) &&
    (second === undefined || isPlainAmount(second)) &&
    isUnknownAfterAmount(words[j], index, options)
  ) {
    const typed = text(words, i, j + 1);
    const number = text(words, start, first!.end);
    if (SPAN_UNITS[words[j]!] !== undefined) {
      fail(
        `I can't read "${typed}" as a price: "${words[j]}" counts time. Past sales and rentals take a period, like "/sold marina last 6 months".`,
      );
    }
    const asPrice =
      first!.value < 1000
        ? `"${number}k" or "${grouped(amountText(first!.value * 1000))} aed"`
        : `"${grouped(number)} aed"`;
    fail(
      `I couldn't read "${typed}": "${words[j]}" is no unit I know. For a price, write ${asPrice}; for an area, "${number} sqft"; ` +
        `if "${words[j]}" is part of the place, put the place first or in quotes.`,
    );
  }
  let low = first!.value;
  // `1-2m` means 1m to 2m; `50000-1.2m` keeps 50000.
  if (second && first!.multiplier === 1 && second.multiplier > 1 && low * second.multiplier <= second.value)
    low *= second.multiplier;
  // "AED 0", "0 sqft" on their own, or 0 as the most ("under 0", "max 0k"): nothing can match. A range may start at 0,
  // and "<= 0", which nobody types in chat, is how formatQuery writes a zero maximum, so any Query reads back.
  const side = second ? 'max' : (after ?? bound?.entry[1]);
  if ((second ? Math.max(low, second.value) : low) === 0 && side !== 'min' && bound?.entry[0] !== '<=') {
    fail(
      isSize
        ? `An area of 0 sqft can't match a property. Try "over 1000 sqft".`
        : `A price of AED 0 can't match a listing. Try "under 120k".`,
    );
  }
  if (rentPeriod) apply(draft, rentPeriod.effect, text(words, amountEnd, amountEnd + rentPeriod.length));
  const said = text(words, unit?.from ?? i, j);
  if (per) {
    perSqftBounds(
      draft,
      { low, high: second?.value, side: second ? undefined : (after ?? (bound?.entry[1] === 'min' ? 'min' : 'max')) },
      per.toSqft,
      said,
    );
    return j - i;
  }
  const target = isSize ? draft.size : draft.price;
  if (second) {
    if (low > second.value) {
      // Ends reversed ("120k-80k"): read the right way round, and said so in the summary.
      const [lo, hi] = [second.value, low].map((n) => grouped(amountText(toUnit(n, factor))));
      draft.notes.push(`read "${said}" as ${isSize ? `${lo} to ${hi} sqft` : `AED ${lo} to ${hi}`}`);
    }
    setBound(target, 'min', Math.min(low, second.value), factor, said);
    setBound(target, 'max', Math.max(low, second.value), factor, said);
  } else if (after) {
    setBound(target, after, low, factor, said);
  } else if (bound) {
    setBound(target, bound.entry[1] === 'min' ? 'min' : 'max', low, factor, said);
  } else {
    // A bare price is a budget (a maximum); a bare size is the space wanted (a minimum).
    setBound(target, isSize ? 'min' : 'max', low, factor, said);
  }
  // "over 100 sqm": sent in square feet, and said so (a range written backwards has said it already).
  if (factor !== undefined && factor !== 1 && !(second && low > second.value)) {
    const ends = second ? [Math.min(low, second.value), Math.max(low, second.value)] : [low];
    draft.notes.push(`read "${said}" as ${ends.map((n) => grouped(amountText(toUnit(n, factor)))).join(' to ')} sqft`);
  }
  return j - i;
}

/** A unit of size after "/" in one word, maybe the first of its words: "aed/sqft", "/sqm", "dhs/sq.ft", "/sq ft". */
const FUSED_PER = /^(?:aed|dhs|price)?\/([a-z.]+2?)$/;
/** Words for "per" before a unit of size; "a" only after an amount ("150 a sq ft"), never leading one. */
const PER_WORDS = new Set(['per', '/']);

/**
 * "per sqft", "/ sqft", "aed/sqft", "psf", "per square foot", "per sqm", "a sq ft" at words[j]: how many words, and the
 * unit's factor to square feet. Undefined when no price-per-size unit starts there.
 */
function perSize(
  words: readonly string[],
  j: number,
  afterAmount: boolean,
): { length: number; toSqft: number } | undefined {
  const word = words[j];
  if (word === undefined) return undefined;
  if (word === 'psf' || word === 'p.s.f') return { length: 1, toSqft: 1 };
  const fused = FUSED_PER.exec(word);
  if (fused) {
    const unit = matchTable([fused[1]!, ...words.slice(j + 1, j + 3)], 0, SIZE_INDEX);
    return unit ? { length: unit.length, toSqft: unit.entry[1] } : undefined;
  }
  if (!PER_WORDS.has(word) && !(afterAmount && (word === 'a' || word === 'an'))) return undefined;
  const unit = matchTable(words, j + 1, SIZE_INDEX);
  return unit ? { length: 1 + unit.length, toSqft: unit.entry[1] } : undefined;
}

/** Words that may lead an amount without changing it: "price under 120k", "price per sqft below 150". */
const PRICE_LEADS = new Set(['price', 'rate']);

/**
 * The unit before the amount: "per sqft under 150", "price per sqft below 150", "psf 100-200", "price/sqft max 150".
 * Read as "under 150 per sqft" (never a price of AED 150, nor a size); a unit with no amount is asked about.
 */
function unitFirst(
  words: readonly string[],
  i: number,
  draft: Draft,
  index: PhraseIndex,
  options: ScanOptions,
): number {
  const lead = PRICE_LEADS.has(words[i]!) ? 1 : 0;
  const per = perSize(words, i + lead, false);
  if (!per) {
    const used = lead ? quantity(words, i + 1, draft, index, options) : 0;
    return used > 0 ? used + 1 : 0;
  }
  const at = i + lead + per.length;
  const used = quantity(words, at, draft, index, options, { from: i, per });
  if (used === 0) fail(`"${text(words, i, at)}" what? Add an amount, like "under 150 per sqft".`);
  return at - i + used;
}

/**
 * Sets the price-per-sqft bounds: an amount per sqm is divided to per sqft and the summary says so; a range written
 * backwards is read the right way round, said so; beyond any listing's is refused (limits.ts), never searched.
 */
function perSqftBounds(
  draft: Draft,
  amounts: { low: number; high: number | undefined; side: 'min' | 'max' | undefined },
  toSqft: number,
  said: string,
): void {
  const perSqft = (n: number) => Number(amountText(n / toSqft));
  const ends =
    amounts.high === undefined
      ? [amounts.low]
      : [Math.min(amounts.low, amounts.high), Math.max(amounts.low, amounts.high)];
  for (const end of ends)
    if (beyond(perSqft(end), MAX_PRICE_PER_SQFT) || beyond(end, MAX_PRICE_AED)) fail(tooDearPerSqftText(said));
  const put = (side: 'min' | 'max', value: number) => {
    const before = draft.perSqft[side];
    if (before && before.value !== value)
      fail(
        `You gave two ${side === 'min' ? 'minimum' : 'maximum'} prices per sqft ("${before.text}" and "${said}"). Keep one.`,
      );
    draft.perSqft[side] = { value, text: said };
  };
  if (ends.length === 2) {
    put('min', perSqft(ends[0]!));
    put('max', perSqft(ends[1]!));
  } else put(amounts.side ?? 'max', perSqft(ends[0]!));
  const reversed = amounts.high !== undefined && amounts.low > amounts.high;
  if (toSqft !== 1 || reversed)
    draft.notes.push(`read "${said}" as AED ${ends.map((n) => grouped(amountText(perSqft(n)))).join(' to ')} per sqft`);
}

// At module level rather than closures in quantity(): made on every call, they cost more than the calls (tsx names each
// one).
/** A number with nothing to say it is money or a size: no multiplier ("k"), no currency. */
const isPlainAmount = (a: Amount | undefined) => a !== undefined && a.multiplier === 1 && !a.currency;

/** Where a count of rooms that starts at words[k] ends (after its unit word), and its unit. */
function roomCountEnd(words: readonly string[], k: number): { end: number; unit: RoomUnit | undefined } {
  for (let j = k; j < words.length && j < k + 7; j++) {
    const unit = roomUnit(words[j]!) ?? splitRoomWord(words[j]!)?.unit;
    if (unit) return { end: j + 1, unit };
  }
  return { end: Math.min(words.length, k + 2), unit: undefined };
}
/** An amount in the unit sent: square feet for a size (`factor` to sqft), AED for a price (no factor). */
const toUnit = (n: number, factor: number | undefined) =>
  factor !== undefined ? (factor === 1 ? n : Math.round(n * factor)) : n;

function setBound(target: Bounds, side: 'min' | 'max', value: number, factor: number | undefined, said: string): void {
  // Beyond any listing (above AED 10 billion, 10 million sqft, or no finite number at all): refused, never searched.
  const sent = toUnit(value, factor);
  if (beyond(sent, factor !== undefined ? MAX_SIZE_SQFT : MAX_PRICE_AED))
    fail(tooLargeText(factor !== undefined ? 'size' : 'price', said));
  const before = target[side];
  const what = factor !== undefined ? 'areas' : 'prices';
  if (before && before.value !== value)
    fail(`You gave two ${side === 'min' ? 'minimum' : 'maximum'} ${what} ("${before.text}" and "${said}"). Keep one.`);
  target[side] = { value: Number(amountText(sent)), text: said };
}

// --- Known areas, and the words a number may be followed by ------------------------------------------------------

/** Words that a filter starts with, or that the scanner drops: a known name holding one must be read as a whole. */
const TAKEN = new Set<string>([
  ...[
    PROPERTY_TYPES,
    ADREC_TYPES,
    AMENITY_PHRASES,
    COMPLETION_PHRASES,
    DEAL_PHRASES,
    FREQUENCY_PHRASES,
    FURNISHING_PHRASES,
    MARKER_PHRASES,
    PERIOD_PHRASES,
    SHORT_PERIODS,
    SORT_PHRASES,
  ].flatMap((table) => table.map(([p]) => p.split(' ')[0]!)),
  ...BOUNDS.map(([p]) => p.split(' ')[0]!),
  ...[...TRAILING_BOUNDS.keys()],
  ...ROOM_MINIMA.keys(),
  ...ROOM_OR_MORE.keys(),
  ...EXTRAS.keys(),
  ...EXTRA_JOINERS,
  ...BEDROOM_UNITS,
  ...BATHROOM_UNITS,
  ...SIZE_INDEX.keys(),
  ...Object.keys(MULTIPLIERS),
  ...CURRENCIES,
  ...FILLERS,
  ...SEPARATORS,
  ...PAGE_WORDS,
  ...Object.keys(DATE_WORDS),
  ...HANDOVER_WORDS,
  ...NUMBER_WORDS,
  ...SPAN_LEADS.keys(),
  'studio',
  'studios',
  'between',
]);
const takes = (word: string): boolean => DIGIT.test(word) || TAKEN.has(word);

/** The known areas: the shipped list and, once src/locations has taught them, every name the lookup has answered. */
const AREAS = new AreaBook(takes);
AREAS.add(KNOWN_AREAS.flatMap((p) => [p.name, ...p.spellings]));

/** Teaches the parser area names (from location lookups): read as areas before filter words from now on. */
export function learnAreaNames(names: Iterable<string>): void {
  AREAS.add(names);
}

/** True for a word of a known area name: never a typo of a filter word. */
export const isKnownAreaWord = (word: string): boolean => AREAS.hasWord(word);

/**
 * How many words from words[i] are a known area that holds a filter's word or a number; 0 for none. A number ending
 * the
 * name that starts a count of rooms is read as the count, as before: "Damac Hills 2 bed" is two bedrooms in Damac
 * Hills;
 * and one that starts an amount in words as the amount: "Palm Jumeirah 1 million" is not in "Jumeirah 1".
 */
export function knownAreaAt(words: readonly string[], i: number): number {
  const length = AREAS.at(words, i);
  if (length === 0) return 0;
  const last = i + length - 1;
  return /^\d+$/.test(words[last]!) && (roomsAt(words, last) || MULTIPLIERS[words[last + 1] ?? ''] !== undefined)
    ? 0
    : length;
}

/** Words a plain number may be followed by: units, bounds, filters, fillers, chat words, verbs. */
const WORDS_AFTER_AMOUNT = new Set<string>([
  ...TAKEN,
  ...SENTENCE_FILLERS,
  ...VERB_TABLE.flatMap((v) => [v.name, ...v.aliases, ...(v.quiet ?? [])].map((p) => p.split(/[\s-]+/)[0]!)),
  'or',
  'to',
  'and',
  'only',
  'thanks',
  'thx',
  'pls',
  'plz',
  'cheers',
  'asap',
]);
const LATIN_LETTER = /[a-z]/;

/**
 * True when the word after a number is one the language does not know: no unit, filter, filler, known area word or
 * typo of a filter word. Words in other scripts are area words (an Arabic name is looked up as typed).
 */
function isUnknownAfterAmount(word: string | undefined, index: PhraseIndex, options: ScanOptions): boolean {
  if (word === undefined || word === '\u0000' || word === ',' || DIGIT.test(word) || !LATIN_LETTER.test(word))
    return false;
  if (SPAN_UNITS[word] !== undefined) return true; // "upto 3 months": time, not money
  if (WORDS_AFTER_AMOUNT.has(word) || options.fillers?.has(word) || AREAS.hasWord(word) || index.starts(word))
    return false;
  return correctionFor(word) === undefined;
}
