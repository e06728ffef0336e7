// A request without a verb, "cheapest 3 bedroom villa in dubai hills", "a 2 bed flat in jlt for less than 100 grand a
// year": is it a search at all, and to rent or to buy? The price says it when it can; otherwise the person is asked.
import type { Draft } from './scan.js';

/**
 * Without a rent period, the amount says rent or sale. A year's rent in the UAE is rarely above AED 300,000 (a large
 * villa's), and a home rarely sells below AED 1,000,000 outside studios and the outer communities; people type the one
 * in thousands ("120k") and the other in millions ("1.2m"). Between the two, both are common (a villa's yearly rent,
 * a studio's price): the person is asked rather than guessed for.
 */
export const RENT_BELOW_AED = 300_000;
export const SALE_FROM_AED = 1_000_000;

/** What a request without a verb is: a rent, a sale, a search to ask about, or no search at all. */
export type VerblessIntent = 'rent' | 'buy' | 'ask' | 'none';

/** A bare number ("12345") is no sign of a search on its own: it may be an id, or a stray button number. */
const bare = (text: string | undefined) => text !== undefined && /^[\d.,]+$/.test(text);

/** True when the words asked for something a listing has: rooms, a type, a price written as one, a size, a sort… */
function searchLike(d: Draft): boolean {
  const priced = [d.price.min, d.price.max].some((b) => b !== undefined && !bare(b.text));
  return (
    priced ||
    Object.keys(d.rooms).length > 0 ||
    d.types.length > 0 ||
    d.commercial !== undefined ||
    d.size.min !== undefined ||
    d.size.max !== undefined ||
    d.perSqft.min !== undefined ||
    d.perSqft.max !== undefined ||
    d.frequency !== undefined ||
    d.furnishing !== undefined ||
    d.completion !== undefined ||
    d.amenities.size > 0 ||
    d.extras.length > 0 ||
    d.sort !== undefined ||
    d.period !== undefined
  );
}

export function verblessIntent(draft: Draft): VerblessIntent {
  if (!searchLike(draft)) return 'none';
  if (draft.deal) return draft.deal.value === 'rent' ? 'rent' : 'buy';
  // "a year", "monthly", "/mo": only rents have a period.
  if (draft.frequency) return 'rent';
  const amount = (draft.price.max ?? draft.price.min)?.value;
  if (amount === undefined) return 'ask';
  if (amount < RENT_BELOW_AED) return 'rent';
  return amount >= SALE_FROM_AED ? 'buy' : 'ask';
}
