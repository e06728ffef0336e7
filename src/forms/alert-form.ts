// The alert form, platform-free: its fields as a person fills them (Slack's modal has one per filter; Discord's has the
// search as one text, since its modal takes five components), read into the same AlertCommand a typed `/alerts add` or
// `/alerts edit` is, or refused field by field; and an existing alert read back into the fields, for an edit form.
// Pure: no area is looked up here (Slack's picker gives its id; a typed one is looked up when the alert is saved).
import { RESIDENTIAL_TYPES, type OperationName } from '../api/operations.js';
import type { AlertCommand, AlertDraft, ExistingAlert } from '../ports/order-command.js';
import { formatQuery, parseCommand, RENT_FLOOR, SALE_FLOOR, type Query, type Words } from '../query/index.js';
import { readAmountWord } from '../query/numbers.js';
import { DAYS, parseTime } from '../standing-orders/schedule.js';
import { decodeArea, type FormResult } from './values.js';

/** What the form has; every field optional, as a submitted form may leave any empty. Texts are as typed. */
export interface AlertFormValues {
  /** The area chosen (`<id>:<name>`, as the area picker offers it). */
  area?: string;
  deal?: 'rent' | 'buy';
  /** A residential type (`apartment`, `villa`…); empty for any. */
  type?: string;
  /** Bedroom counts chosen (`0` is a studio); none for any. */
  bedrooms?: string[];
  priceMin?: string;
  priceMax?: string;
  sizeMin?: string;
  sizeMax?: string;
  furnishing?: 'furnished' | 'unfurnished' | 'partly';
  /** Words a listing must have, comma-separated (`sea view, balcony`). */
  wordsIn?: string;
  /** Words that leave a listing out, comma-separated (`shared, bed space`). */
  wordsOut?: string;
  /**
   * The whole search as typed (`rent marina 2br -shared`), where a form has no field per filter (Discord): when set,
   * it is read instead of the fields above, but for the price (priceMin, priceMax), which such a form keeps as a field
   * of its own (readPriceRange) and which wins over a price said in the search.
   */
  search?: string;
  every?: 'instant' | 'daily' | 'weekly';
  day?: (typeof DAYS)[number];
  /** `HH:MM` (Slack's time picker), or as typed (`9am`). */
  time?: string;
  /** Where it posts: this channel, or the person's direct messages. */
  to?: 'channel' | 'me';
  /**
   * What an edited alert asks that the form has no field for (bathrooms, amenities…), kept as they were: endpoint
   * parameters, carried by the form unseen.
   */
  keep?: Record<string, string>;
}

export type AlertField = keyof AlertFormValues;

/** The types a form offers, as the service names them: the command language reads each of them. */
export const ALERT_TYPES: readonly string[] = RESIDENTIAL_TYPES.filter((t) => !t.includes('bulk'));

/** The parameters the form's own fields set; an edited alert's others are kept. */
const FIELD_PARAMS = new Set([
  'property_type',
  'bedrooms',
  'price_min',
  'price_max',
  'area_min',
  'area_max',
  'furnishing',
  'page',
]);

const OPERATION: Record<'rent' | 'buy', OperationName> = { rent: 'search-rent', buy: 'search-buy' };

const grouped = (n: number) => n.toLocaleString('en-US');

/** An amount as typed (`120k`, `1.5m`, `120,000`, `AED 95000`), or undefined when it is none. */
function amount(text: string): number | undefined {
  const word = text.trim().toLowerCase().replace(/\s+/g, '');
  const read = readAmountWord(word);
  return read && read.value > 0 && read.sizeFactor === undefined ? read.value : undefined;
}

