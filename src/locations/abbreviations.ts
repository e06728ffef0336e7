// "difc", "jlt", "J.B.R": a short form the language knows is searched as its place, however the service names that
// area: by the short form ("DIFC"), in full ("Jumeirah Lake Towers"), or both ("Jumeirah Beach Residence (JBR)").
// The area is only taken when the service confirms it by such a name; otherwise the lookup goes on as for any words.
import type { Location } from '../api/records.js';
import type { AreaAbbreviation } from '../query/abbreviations.js';
import { foldAreaName } from '../query/abbreviations.js';
import { QUALIFIERS } from './did-you-mean.js';

export type { AreaAbbreviation } from '../query/abbreviations.js';
export { abbreviationOf, foldAreaName } from '../query/abbreviations.js';

/** Words that carry the name: qualifiers ("Dubai", "Al") and the short form's own initials left out. */
const core = (name: string, initials: ReadonlySet<string>) =>
  foldAreaName(name)
    .split(' ')
    .filter((w) => w !== '' && !QUALIFIERS.has(w) && !initials.has(w))
    .join(' ');

/** The initials of a spelling ("international media production zone" -> "impz"). */
const initialsOf = (text: string) =>
  foldAreaName(text)
    .split(' ')
    .map((w) => (/^\d+$/.test(w) ? w : w[0]))
    .join('');

/**
 * True when the service's name is the short form's place: the short form alone ("DIFC", "J.B.R"), the name or a
 * spelling in full ("Dubai International Financial Centre"), or both ("Jumeirah Beach Residence (JBR)").
 */
export function namesArea(name: string, abbreviation: AreaAbbreviation): boolean {
  // "Palm Jumeirah (The Palm)": each side names the area.
  const bracketed = /^(.+?)\s*\((.+)\)\s*$/.exec(name);
  if (bracketed && namesArea(bracketed[1]!, abbreviation) && namesArea(bracketed[2]!, abbreviation)) return true;
  const initials = new Set(abbreviation.initials);
  const words = foldAreaName(name).split(' ');
  const left = core(name, initials);
  if (left === '') return words.some((w) => initials.has(w));
  return [abbreviation.area.name, ...abbreviation.area.spellings, abbreviation.form].some(
    (form) => core(form, initials) === left,
  );
}

/** What to ask the service, in order: the area's name, the short form, then its spelled-out forms. At most three. */
export function lookupsFor(abbreviation: AreaAbbreviation): string[] {
  const spelledOut = abbreviation.area.spellings.filter((s) => abbreviation.initials.some((i) => initialsOf(s) === i));
  return [...new Set([abbreviation.area.name, abbreviation.form, ...spelledOut].map(foldAreaName))].slice(0, 3);
}

/**
 * The short form's place, from the first answer that names it (the others of that answer kept as alternatives);
 * undefined when none does. `lookup` answers words with locations (from the service or the cache only).
 */
export async function findAbbreviated(
  abbreviation: AreaAbbreviation,
  lookup: (words: string) => Promise<readonly Location[]>,
): Promise<{ kind: 'found'; location: Location; alternatives: Location[] } | undefined> {
  for (const words of lookupsFor(abbreviation)) {
    const records = await lookup(words);
    const location = records.find((r) => namesArea(r.name, abbreviation));
    if (location) return { kind: 'found', location, alternatives: records.filter((r) => r !== location) };
  }
  return undefined;
}
