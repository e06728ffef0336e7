// What a search that found nothing says: the plain reason when there is one (ADREC covers Abu Dhabi only), else
// advice that names only the filters the search has (no "wider price range" for a search without a price).
import type { Query } from '../query/index.js';
import { KNOWN_AREAS, type KnownEmirate } from '../query/known-areas.js';

const EMIRATE_NAMES: Record<KnownEmirate, string> = {
  dubai: 'Dubai',
  'abu-dhabi': 'Abu Dhabi',
  sharjah: 'Sharjah',
  ajman: 'Ajman',
  'ras-al-khaimah': 'Ras Al Khaimah',
  fujairah: 'Fujairah',
  'umm-al-quwain': 'Umm Al Quwain',
};

/** The known area a district's words name, by its name or a spelling people type. */
function knownArea(words: string) {
  const w = words.trim().toLowerCase();
  return KNOWN_AREAS.find((a) => a.name.toLowerCase() === w || a.spellings.includes(w));
}

/** The filters a search has, in words, in the order people drop them. */
function filtersOf(query: Query): string[] {
  const p = query.params;
  const has = (...names: string[]) => names.some((n) => p[n] !== undefined);
  return [
    ...(has('price_min', 'price_max') ? ['the price range'] : []),
    ...(query.perSqft ? ['the price per sqft'] : []),
    ...(has('area_min', 'area_max') ? ['the size'] : []),
    ...(has('bedrooms') ? ['the bedrooms'] : []),
    ...(has('bathrooms') ? ['the bathrooms'] : []),
    ...(has('furnishing') ? ['the furnishing'] : []),
    ...(has('amenities') ? ['the amenities'] : []),
    ...(has('completion_status') ? ['ready or off-plan'] : []),
    ...(has('property_type', 'propertyType') ? ['the property type'] : []),
    ...(has('fromDate', 'toDate') ? ['the dates'] : []),
  ];
}

const listOf = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** ADREC asked about places outside Abu Dhabi: why it found nothing, and where their transactions are. */
function adrecOutside(query: Query): string | undefined {
  if (query.operation !== 'get-adrec-transactions') return undefined;
  const districts = (query.params.district ?? '').split(',').filter((d) => d.trim() !== '');
  const outside = districts.flatMap((d) => {
    const area = knownArea(d);
    return area && area.emirate !== 'abu-dhabi' ? [area] : [];
  });
  if (outside.length === 0) return undefined;
  const first = outside[0]!;
  const where = outside.map((a) => `${a.name} is in ${EMIRATE_NAMES[a.emirate]}`).join('; ');
  return `ADREC's records cover Abu Dhabi only: ${where}. For its sales and rentals, try \`/transactions sold ${first.name.toLowerCase()}\`.`;
}

/** The text of a reply that found nothing (not the "Save as alert" one: the caller says that). */
export function noResultsText(query: Query): string {
  const reason = adrecOutside(query);
  if (reason) return reason;
  const filters = filtersOf(query);
  const where = query.operation === 'get-adrec-transactions' ? 'another district' : 'a nearby area';
  return filters.length > 0 ? `No results. Try without ${listOf(filters)}, or ${where}.` : `No results. Try ${where}.`;
}
