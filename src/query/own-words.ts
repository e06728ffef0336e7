// A command's own names said again after its verb ("sold transactions in jvc", "adrec saadiyat records"): they name
// what is asked, never a place, so they are dropped rather than read as area words (issue 38: an area text never
// carries the command's own words). Quoted words are a name as typed and stay.
import type { Token } from './text.js';
import type { Family } from './types.js';

const RECORDS = ['transactions', 'transaction', 'txn', 'txns', 'records', 'record'];
const OWN_WORDS: Partial<Record<Family, ReadonlySet<string>>> = {
  transactions: new Set(RECORDS),
  adrec: new Set([...RECORDS, 'adrec']),
};

/** The words after a verb of `family` without the family's own names. */
export function withoutOwnWords(family: Family, tokens: Token[]): Token[] {
  const own = OWN_WORDS[family];
  if (!own || !tokens.some((t) => own.has(t.word))) return tokens;
  return tokens.filter((t) => t.quoted || !own.has(t.word));
}
