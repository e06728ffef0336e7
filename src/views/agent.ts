// Agent and brokerage cards. The simple search answers in snake_case, the detailed one in camelCase.
import type { AgentDetailed, AgentSimple, BrokerDetailed, BrokerSimple } from '../api/records.js';
import { formatNumber, shorten, stripHtml } from './format.js';
import type { Card } from './model.js';
import { defined, fields, httpsUrl, textOf } from './parts.js';
import { agentRefs, brokerRef, buttonsFor, withCommand, type PersonButtons } from './people.js';

export interface PersonCardOptions {
  /** Buttons to the listings of the agent or brokerage, and an agent's brokerage (views/people.ts). */
  readonly personButtons?: PersonButtons;
}

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

export function agentCard(record: AgentSimple | AgentDetailed, options: PersonCardOptions = {}): Card {
  const r: AgentView = record;
  const { agent, broker } = agentRefs(record);
  const buttons = buttonsFor([agent, broker], options.personButtons);
  const nationality = typeof r.nationality === 'string' ? textOf(r.nationality) : textOf(r.nationality?.name);
  const languages = (r.languages ?? []).map((l) => textOf(l.name)).filter((l): l is string => l !== undefined);
  const position = textOf(r.position);
  return defined({
    title: textOf(r.name) ?? `Agent ${record.id}`,
    subtitle: position,
    fields: fields(
      ['Brokerage', withCommand(textOf(r.broker_name) ?? textOf(r.broker?.name), broker)],
      ['Listings', withCommand(count(r.total_properties ?? r.totalProperties), agent)],
      ['Nationality', nationality],
      ['Languages', languages.length ? shorten(languages.join(', '), 200) : undefined],
      ['Phone', textOf(r.phone)],
    ),
    imageUrl: httpsUrl(r.image),
    buttons: buttons.length ? buttons : undefined,
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

export function brokerCard(record: BrokerSimple | BrokerDetailed, options: PersonCardOptions = {}): Card {
  const r: BrokerView = record;
  const broker = brokerRef(record);
  const buttons = buttonsFor([broker], options.personButtons);
  const description = textOf(stripHtml(r.description));
  return defined({
    title: textOf(r.name) ?? `Brokerage ${record.id}`,
    body: description && shorten(description, 300),
    fields: fields(
      ['Listings', withCommand(count(r.total_properties ?? r.totalProperties), broker)],
      ['Location', textOf(r.location)],
      ['Address', textOf(r.address)],
      ['Phone', textOf(r.phone)],
    ),
    imageUrl: httpsUrl(r.logo),
    buttons: buttons.length ? buttons : undefined,
  });
}