/** A comma-separated list of words, lower case, without repeats. */
const wordList = (text: string | undefined): string[] => [
  ...new Set(
    (text ?? '')
      .split(/[,;\n]/)
      .map((w) => w.replace(/["“”]/g, '').trim().toLowerCase())
      .filter(Boolean),
  ),
];

type Errors = Partial<Record<AlertField, string>>;

/** A range's two ends read, each refused on its own field, and the upper one when it is below the lower. */
function range(
  values: AlertFormValues,
  [lowField, highField]: ['priceMin', 'priceMax'] | ['sizeMin', 'sizeMax'],
  what: string,
  errors: Errors,
): [number | undefined, number | undefined] {
  const read = (field: AlertField) => {
    const text = (values[field] as string | undefined)?.trim() ?? '';
    if (text === '') return undefined;
    const n = amount(text);
    if (n === undefined) errors[field] = `"${text}" is not ${what}: write a number such as 120000 or 120k.`;
    return n;
  };
  const low = read(lowField);
  const high = read(highField);
  if (low !== undefined && high !== undefined && low > high)
    errors[highField] =
      `The most (${grouped(high)}) is below the least (${grouped(low)}): make it at least ${grouped(low)}.`;
  return [low, high];
}

/** How often, in the words `/alerts edit` reads (`instant`, `daily at 09:00`, `weekly on sunday at 08:00`). */
function everyWords(values: AlertFormValues, errors: Errors): string {
  const every = values.every ?? 'instant';
  if (every === 'instant') return 'instant';
  const typed = values.time?.trim() ?? '';
  const time = typed === '' ? '09:00' : parseTime(typed);
  if (!time) {
    errors.time = `"${typed}" is not a time of day: write it as HH:MM, such as 09:00 or 18:30.`;
    return 'instant';
  }
  if (every === 'daily') return `daily at ${time}`;
  return `weekly on ${values.day ?? 'monday'} at ${time}`;
}

/** The price fields read into `params` (each refused on its own field: no number, upside down, below any price). */
function prices(values: AlertFormValues, deal: 'rent' | 'buy', params: Record<string, string>, errors: Errors): void {
  const [min, max] = range(values, ['priceMin', 'priceMax'], 'a price', errors);
  const floor = deal === 'rent' ? RENT_FLOOR : SALE_FLOOR;
  for (const [field, n] of [
    ['priceMin', min],
    ['priceMax', max],
  ] as const)
    if (n !== undefined && n < floor && !errors[field])
      errors[field] =
        `${grouped(n)} AED is below any ${deal === 'rent' ? 'yearly rent' : 'price'} here: write the whole amount (${deal === 'rent' ? '120000 or 120k' : '1500000 or 1.5m'}).`;
  if (min !== undefined) params.price_min = String(min);
  if (max !== undefined) params.price_max = String(max);
}

/**
 * A price range as one text (Discord's price field) into the form's two ends, as typed: `90k-120k`, `90k to 120k`,
 * `from 90k` (`over`, `above`, `min`), `up to 120k` (`under`, `below`, `max`), or one amount alone, the most.
 * The ends are read (and refused) by toAlertOrder as the two fields of Slack's form are.
 */
export function readPriceRange(text: string | undefined): Pick<AlertFormValues, 'priceMin' | 'priceMax'> {
  const t = (text ?? '').trim().toLowerCase();
  if (t === '') return {};
  const upTo = /^(?:up to|under|below|max(?:imum)?|at most|<=?)\s*(.+)$/.exec(t);
  if (upTo) return { priceMax: upTo[1]!.trim() };
  const between = /^(.+?)\s*(?:-|–|—|\bto\b|\band\b)\s*(.+)$/.exec(t.replace(/^(?:from|between)\s+/, ''));
  if (between) return { priceMin: between[1]!.trim(), priceMax: between[2]!.trim() };
  const from = /^(?:from|over|above|min(?:imum)?|at least|>=?)\s*(.+)$/.exec(t);
  return from ? { priceMin: from[1]!.trim() } : { priceMax: t };
}

/** The form's two price ends as one text again (an edit form's price field): `90,000-120,000`, `up to 120,000`. */
export function priceRangeText(values: Pick<AlertFormValues, 'priceMin' | 'priceMax'>): string | undefined {
  const n = (v: string | undefined) => (v && /^\d+$/.test(v) ? grouped(Number(v)) : v);
  const [min, max] = [n(values.priceMin), n(values.priceMax)];
  if (min && max) return `${min}-${max}`;
  if (min) return `from ${min}`;
  return max ? `up to ${max}` : undefined;
}

/** The query of a form with a field per filter. */
function fieldsQuery(values: AlertFormValues, errors: Errors): { query: Query; area?: { id: number; name: string } } {
  const area = decodeArea(values.area);
  if (!area) errors.area = 'Pick an area from the list (start typing its name).';
  const deal = values.deal ?? 'rent';
  const params: Record<string, string> = { ...values.keep };
  for (const p of FIELD_PARAMS) delete params[p];
  if (values.type) {
    if (ALERT_TYPES.includes(values.type)) params.property_type = values.type;
    else errors.type = `"${values.type}" is not a property type I search.`;
  }
  const beds = [...new Set(values.bedrooms ?? [])].map(Number).sort((a, b) => a - b);
  if (beds.some((b) => !Number.isInteger(b) || b < 0 || b > 20)) errors.bedrooms = 'Bedrooms are 0 (studio) to 20.';
  else if (beds.length > 0) params.bedrooms = beds.join(',');
  prices(values, deal, params, errors);
  const [smallest, largest] = range(values, ['sizeMin', 'sizeMax'], 'a size in sqft', errors);
  if (smallest !== undefined) params.area_min = String(smallest);
  if (largest !== undefined) params.area_max = String(largest);
  if (values.furnishing) params.furnishing = values.furnishing;
  const require = wordList(values.wordsIn);
  const exclude = wordList(values.wordsOut);
  const both = require.find((w) => exclude.includes(w));
  if (both) errors.wordsOut = `"${both}" is both a word to have and one to leave out.`;
  const words: Words = { ...(exclude.length ? { exclude } : {}), ...(require.length ? { require } : {}) };
  const query: Query = {
    operation: OPERATION[deal],
    params,
    location: area?.name ?? null,
    unknownWords: [],
    ...(exclude.length || require.length ? { words } : {}),
  };
  return area ? { query, area } : { query };
}

/** The query of a form with the search as one text (Discord's): read as a typed search is. */
function searchQuery(values: AlertFormValues, errors: Errors): { query: Query } | undefined {
  const text = values.search ?? '';
  if (text.trim() === '') {
    errors.search = 'Say what to watch, for example: rent marina 2br under 120k.';
    return undefined;
  }
  const parsed = parseCommand(text);
  if (!parsed.ok) {
    errors.search = parsed.error;
    return undefined;
  }
  const { query } = parsed;
  if (query.operation !== 'search-rent' && query.operation !== 'search-buy')
    errors.search = 'An alert watches homes to rent or to buy: start with rent or buy, for example: buy jvc villa.';
  else if (query.location === null) errors.search = 'Say which area, for example: rent marina 2br under 120k.';
  else if (values.priceMin !== undefined || values.priceMax !== undefined) {
    // The price field wins over a price said in the search.
    const params = { ...query.params };
    delete params.price_min;
    delete params.price_max;
    prices(values, query.operation === 'search-buy' ? 'buy' : 'rent', params, errors);
    return { query: { ...query, params } };
  }
  return { query };
}

/**
 * The form as the command it saves: `/alerts add`, or `/alerts edit <n>` when it edits alert `editing` (whose owner
 * it keeps: a personal alert stays one). Refused field by field, saving nothing, when any field is wrong.
 */
export function toAlertOrder(
  values: AlertFormValues,
  editing?: { number: number; to?: 'me' },
): FormResult<AlertCommand, AlertField> {
  const errors: Errors = {};
  const spec = values.search !== undefined ? searchQuery(values, errors) : fieldsQuery(values, errors);
  const every = everyWords(values, errors);
  if (!spec || Object.keys(errors).length > 0) return { ok: false, errors };
  const alert = { ...spec, every };
  if (editing) {
    const to = editing.to === 'me' ? { to: 'me' as const } : {};
    return { ok: true, order: { kind: 'alert', sub: 'edit', number: editing.number, alert, ...to } };
  }
  const to = values.to === 'me' ? { to: 'me' as const } : {};
  return { ok: true, order: { kind: 'alert', sub: 'add', ...alert, ...to } };
}

function withoutPrice(params: Record<string, string>): Record<string, string> {
  const { price_min: _min, price_max: _max, ...rest } = params;
  return rest;
}

/** `daily at 09:00` back into the form's how often, day and time. */
function everyFields(words: string): Pick<AlertFormValues, 'every' | 'day' | 'time'> {
  const m = /^(daily|weekly on (\w+)) at (\d{2}:\d{2})$/.exec(words.trim());
  if (!m) return { every: 'instant' };
  const day = DAYS.find((d) => d === m[2]);
  return m[1] === 'daily' ? { every: 'daily', time: m[3]! } : { every: 'weekly', time: m[3]!, ...(day ? { day } : {}) };
}

/**
 * An existing alert as its edit form's fields (or a search to save, as a new alert's): each filter in its field, and
 * the whole search as text too, its price left to the price fields (a form with the search as one text has a price
 * field beside it). A draft whose area is not known leaves the area to pick; its search still names it.
 */
export function fromAlert(existing: ExistingAlert | AlertDraft): AlertFormValues {
  const { query, area } = existing;
  const p = query.params;
  const keep = Object.fromEntries(Object.entries(p).filter(([k]) => !FIELD_PARAMS.has(k)));
  const furnishing = p.furnishing as AlertFormValues['furnishing'];
  const text = (list: string[] | undefined) => (list?.length ? list.join(', ') : undefined);
  const fields: AlertFormValues = {
    ...(area ? { area: `${area.id}:${area.name}` } : {}),
    deal: query.operation === 'search-buy' ? 'buy' : 'rent',
    ...(p.property_type ? { type: p.property_type } : {}),
    ...(p.bedrooms ? { bedrooms: p.bedrooms.split(',') } : {}),
    ...(p.price_min ? { priceMin: p.price_min } : {}),
    ...(p.price_max ? { priceMax: p.price_max } : {}),
    ...(p.area_min ? { sizeMin: p.area_min } : {}),
    ...(p.area_max ? { sizeMax: p.area_max } : {}),
    ...(furnishing ? { furnishing } : {}),
    ...(text(query.words?.require) ? { wordsIn: text(query.words?.require) } : {}),
    ...(text(query.words?.exclude) ? { wordsOut: text(query.words?.exclude) } : {}),
    search: formatQuery({ ...query, location: area?.name ?? query.location, params: withoutPrice(p) }),
    ...everyFields('every' in existing ? existing.every : 'instant'),
    to: existing.to === 'me' ? 'me' : 'channel',
    ...(Object.keys(keep).length > 0 ? { keep } : {}),
  };
  return fields;
}
