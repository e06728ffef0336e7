// Numbers as people type them: amounts (120k, 1.2m, 120,000 AED), sizes (sqft, sqm) and room counts (2br, 1-3 br).

// "grand" is a thousand ("75 grand"); the Arabic words for a thousand and a million are read too ("٧٥ ألف").
export const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1_000,
  thousand: 1_000,
  thousands: 1_000,
  grand: 1_000,
  m: 1_000_000,
  mn: 1_000_000,
  mln: 1_000_000,
  mil: 1_000_000,
  million: 1_000_000,
  millions: 1_000_000,
  ألف: 1_000,
  الف: 1_000,
  مليون: 1_000_000,
};
export const CURRENCIES = new Set(['aed', 'dhs', 'dh', 'dirham', 'dirhams', 'درهم']);

/** Size units: the words, and the factor to square feet. */
// Written with dots too ("sq.ft.", "sq. ft." are `sq.ft` and `sq ft` once a word's last dot is dropped); `ft²` and `m²`
// are `ft2` and `m2` after NFKC.
export const SQM = 10.7639;
export const SIZE_UNITS: readonly (readonly [phrase: string, toSqft: number])[] = [
  ['sqft', 1],
  ['sq ft', 1],
  ['ft2', 1],
  ['square feet', 1],
  ['sq feet', 1],
  ['square foot', 1],
  ['square ft', 1],
  ['sq foot', 1],
  ['sf', 1],
  ['sq.ft', 1],
  ['sq.feet', 1],
  ['sqm', SQM],
  ['sq m', SQM],
  ['m2', SQM],
  ['square meters', SQM],
  ['square metres', SQM],
  ['square meter', SQM],
  ['square metre', SQM],
  ['sq meters', SQM],
  ['sq metres', SQM],
  ['sq.m', SQM],
  ['sq.mt', SQM],
  ['sqmt', SQM],
  ['sq mt', SQM],
];

const FUSED_UNITS: Readonly<Record<string, number>> = { sqft: 1, 'sq.ft': 1, ft2: 1, sqm: SQM, 'sq.m': SQM, m2: SQM };

// 120000 | 120,000 | 1.2 ; then an optional multiplier, then an optional size unit or currency, all in one word.
const AMOUNT_WORD =
  /^(?:aed|dhs)?(\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)(k|m|mn|mln|mil|million|thousand)?(sqft|sq\.ft|ft2|sqm|sq\.m|m2|aed|dhs)?$/;

export interface AmountWord {
  value: number;
  /** The multiplier typed (1000 for `k`), else 1. */
  multiplier: number;
  currency: boolean;
  /** Factor to sqft when a size unit was fused on (`100sqm`). */
  sizeFactor?: number;
}

/** One word as an amount, or undefined. */
export function readAmountWord(word: string): AmountWord | undefined {
  const m = AMOUNT_WORD.exec(word);
  if (!m) return undefined;
  const base = Number(m[1]!.replace(/,/g, ''));
  const mult = m[2] ? MULTIPLIERS[m[2]]! : 1;
  const suffix = m[3];
  const sizeFactor = suffix ? FUSED_UNITS[suffix] : undefined;
  return {
    value: base * mult,
    multiplier: mult,
    currency: word.startsWith('aed') || word.startsWith('dhs') || suffix === 'aed' || suffix === 'dhs',
    ...(sizeFactor !== undefined ? { sizeFactor } : {}),
  };
}

/** Amounts are sent as plain numbers, at most two decimals (1.1m is 1100000, not 1100000.0000000002). */
export const amountText = (n: number): string => String(Math.round(n * 100) / 100);

export const BEDROOM_UNITS = [
  'br',
  'brs',
  'bed',
  'beds',
  'bedroom',
  'bedrooms',
  'bhk',
  'b/r',
  'bdr',
  'bdrm',
  'bdrms',
  'bedrm',
] as const;
export const BATHROOM_UNITS = ['ba', 'bath', 'baths', 'bathroom', 'bathrooms'] as const;
export type RoomUnit = 'bedrooms' | 'bathrooms';

const UNIT_OF = new Map<string, RoomUnit>([
  ...BEDROOM_UNITS.map((u) => [u, 'bedrooms'] as const),
  ...BATHROOM_UNITS.map((u) => [u, 'bathrooms'] as const),
]);
// Longest units first, so `2beds` is 2 + beds rather than 2be + ds.
const FUSED_ROOM = new RegExp(
  `^(.*?\\d.*?)-?(${[...UNIT_OF.keys()]
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace('/', '\\/'))
    .join('|')})$`,
);

export const roomUnit = (word: string): RoomUnit | undefined => UNIT_OF.get(word);

/** `2br` -> { prefix: '2', unit }; `1-3br` is split earlier into `1 - 3br`. Only words with a digit before the unit. */
export function splitRoomWord(word: string): { prefix: string; unit: RoomUnit } | undefined {
  const m = FUSED_ROOM.exec(word);
  return m ? { prefix: m[1]!, unit: UNIT_OF.get(m[2]!)! } : undefined;
}

/** The most rooms a search asks for; `3+` means 3 up to PLUS_UP_TO. */
export const MAX_ROOMS = 20;
export const PLUS_UP_TO = 7;

/** One item of a room list: `2`, `3+`, `1,2`, `studio`. Undefined when it is not one. */
export function readRoomItem(text: string): number[] | undefined {
  if (text === 'studio' || text === 'studios') return [0];
  if (/^\d+$/.test(text)) return [Number(text)];
  if (/^\d+\+$/.test(text)) {
    return andUp(Number(text.slice(0, -1)));
  }
  if (/^\d+(,\d+)+$/.test(text)) return text.split(',').map(Number);
  return undefined;
}

/**
 * `n+`: n up to PLUS_UP_TO, or n alone above it (so a count too large to spell out stays one number, to be refused).
 */
export const andUp = (from: number): number[] => (from >= PLUS_UP_TO ? [from] : range(from, PLUS_UP_TO));

export const range = (from: number, to: number): number[] => {
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  return Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
};

/** Sorted, without repeats: the form sent and the form compared. */
export const countsText = (values: Iterable<number>): string =>
  // One count, the usual case, is its own sorted form.
  Array.isArray(values) && values.length === 1
    ? String(values[0])
    : [...new Set(values)].sort((a, b) => a - b).join(',');

/** Adds thousands separators for summaries: 120000 -> 120,000. */
export const grouped = (n: number | string): string => {
  const [whole, frac] = String(n).split('.');
  return whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
};
