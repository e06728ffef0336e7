// One property in full: the listing card plus what the details record adds (coordinates, listed date, extras).
import type { PropertyDetails } from '../api/records.js';
import { formatDate, humanize, shorten, stripHtml } from './format.js';
import { listingCard, type ListingCardOptions } from './listing.js';
import type { Card, Field, LinkButton } from './model.js';
import { defined, fields, textOf } from './parts.js';
import { buttonsFor, listingBroker, withCommand } from './people.js';

/** Fields the real service has been seen to send beyond the contract, shown when present. */
const EXTRAS = ['reference_number', 'furnishing', 'completion_status', 'permit_number', 'amenities'] as const;

function coordinates(r: PropertyDetails): { lat: number; lon: number } | undefined {
  const lat = r.address?.coordinates?.lat;
  const lon = r.address?.coordinates?.lon;
  const valid = (n: unknown, limit: number): n is number =>
    typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit;
  // 0,0 is the Gulf of Guinea: a placeholder, not a UAE address.
  return valid(lat, 90) && valid(lon, 180) && !(lat === 0 && lon === 0) ? { lat, lon } : undefined;
}

function extraValue(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return textOf(value) && humanizeValue(value.trim());
  if (Array.isArray(value)) {
    const items = value
      .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      .map((v) => humanizeValue(v.trim()));
    return items.length ? shorten(items.join(', '), 200) : undefined;
  }
  return undefined;
}

/** `partly_furnished` -> `Partly furnished`; leaves text with spaces or digits (a reference) alone. */
function humanizeValue(value: string): string {
  return /^[a-z]+([_-][a-z]+)*$/.test(value) ? humanize(value) : value;
}

export function propertyDetailsCard(record: PropertyDetails, options: ListingCardOptions = {}): Card {
  const base = listingCard(record, options);
  const point = coordinates(record);
  // The service names a listing's brokerage by id alone: the id, and the command that lists its listings.
  const broker = listingBroker(record);
  const extras: Field[] = fields(
    ['Brokerage', withCommand(undefined, broker)],
    ['Property ID', textOf(record.property_id)],
    ['Listed', formatDate(record.listed_date)],
    ['Coordinates', point && `${point.lat.toFixed(5)}, ${point.lon.toFixed(5)}`],
    ...EXTRAS.map((key) => [humanize(key), extraValue(record[key])] as const),
  );
  const map: LinkButton[] = point
    ? [{ label: 'Map', url: `https://www.google.com/maps?q=${point.lat},${point.lon}` }]
    : [];
  const links = [...(base.links ?? []), ...map];
  const description = textOf(stripHtml(textOf(record['description'])));
  const buttons = [...(base.buttons ?? []), ...buttonsFor([broker], options.personButtons)];
  return defined({
    ...base,
    buttons: buttons.length ? buttons : undefined,
    body: description && shorten(description, 500),
    fields: [...base.fields, ...extras],
    links: links.length ? links : undefined,
  });
}
