// The listing card, from a search result, an agent's or a brokerage's listing, or a property's details.
import type { AgentListing, BrokerListing, ListingSummary } from '../api/records.js';
import { formatSize, formatBaths, formatBeds, formatNumber, formatPrice, shorten, toCount } from './format.js';
import type { Button, Card } from './model.js';
import { formatPerSqft, isCommercialType } from './per-sqft.js';
import { LINK_FIELD, LINK_TEXT_MAX, defined, fields, firstImage, listingLink, textOf } from './parts.js';
import { buttonsFor, listingAgent, personCommand, withCommand, type PersonButtons } from './people.js';

export type AnyListing = ListingSummary | AgentListing | BrokerListing;

export interface ListingCardOptions {
  readonly buttons?: readonly Button[];
  /**
   * From a commercial search (search-commercial-*): shown by size and price per sqft, never by bedrooms. A listing of a
   * commercial-only type (an office, a shop) is shown so wherever it comes from (an agent's listings, an alert).
   */
  readonly commercial?: boolean;
  /** Buttons to the listings of the agent it names (views/people.ts). */
  readonly personButtons?: PersonButtons;
  /** With its tile (a search's page, shown as a carousel where the platform has one); alerts and details go whole. */
  readonly tile?: boolean;
}

/**
 * One view over the three record shapes: search results carry `address` and `property_url`, the others `location` and
 * `share_url`.
 */
type ListingView = Partial<ListingSummary> & Partial<BrokerListing>;

/** `2-bed apartment in Dubai Marina`, used when a listing has no title. */
function describedTitle(r: ListingView, commercial: boolean): string {
  // Commercial space has no bedrooms: a "0" the service sends for an office is not a studio.
  const beds = commercial ? undefined : toCount(r.bedrooms);
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
  return formatSize(value) ?? formatSize(r.floor_plan_area);
}

export function listingCard(record: AnyListing, options: ListingCardOptions = {}): Card {
  const r = record as ListingView;
  const link = listingLink(r.property_url, r.share_url);
  const url = link?.linked ? link.url : undefined;
  const title = textOf(r.title);
  const commercial = options.commercial === true || isCommercialType(r);
  const badges = [
    ...(r.agent_details?.is_super_agent === true ? ['Super agent'] : []),
    ...(r.is_verified === true ? ['Verified'] : []),
  ];
  const agent = listingAgent(r);
  const buttons = [...(options.buttons ?? []), ...buttonsFor([agent], options.personButtons)];
  const price = formatPrice(r.price);
  const beds = commercial ? undefined : formatBeds(r.bedrooms);
  const where = locationName(r);
  const area = size(r);
  return defined({
    title: title ?? describedTitle(r, commercial),
    url,
    subtitle: title ? textOf(r.property_type) : undefined,
    fields: fields(
      ['Price', price],
      ['Beds', beds],
      ['Baths', commercial ? undefined : formatBaths(r.bathrooms)],
      ['Size', area],
      ['Per sqft', commercial ? formatPerSqft(r) : undefined],
      ['Location', where],
      ['Agent', withCommand(agentOf(r), agent)],
      [LINK_FIELD, link && !link.linked ? shorten(link.url, LINK_TEXT_MAX) : undefined, 'inert'],
    ),
    imageUrl: firstImage(r.images),
    badges: badges.length ? badges : undefined,
    buttons: buttons.length ? buttons : undefined,
    links: url ? [{ label: 'View listing', url }] : undefined,
    tile:
      options.tile !== true
        ? undefined
        : {
            // Commercial space by its price per sqft, never by bedrooms.
            title:
              [price, commercial ? formatPerSqft(r) : beds].filter(Boolean).join(' · ') ||
              (title ?? describedTitle(r, commercial)),
            ...defined({ subtitle: [where, area].filter(Boolean).join(' · ') || undefined }),
            // Who lists it, with the command to their listings; the listing's own title where no agent is named.
            ...defined({ body: withCommand(agentOf(r), agent) ?? title }),
          },
  });
}

export interface ListingGroupOptions {
  /** Buttons of the listing shown (Details). */
  readonly buttons?: readonly Button[];
  /** From a commercial search: see ListingCardOptions. */
  readonly commercial?: boolean;
  /** See ListingCardOptions. */
  readonly personButtons?: PersonButtons;
  /** See ListingCardOptions. */
  readonly tile?: boolean;
  /** Buttons of each copy (its Details), labelled with its agent on the card: for a copy with no link to follow. */
  readonly copyButtons?: (copy: AnyListing) => readonly Button[];
}

const agentOf = (r: ListingView): string | undefined => textOf(r.agent_details?.name) ?? textOf(r.agent_name);

/**
 * One card for the same flat listed by several agents (views/same-flat.ts): the first listing, "also listed by N other
 * agents", and each copy's link, or its Details button when it has no link to follow.
 */
export function listingGroupCard(
  record: AnyListing,
  copies: readonly AnyListing[],
  options: ListingGroupOptions = {},
): Card {
  const { copyButtons: _copies, ...own } = options;
  const card = listingCard(record, own);
  if (copies.length === 0) return card;
  // A copy whose agent_details is null names no one: it is counted as another listing, never given a made-up name.
  const agents = copies.map((c) => agentOf(c as ListingView));
  const label = (k: number) => agents[k] ?? 'another listing';
  const named = copies.flatMap((c, k) => {
    const name = agents[k];
    if (name === undefined) return [];
    // Each other agent leads to their listings too, by the command (the card has no room for a button each).
    const ref = listingAgent(c);
    return [ref ? `${name} (${personCommand(ref)})` : name];
  });
  const unnamed = copies.length - named.length;
  const more = `${unnamed} more listing${unnamed === 1 ? '' : 's'} naming no agent`;
  const also =
    named.length === 0
      ? { label: 'Also listed', value: more }
      : {
          label: 'Also listed by',
          value: `${named.length} other agent${named.length === 1 ? '' : 's'}: ${named.join(', ')}${unnamed > 0 ? `; ${more}` : ''}`,
        };
  const links: { label: string; url: string }[] = [];
  const buttons: Button[] = [];
  copies.forEach((c, k) => {
    const r = c as ListingView;
    const link = listingLink(r.property_url, r.share_url);
    if (link?.linked) links.push({ label: agents[k] ? `Listing by ${agents[k]}` : 'Another listing', url: link.url });
    else buttons.push(...(options.copyButtons?.(c) ?? []).map((b) => ({ ...b, label: `${b.label} (${label(k)})` })));
  });
  const allLinks = [...(card.links ?? []), ...links];
  const allButtons = [...(card.buttons ?? []), ...buttons];
  return defined({
    ...card,
    fields: [...card.fields, also],
    links: allLinks.length ? allLinks : undefined,
    buttons: allButtons.length ? allButtons : undefined,
  });
}
