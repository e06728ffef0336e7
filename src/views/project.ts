// The new-project (off-plan) card.
import type { NewProject } from '../api/records.js';
import { formatAed, formatBeds, formatMonth, humanize, shorten } from './format.js';
import type { Card } from './model.js';
import { LINK_FIELD, LINK_TEXT_MAX, defined, fields, firstImage, listingLink, textOf } from './parts.js';

/** `Studio–3 beds`, `1–4 beds`, `2 beds`; undefined when no counts are given. */
export function bedroomRange(counts: readonly number[] | null | undefined): string | undefined {
  const valid = (counts ?? []).filter((n) => Number.isInteger(n) && n >= 0);
  if (!valid.length) return undefined;
  const min = Math.min(...valid);
  const max = Math.max(...valid);
  if (min === max) return formatBeds(min);
  return `${min === 0 ? 'Studio' : min}–${formatBeds(max)}`;
}

function priceFrom(r: NewProject): string {
  const value = [r.price_from, r.effective_price].find(
    (n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0,
  );
  return value === undefined ? 'Price on request' : `From ${formatAed(value)}`;
}

export function projectCard(record: NewProject): Card {
  const phase = textOf(record.construction_phase);
  const type = textOf(record.property_type);
  const developer = textOf(record.developer_name);
  // The contract has no URL for projects; use one if the service sends it anyway.
  const link = listingLink(record['share_url'], record['project_url'], record['url']);
  return defined({
    title: textOf(record.name) ?? 'New project',
    url: link?.linked ? link.url : undefined,
    fields: fields(
      ['Price', priceFrom(record)],
      ['Handover', formatMonth(record.delivery_date)],
      ['Developer', developer],
      ['Bedrooms', bedroomRange(record.bedrooms)],
      ['Phase', phase && humanize(phase)],
      ['Type', type && humanize(type)],
      ['Location', textOf(record.location?.full_name)],
      ['Sales start', formatMonth(record.sales_start_date)],
      [LINK_FIELD, link && !link.linked ? shorten(link.url, LINK_TEXT_MAX) : undefined, 'inert'],
    ),
    imageUrl: firstImage(record.images),
  });
}
