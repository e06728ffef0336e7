// The listing card, from a search result, an agent's or a brokerage's listing, or a property's details.
import type { AgentListing, BrokerListing, ListingSummary } from '../api/records.js';
import { formatArea, formatBaths, formatBeds, formatNumber, formatPrice, shorten, toCount } from './format.js';
import type { Button, Card } from './model.js';
import { LINK_FIELD, LINK_TEXT_MAX, defined, fields, firstImage, listingLink, textOf } from './parts.js';

export type AnyListing = ListingSummary | AgentListing | BrokerListing;

export interface ListingCardOptions {
  readonly buttons?: readonly Button[];
}

/** One view over the three record shapes: search results carry `address` and `property_url`, the others `location` and `share_url`. */
type ListingView = Partial<ListingSummary> & Partial<BrokerListing>;

/** `2-bed apartment in Dubai Marina`, used when a listing has no title. */
function describedTitle(r: ListingView): string {
  const beds = toCount(r.bedrooms);
  const type = textOf(r.property_type)?.toLowerCase();
  const where = locationName(r);
  const what = [beds === 0 ? 'studio' : beds !== undefined ? `${formatNumber(beds, 2)}-bed` : undefined, type]
    .filter(Boolean)
    .join(' ');
  const sentence = [what || 'property', where && `in ${where}`].filter(Boolean).join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function locationName(r: ListingView): string | undefined {
  return textOf(r.address?.full_name) ?? textOf(r.location?.full_name);
}

function size(r: ListingView): string | undefined {
  const value = r.size?.value;
  const unit = textOf(r.size?.unit)?.toLowerCase();
  if (typeof value === 'number' && value > 0 && unit && unit !== 'sqft') return `${formatNumber(value, 2)} ${unit}`;
  return formatArea(value) ?? formatArea(r.floor_plan_area);
}

export function listingCard(record: AnyListing, options: ListingCardOptions = {}): Card {
  const r = record as ListingView;
  const link = listingLink(r.property_url, r.share_url);
  const url = link?.linked ? link.url : undefined;
  const title = textOf(r.title);
  const badges = [
    ...(r.agent_details?.is_super_agent === true ? ['Super agent'] : []),
    ...(r.is_verified === true ? ['Verified'] : []),
  ];
  return defined({
    title: title ?? describedTitle(r),
    url,
    subtitle: title ? textOf(r.property_type) : undefined,
    fields: fields(
      ['Price', formatPrice(r.price)],
      ['Beds', formatBeds(r.bedrooms)],
      ['Baths', formatBaths(r.bathrooms)],
      ['Size', size(r)],
      ['Location', locationName(r)],
      ['Agent', textOf(r.agent_details?.name) ?? textOf(r.agent_name)],
      [LINK_FIELD, link && !link.linked ? shorten(link.url, LINK_TEXT_MAX) : undefined, 'inert'],
    ),
    imageUrl: firstImage(r.images),
    badges: badges.length ? badges : undefined,
    buttons: options.buttons?.length ? options.buttons : undefined,
    links: url ? [{ label: 'View listing', url }] : undefined,
  });
}
