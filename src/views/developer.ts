// The developer card. Its description is HTML, so it is stripped and shortened.
import type { Developer } from '../api/records.js';
import { formatNumber, parseDate, shorten, stripHtml } from './format.js';
import type { Card } from './model.js';
import { defined, fields, httpsUrl, textOf } from './parts.js';

export const DEVELOPER_BODY_MAX = 300;

function establishedYear(since: string | null | undefined): string | undefined {
  const date = parseDate(since);
  if (date) return String(date.getUTCFullYear());
  return typeof since === 'string' ? /\b(1[89]|20)\d{2}\b/.exec(since)?.[0] : undefined;
}

export function developerCard(record: Developer): Card {
  const description = textOf(stripHtml(record.description));
  const projects = record.num_projects_online;
  return defined({
    title: textOf(record.name) ?? 'Developer',
    body: description && shorten(description, DEVELOPER_BODY_MAX),
    fields: fields(
      ['Established', establishedYear(record.established_since)],
      ['Projects online', typeof projects === 'number' && projects >= 0 ? formatNumber(projects) : undefined],
    ),
    imageUrl: httpsUrl(record.logo_url),
  });
}
