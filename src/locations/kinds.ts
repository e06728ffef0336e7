// Whether an area name is a community (an area: "Damac Hills 2", "Al Reem Island") or a building ("Cayan Tower"): a
// suggestion is offered only of the kind that was typed, so "damac hills 2" never gets a tower in Business Bay. The
// service's locations carry no kind (id, name, coordinates): it is read from the shipped communities and the words.
import { foldAreaName } from '../query/abbreviations.js';
import { KNOWN_AREAS } from './known-areas.js';

export type AreaKind = 'community' | 'building';

/** Every shipped community's name and spellings, folded, and the emirates' cities. */
const COMMUNITIES = new Set(
  [
    ...KNOWN_AREAS.flatMap((p) => [p.name, ...p.spellings]),
    'Dubai',
    'Abu Dhabi',
    'Sharjah',
    'Ajman',
    'Ras Al Khaimah',
    'Fujairah',
    'Umm Al Quwain',
    'Al Ain',
  ].map(foldAreaName),
);

/** Words that make a name a building's. */
const BUILDING_WORDS = new Set([
  'tower',
  'towers',
  'burj',
  'residence',
  'residences',
  'building',
  'bldg',
  'apartment',
  'apartments',
  'suites',
  'hotel',
  'maison',
  'court',
  'plaza',
  'gate',
  'point',
  'block',
  'heights',
  'lofts',
  'mansion',
]);

/** Words that make a name a community's (an area, a district, a master development). */
const COMMUNITY_WORDS = new Set([
  'hills',
  'city',
  'island',
  'islands',
  'village',
  'gardens',
  'estate',
  'estates',
  'lakes',
  'ranches',
  'oasis',
  'beach',
  'creek',
  'district',
  'springs',
  'meadows',
  'greens',
  'community',
  'area',
  'town',
  'valley',
  'downtown',
]);

/**
 * A name containing a community's plus words that are not a number: "Vida Residences Dubai Marina", "Pacific Al
 * Marjan".
 */
function insideCommunity(words: readonly string[]): boolean {
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= words.length; end++) {
      if (end - start === words.length) continue;
      if (!COMMUNITIES.has(words.slice(start, end).join(' '))) continue;
      const rest = [...words.slice(0, start), ...words.slice(end)];
      if (rest.some((w) => !/^\d+$/.test(w) && w !== 'the' && w !== 'al')) return true;
    }
  }
  return false;
}

/** The kind of an area name: a shipped community, else by its words; undefined when they do not tell. */
export function kindOf(name: string): AreaKind | undefined {
  const folded = foldAreaName(name);
  if (COMMUNITIES.has(folded)) return 'community';
  const words = folded.split(' ');
  if (words.some((w) => BUILDING_WORDS.has(w))) return 'building';
  if (words.some((w) => COMMUNITY_WORDS.has(w))) return 'community';
  return insideCommunity(words) ? 'building' : undefined;
}
