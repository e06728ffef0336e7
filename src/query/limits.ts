// What no listing can be: a price above AED 10 billion, a size above 10 million sqft, more than MAX_ROOMS bedrooms or
// bathrooms, or a number that is no finite number at all ("9.999999999999999e+25", "Infinity" from 400 nines). Such a
// search can never match and the service refuses it, so it is refused as it is read, and a saved one is paused.
import { MAX_ROOMS } from './numbers.js';
import type { Query } from './types.js';

export const MAX_PRICE_AED = 10_000_000_000;
export const MAX_SIZE_SQFT = 10_000_000;
/** The dearest land sells for a few thousand AED per sqft; a hundred thousand is beyond any listing, rent or sale. */
export const MAX_PRICE_PER_SQFT = 100_000;
export { MAX_ROOMS };

/** True when a number is beyond what any listing can have: not finite, or above `most`. */
export const beyond = (value: number, most: number): boolean => !Number.isFinite(value) || value > most;

/** What was typed, as a refusal quotes it: a number of hundreds of digits is cut short. */
export const quoteTyped = (said: string): string => `"${said.length > 40 ? `${said.slice(0, 30)}…` : said}"`;

/** The refusal of a price or a size beyond any listing's, quoting what was typed. */
export function tooLargeText(measure: 'price' | 'size', said: string): string {
  return measure === 'price'
    ? `${quoteTyped(said)} is more than any property costs, so I didn't search. I search prices up to AED 10 billion; try "under 1.2m".`
    : `${quoteTyped(said)} is bigger than any property, so I didn't search. I search sizes up to 10 million sqft; try "over 1000 sqft".`;
}

/** The refusal of a price per sqft beyond any listing's, quoting what was typed. */
export const tooDearPerSqftText = (said: string): string =>
  `${quoteTyped(said)} is more per sqft than any property costs, so I didn't search. I filter prices per sqft up to AED 100,000; try "under 1,500 per sqft".`;

/** The refusal of a count of rooms beyond any home's, quoting what was typed. */
export const tooManyRoomsText = (unit: 'bedrooms' | 'bathrooms', said: string): string =>
  `${quoteTyped(said)} is more ${unit} than I can search for; the most is ${MAX_ROOMS}. Try "${unit === 'bedrooms' ? '3+ br' : '2+ baths'}".`;

const impossibleItem = (item: string, most: number): boolean => item.trim() === '' || beyond(Number(item), most);

const CHECKS: readonly (readonly [param: string, most: number, what: string])[] = [
  ['price_min', MAX_PRICE_AED, 'a price above AED 10 billion'],
  ['price_max', MAX_PRICE_AED, 'a price above AED 10 billion'],
  ['area_min', MAX_SIZE_SQFT, 'a size above 10 million sqft'],
  ['area_max', MAX_SIZE_SQFT, 'a size above 10 million sqft'],
  ['bedrooms', MAX_ROOMS, `more than ${MAX_ROOMS} bedrooms`],
  ['bathrooms', MAX_ROOMS, `more than ${MAX_ROOMS} bathrooms`],
];

/**
 * What in a query no listing can be, in words ("a price above AED 10 billion"), or undefined when every number in it
 * can match. Read from the parameters as sent, so it judges queries saved by any version of Manzil.
 */
export function impossibleValue(query: Pick<Query, 'params' | 'perSqft'>): string | undefined {
  for (const [param, most, what] of CHECKS) {
    const text = query.params[param];
    if (text === undefined) continue;
    // A count list ("1,2,3") is judged by each of its numbers; an empty item or a word is no number either.
    // One number, the usual case, without splitting; a list item by item.
    if (!text.includes(',') ? impossibleItem(text, most) : text.split(',').some((item) => impossibleItem(item, most)))
      return what;
  }
  for (const side of ['min', 'max'] as const) {
    const value = query.perSqft?.[side];
    if (value !== undefined && beyond(value, MAX_PRICE_PER_SQFT)) return 'a price above AED 100,000 per sqft';
  }
  return undefined;
}
