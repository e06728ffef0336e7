// Location lookup: case-insensitive prefix of the name or of any word in it; exact name first,
// then cities, communities and buildings in that order (the first market's busier communities before the areas
// added later, as the service ranks the areas most asked for first), at most 10.
import type { Geography, Area } from './geography.js';

const LEVEL_RANK = { city: 0, community: 1, building: 2 } as const;
const MAX_RESULTS = 10;

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9']+/)
    .filter(Boolean);

/** 0 exact, 1 the name starts with the query, 2 every query word starts a word of the name; undefined: no match. */
function matchRank(area: Area, query: string): number | undefined {
  const name = area.name.toLowerCase();
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  const qWords = words(query);
  const nWords = words(area.name);
  if (qWords.length > 0 && qWords.every((q) => nWords.some((w) => w.startsWith(q)))) return 2;
  return undefined;
}

export function autocomplete(geo: Geography, rawQuery: string) {
  const query = rawQuery.trim().toLowerCase().replace(/\s+/g, ' ');
  if (query === '') return [];
  const hits: { area: Area; rank: number }[] = [];
  for (const area of geo.areas) {
    const rank = matchRank(area, query);
    if (rank !== undefined) hits.push({ area, rank });
  }
  hits.sort(
    (a, b) =>
      Number(b.rank === 0) - Number(a.rank === 0) ||
      LEVEL_RANK[a.area.level] - LEVEL_RANK[b.area.level] ||
      Number(a.area.added === true) - Number(b.area.added === true) ||
      a.rank - b.rank ||
      a.area.name.localeCompare(b.area.name),
  );
  return hits
    .slice(0, MAX_RESULTS)
    .map(({ area }) => ({ id: area.id, name: area.name, coordinates: { lat: area.lat, lon: area.lon } }));
}
