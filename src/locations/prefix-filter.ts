// Autocomplete answers narrow as the person types: the names that match "business bay" are among those that
// matched "busi", as long as the answer for "busi" was not cut at the service's cap. So a longer query can be
// answered from a shorter one's cached answer, without a call.
import type { Location } from '../api/records.js';

/** The service answers at most this many locations (10 observed); an answer this long may have been cut. */
export const AUTOCOMPLETE_CAP = 10;

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);

/**
 * Whether a location's name answers what was typed, as autocomplete matches: the name starts with the text,
 * or every typed word starts a word of the name ("bus bay" matches "Business Bay").
 */
export function nameMatches(name: string, typed: string): boolean {
  const n = name.toLowerCase();
  const t = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === '') return false;
  if (n.startsWith(t)) return true;
  const typedWords = words(t);
  const nameWords = words(n);
  return typedWords.length > 0 && typedWords.every((w) => nameWords.some((nw) => nw.startsWith(w)));
}

/** True when a prefix's answer surely holds every answer to the longer text: it was not cut at the cap. */
export const complete = (results: readonly unknown[]) => results.length < AUTOCOMPLETE_CAP;

/** The locations of a shorter prefix's answer that still match, an exact name first, else in the service's order. */
export function narrow(results: readonly Location[], typed: string): Location[] {
  const kept = results.filter((l) => nameMatches(l.name, typed));
  const exact = kept.filter((l) => l.name.toLowerCase() === typed.trim().toLowerCase());
  return [...exact, ...kept.filter((l) => !exact.includes(l))];
}
