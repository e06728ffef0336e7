// ADREC (Abu Dhabi) records: nothing public shows their shape, so each record becomes a card of whatever scalar
// fields it has. No value of any type may make this throw.
import type { AdrecRecord } from '../api/records.js';
import { formatAed, formatDate, formatNumber, humanize, parseDate, shorten } from './format.js';
import type { Block, Card, Field } from './model.js';

/** Slack allows ten fields in a section; more would be clutter anyway. */
export const ADREC_MAX_FIELDS = 10;
const VALUE_MAX = 120;

/** Keys whose numbers are labels, not quantities: no thousands separators. */
const LABEL_NUMBER = /(^|[_\s-])(id|year|code|number|no)$|[a-z\d](Id|ID|Year|Code|Number|No)$/;
/** Keys whose numbers are amounts of money: the service's currency is AED (spec: "Currency is AED"). */
const MONEY =
  /(^|[_\s-])(price|amount|value|worth|cost)$|[a-z\d](Price|Amount|Value|Worth|Cost)$|^(price|amount|value|worth|cost)$/i;
/** Keys whose numbers count something: 0 is not shown as a fact ("Rooms: 0"); the spec reads 0 bedrooms as a studio. */
const COUNT = /rooms?$|beds?$|baths?$|parkings?$/i;
const BEDROOMS = /bed(room)?s?$/i;

/** A count field's text: a studio for 0 bedrooms, nothing for another 0, a negative or a fraction. */
function countValue(key: string, n: number): string | undefined {
  if (n === 0 && BEDROOMS.test(key)) return 'Studio';
  return Number.isInteger(n) && n > 0 ? String(n) : undefined;
}

/** Keys likely to name the record, in order of preference. */
const TITLE_KEYS = [/project/i, /community/i, /district/i, /building/i, /name/i, /location/i, /area/i];

function jsonShort(value: unknown): string | undefined {
  try {
    const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return json && json !== '{}' && json !== '[]' ? shorten(json, 80) : undefined;
  } catch {
    return undefined; // circular or otherwise unserialisable
  }
}

/** An array of scalars, shown as `a, b, c` rather than JSON. */
function displayedAsList(value: object): value is unknown[] {
  return Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
}

/** A value as short text, or undefined to leave the field out. */
export function displayValue(key: string, value: unknown): string | undefined {
  // Numbers sent as text ("2638000", "0") are read as the numbers they are, for money and counts.
  const numeric = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof numeric === 'number' && Number.isFinite(numeric)) {
    if (COUNT.test(key)) return countValue(key, numeric);
    if (MONEY.test(key) && numeric > 0) return formatAed(Math.round(numeric));
  }
  switch (typeof value) {
    case 'string': {
      const text = value.replace(/\s+/g, ' ').trim();
      if (!text) return undefined;
      // Dates in ISO or DD/MM/YYYY form read better as `12 Mar 2026`.
      return /^\d{4}-\d{2}-\d{2}|^\d{1,2}\/\d{1,2}\/\d{4}$/.test(text) && parseDate(text)
        ? formatDate(text)
        : shorten(text, VALUE_MAX);
    }
    case 'number':
      if (!Number.isFinite(value)) return undefined;
      return LABEL_NUMBER.test(key) || LABEL_NUMBER.test(key.toLowerCase()) ? String(value) : formatNumber(value, 2);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'object': {
      if (value === null) return undefined;
      if (displayedAsList(value)) {
        return value.length ? shorten(value.join(', '), VALUE_MAX) : undefined;
      }
      return jsonShort(value);
    }
    default:
      return undefined; // undefined, functions, symbols
  }
}

function adrecCard(record: AdrecRecord, index: number): Card {
  const entries = typeof record === 'object' && record !== null ? Object.entries(record) : [];
  const isNested = (v: unknown) => typeof v === 'object' && v !== null && !displayedAsList(v);
  // Scalars first: they are what a reader scans for; JSON-shortened objects go last.
  const ordered = [...entries.filter(([, v]) => !isNested(v)), ...entries.filter(([, v]) => isNested(v))];
  const shown: Field[] = [];
  for (const [key, value] of ordered) {
    const text = displayValue(key, value);
    if (text !== undefined) shown.push({ label: humanize(key) || key, value: text });
  }
  const titleIndex = TITLE_KEYS.map((pattern) =>
    entries.findIndex(([key, value]) => pattern.test(key) && typeof value === 'string' && value.trim() !== ''),
  ).find((i) => i >= 0);
  const titleEntry = titleIndex === undefined ? undefined : entries[titleIndex];
  const title = titleEntry ? shorten(String(titleEntry[1]).trim(), 150) : `Record ${index + 1}`;
  const titleLabel = titleEntry ? humanize(titleEntry[0]) : undefined;
  return {
    title,
    fields: shown.filter((f) => f.label !== titleLabel).slice(0, ADREC_MAX_FIELDS),
  };
}

export function adrecView(records: readonly AdrecRecord[]): Block[] {
  if (!records.length) return [{ kind: 'text', text: 'No ADREC transactions were found for this search.' }];
  return records.map((record, i) => ({ kind: 'card', card: adrecCard(record, i) }));
}
