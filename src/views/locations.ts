// The answer to a location lookup: the matching names, best first, with the id a search needs.
import type { Location } from '../api/records.js';
import type { Block } from './model.js';
import { textOf } from './parts.js';

function coordinates(l: Location): string {
  const { lat, lon } = l.coordinates ?? {};
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon)
    ? `${lat.toFixed(4)}, ${lon.toFixed(4)}`
    : '–';
}

export function locationList(locations: readonly Location[]): Block[] {
  if (!locations.length) return [{ kind: 'text', text: 'No matching locations were found.' }];
  return [
    {
      kind: 'table',
      columns: ['Location', 'ID', 'Coordinates'],
      rows: locations.map((l) => [textOf(l.name) ?? `Location ${l.id}`, String(l.id), coordinates(l)]),
    },
  ];
}
