// Money, sizes, counts, dates and text, formatted for people. Every function tolerates missing or odd input:
// it returns undefined (so the caller leaves the field out) rather than "undefined", "NaN" or "Invalid Date".
import { compile, type FormatCallback } from 'html-to-text';

/** The price object of a listing, loosely: any part may be missing. */
export interface PriceLike {
  readonly value?: number | null | undefined;
  readonly currency?: string | null | undefined;
  readonly period?: string | null | undefined;
  readonly is_hidden?: boolean | null | undefined;
}

export interface PriceOptions {
  /** Period to assume when the record carries none (a rent search may omit it). */
  readonly defaultPeriod?: string;
}

export const PRICE_ON_REQUEST = 'Price on request';

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimalNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "Dubai Marina's", "Jumeirah Lake Towers'": the possessive of a name, with the apostrophe alone after a final s. */
export function possessive(name: string): string {
  return /s$/i.test(name.trim()) ? `${name.trim()}'` : `${name.trim()}'s`;
}

/** "1 search", "4 searches", "1,200 saved searches": a count with its noun, one or many. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** `1250000` -> `1,250,000`; up to `fractionDigits` decimals (none by default). */
export function formatNumber(n: number, fractionDigits: 0 | 2 = 0): string {
  return (fractionDigits === 0 ? wholeNumber : decimalNumber).format(n);
}

export function formatAed(n: number): string {
  return `AED ${formatNumber(n)}`;
}

const PERIOD_SUFFIX: Readonly<Record<string, string>> = {
  yearly: '/yr',
  year: '/yr',
  annual: '/yr',
  annually: '/yr',
  yr: '/yr',
  monthly: '/mo',
  month: '/mo',
  mo: '/mo',
  weekly: '/wk',
  week: '/wk',
  wk: '/wk',
  daily: '/day',
  day: '/day',
  sell: '',
  sale: '',
  buy: '',
  '': '',
};

/** `AED 120,000/yr`, `AED 1,850,000`; `Price on request` when hidden or without a usable value (never `AED 0`). */
export function formatPrice(price: PriceLike | null | undefined, options: PriceOptions = {}): string {
  const value = price?.value;
  if (!price || price.is_hidden === true || typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return PRICE_ON_REQUEST;
  }
  const currency = price.currency?.trim().toUpperCase() || 'AED';
  const period = (price.period ?? options.defaultPeriod ?? '').trim().toLowerCase();
  const suffix = PERIOD_SUFFIX[period] ?? ` ${period}`;
  return `${currency} ${formatNumber(value)}${suffix}`;
}

