// Agent and brokerage cards. The simple search answers in snake_case, the detailed one in camelCase.
import type { AgentDetailed, AgentSimple, BrokerDetailed, BrokerSimple } from '../api/records.js';
import { formatNumber, shorten, stripHtml } from './format.js';
import type { Card } from './model.js';
import { defined, fields, httpsUrl, textOf } from './parts.js';

/** The fields of both shapes side by side; each record fills one naming. */
interface AgentView {
  name?: string | null;
  image?: string | null;
  position?: string | null;
  phone?: string | null;
  broker_name?: string | null;
  broker?: AgentDetailed['broker'];
  total_properties?: number | null;
  totalProperties?: number | null;
  nationality?: AgentSimple['nationality'] | AgentDetailed['nationality'];
  languages?: AgentDetailed['languages'];
}

function count(n: number | null | undefined): string | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? formatNumber(n) : undefined;
}

export function agentCard(record: AgentSimple | AgentDetailed): Card {
  const r: AgentView = record;
  const nationality = typeof r.nationality === 'string' ? textOf(r.nationality) : textOf(r.nationality?.name);
  const languages = (r.languages ?? []).map((l) => textOf(l.name)).filter((l): l is string => l !== undefined);
  const position = textOf(r.position);
  return defined({
    title: textOf(r.name) ?? `Agent ${record.id}`,
    subtitle: position,
    fields: fields(
      ['Brokerage', textOf(r.broker_name) ?? textOf(r.broker?.name)],
      ['Listings', count(r.total_properties ?? r.totalProperties)],
      ['Nationality', nationality],
      ['Languages', languages.length ? shorten(languages.join(', '), 200) : undefined],
      ['Phone', textOf(r.phone)],
    ),
    imageUrl: httpsUrl(r.image),
  });
}

interface BrokerView {
  name?: string | null;
  logo?: string | null;
  address?: string | null;
  location?: string | null;
  phone?: string | null;
  description?: string | null;
  total_properties?: number | null;
  totalProperties?: number | null;
}

export function brokerCard(record: BrokerSimple | BrokerDetailed): Card {
  const r: BrokerView = record;
  const description = textOf(stripHtml(r.description));
  return defined({
    title: textOf(r.name) ?? `Brokerage ${record.id}`,
    body: description && shorten(description, 300),
    fields: fields(['Listings', count(r.total_properties ?? r.totalProperties)], ['Location', textOf(r.location)], ['Address', textOf(r.address)], ['Phone', textOf(r.phone)]),
    imageUrl: httpsUrl(r.logo),
  });
}
