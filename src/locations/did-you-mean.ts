// "I couldn't find 'marnia'. Did you mean Dubai Marina?": the area names Manzil knows (the autocomplete answers it
// has seen, the shorter probe's answer, and the well-known communities shipped with it) ranked by string distance.
import { distance } from 'fastest-levenshtein';
import type { Location } from '../api/records.js';
import { areaKey, arabicSpellingsOf, hasArabic } from '../query/arabic.js';
import { withoutChatWords } from '../query/chat-words.js';
import { KNOWN_AREAS } from './known-areas.js';
import { kindOf } from './kinds.js';

/** How many areas are offered. */
export const SUGGESTION_COUNT = 3;

/** Words that only say which emirate or city an area is in: "Dubai Marina" is also "marina". */
export const QUALIFIERS = new Set([
  'dubai',
  'abu',
  'dhabi',
  'sharjah',
  'ajman',
  'umm',
  'al',
  'quwain',
  'ras',
  'khaimah',
  'fujairah',
  'ain',
  'uae',
  'the',
]);

const fold = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
const unqualified = (name: string) =>
  fold(name)
    .filter((w) => !QUALIFIERS.has(w))
    .join(' ');

/** The most edits that still look like the same name: one for short text, two for a word, three for longer text. */
const tolerance = (text: string) => (text.length <= 4 ? 1 : text.length <= 9 ? 2 : 3);

/** A name that might be meant: where it came from, how far it is from what was typed. */
export interface Candidate {
  name: string;
  /** Known with its id (from an autocomplete answer); a shipped name must still be looked up. */
  location?: Location;
  /** Edits between what was typed and the closest spelling of the whole name. */
  nameDistance: number;
  /** Edits between a typed word and the closest word of the name (for "marinaa view"). */
  wordDistance: number;
}

function nameDistance(typed: string, forms: readonly string[]): number {
  let best = Infinity;
  for (const form of forms) if (form !== '') best = Math.min(best, distance(typed, form));
  return best;
}

function wordDistance(typed: readonly string[], name: string): number {
  let best = Infinity;
  for (const t of typed) {
    if (t.length < 3) continue;
    for (const w of fold(name))
      if (!QUALIFIERS.has(w)) best = Math.min(best, distance(t, w) + (tolerance(t) < distance(t, w) ? 100 : 0));
  }
  return best;
}

/**
 * The areas most likely meant, best first, at most SUGGESTION_COUNT: names close to the whole text (any source), then
 * the probe's answers that share a close word; of the kind typed only (see kinds.ts). `typed` is normalised (lower
 * case, single spaces).
 */
export function rankAreas(text: string, probed: readonly Location[], seen: Iterable<Location>): Candidate[] {
  // "marina thanks" is ranked as "marina": Dubai Marina first, then what else starts alike. Arabic is compared folded
  // with the Arabic names of the known areas ("دبي مرينا" is one letter from "دبي مارينا").
  const arabic = hasArabic(text);
  const typed = arabic ? areaKey(text) : withoutChatWords(text);
  const words = typed.split(' ').filter(Boolean);
  const byName = new Map<string, Candidate>();
  const consider = (name: string, forms: readonly string[], location: Location | undefined, fromProbe: boolean) => {
    const key = fold(name).join(' ');
    const whole = nameDistance(typed, [key, unqualified(name), ...forms]);
    const word = fromProbe ? wordDistance(words, name) : Infinity;
    const before = byName.get(key);
    if (!before) {
      byName.set(key, { name, ...(location ? { location } : {}), nameDistance: whole, wordDistance: word });
      return;
    }
    before.nameDistance = Math.min(before.nameDistance, whole);
    before.wordDistance = Math.min(before.wordDistance, word);
    if (!before.location && location) {
      before.location = location;
      before.name = location.name;
    }
  };
  for (const l of probed) consider(l.name, [], l, true);
  for (const l of seen) consider(l.name, [], l, false);
  for (const known of KNOWN_AREAS)
    consider(known.name, arabic ? arabicSpellingsOf(known.name) : known.spellings, undefined, false);

  // Only areas of the kind typed: a community for a community ("damac hills 2" is never offered a tower), a building
  // for a building. Text close to a shipped community is one; otherwise its words tell, or nothing does.
  const nearCommunity = [...byName.values()].some(
    (c) => c.nameDistance <= tolerance(typed) && kindOf(c.name) === 'community',
  );
  const kind = nearCommunity ? 'community' : kindOf(typed);
  const all = [...byName.values()].filter((c) => kind === undefined || kindOf(c.name) === kind);
  const close = all.filter((c) => c.nameDistance <= tolerance(typed)).sort((a, b) => a.nameDistance - b.nameDistance);
  const related = all
    .filter((c) => !close.includes(c) && c.wordDistance < 100)
    .sort((a, b) => a.wordDistance - b.wordDistance);
  return [...close, ...related].slice(0, SUGGESTION_COUNT);
}