/** Numbers and numeric text alike ("3", 3); undefined for anything else. */
export function toCount(n: number | string | null | undefined): number | undefined {
  const value = typeof n === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(n) ? Number(n) : n;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function formatSize(sqft: number | null | undefined): string | undefined {
  return typeof sqft === 'number' && Number.isFinite(sqft) && sqft > 0 ? `${formatNumber(sqft)} sqft` : undefined;
}

function formatCount(n: number | string | null | undefined, one: string, many: string): string | undefined {
  const count = toCount(n);
  if (count !== undefined) return `${formatNumber(count, 2)} ${count === 1 ? one : many}`;
  // Text that is not a number ("7+") is still worth showing.
  const raw = typeof n === 'string' ? n.trim() : '';
  return raw ? (/^\d+\+$/.test(raw) ? `${raw} ${many}` : raw) : undefined;
}

/** `Studio`, `1 bed`, `3 beds`. */
export function formatBeds(n: number | string | null | undefined): string | undefined {
  if (toCount(n) === 0 || (typeof n === 'string' && /^\s*studio\s*$/i.test(n))) return 'Studio';
  return formatCount(n, 'bed', 'beds');
}

/** `1 bath`, `2 baths`. */
export function formatBaths(n: number | string | null | undefined): string | undefined {
  return formatCount(n, 'bath', 'baths');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * A date from ISO 8601 (`2027-09-30T00:00:00Z`, `2026-03-12`), `DD/MM/YYYY` or a `Feb 2025` label.
 * Timestamps without a zone are read as UTC so a date never shifts with the server's zone.
 */
export function parseDate(input: unknown): Date | undefined {
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? undefined : input;
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  let time = Number.NaN;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const label = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(s);
  if (iso) {
    const [, y, mo, d, h = '00', mi = '00', sec = '00', zone = 'Z'] = iso;
    time = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +sec);
    if (!sameDay(time, +y!, +mo!, +d!) || +h > 23 || +mi > 59 || +sec > 59) time = Number.NaN;
    time -= zoneOffsetMs(zone);
  } else if (dmy) {
    const [, d, mo, y] = dmy;
    time = Date.UTC(+y!, +mo! - 1, +d!);
    if (!sameDay(time, +y!, +mo!, +d!)) time = Number.NaN;
  } else if (label) {
    const month = MONTHS.findIndex((m) => m.toLowerCase() === label[1]!.toLowerCase());
    if (month >= 0) time = Date.UTC(+label[2]!, month, 1);
  }
  return Number.isFinite(time) ? new Date(time) : undefined;
}

/** `Z`, `+04:00` or `-0530` as milliseconds east of UTC. */
function zoneOffsetMs(zone: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  return m ? (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!) * 60_000 : 0;
}

/** Rejects dates that Date.UTC silently rolls over (31 Feb -> 3 Mar). */
function sameDay(time: number, y: number, mo: number, d: number): boolean {
  const date = new Date(time);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Unparseable but non-empty text is shown as it came (shortened), since it may still mean something ("Q3 2027"). */
function formatWith(input: string | null | undefined, render: (d: Date) => string): string | undefined {
  if (typeof input !== 'string' || !input.trim()) return undefined;
  const date = parseDate(input);
  return date ? render(date) : shorten(input.trim(), 40);
}

/** `Sep 2027`. */
export function formatMonth(input: string | null | undefined): string | undefined {
  return formatWith(input, (d) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
}

/** `12 Mar 2026`. */
export function formatDate(input: string | null | undefined): string | undefined {
  return formatWith(input, (d) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
}

/** HTML longer than this is cut before converting: a description needs no more, and it bounds the work per record. */
export const HTML_INPUT_MAX = 20_000;

/** A list's items on one line, `; ` between them, as they read in a card ("on-time handover; payment plans"). */
const inlineList: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  let first = true;
  for (const child of elem.children ?? []) {
    if (child.type !== 'tag' || child.name !== 'li') continue;
    if (!first) builder.addLiteral('; ');
    walk(child.children ?? [], builder);
    first = false;
  }
  builder.closeBlock({ trailingLineBreaks: 1 });
};

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));
const htmlToPlain = compile({
  wordwrap: false,
  // Deeply nested markup would otherwise recurse until the stack overflows; real descriptions nest a few levels.
  limits: { maxDepth: 64, maxChildNodes: 2_000, ellipsis: '…' },
  formatters: { inlineList },
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'ul', format: 'inlineList' },
    { selector: 'ol', format: 'inlineList' },
    { selector: 'table', format: 'block' },
    ...HEADINGS,
  ],
});

/**
 * HTML to plain text: scripts, styles, images and tags removed, entities decoded once (`&amp;lt;` stays `&lt;`), list
 * items
 * joined with `; `, whitespace collapsed. A real parser (html-to-text) rather than regular expressions keeps the work
 * linear
 * on broken markup such as thousands of unclosed tags; the input is capped at HTML_INPUT_MAX characters.
 */
export function stripHtml(html: string | null | undefined): string {
  if (typeof html !== 'string' || html === '') return '';
  try {
    return htmlToPlain(html.slice(0, HTML_INPUT_MAX)).replace(/\s+/g, ' ').trim();
  } catch {
    return ''; // markup the parser cannot take: leaving the description out beats failing the whole reply
  }
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * At most `max` UTF-16 units, the ellipsis included. Cuts on a word boundary when one is near, and never inside
 * a grapheme, so an emoji, a flag or an Arabic letter with its marks is kept whole or dropped whole.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  const budget = max - 1;
  let cut = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > budget) break;
    cut = index + segment.length;
  }
  const head = text.slice(0, cut);
  const space = head.search(/\s\S*$/);
  // Prefer the last word boundary unless that throws away most of the text.
  const kept = space > budget * 0.6 ? head.slice(0, space) : head;
  return `${kept.replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/** `propertyType`, `total_price_aed` -> `Property type`, `Total price AED`. */
export function humanize(key: string): string {
  const ACRONYMS: Readonly<Record<string, string>> = { aed: 'AED', id: 'ID', url: 'URL', adrec: 'ADREC' };
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
