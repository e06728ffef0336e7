// Agents and brokerages named on a card lead to their listings: always by the command to type, shown with the id (a
// platform may have no room for one more button: Discord shows two per card), and by a button where there is room.
import { checkParams } from '../api/operations.js';
import type { Button } from './model.js';

export type PersonKind = 'agent' | 'broker';

/** An agent or a brokerage, by the id its listings are asked for with. */
export interface PersonRef {
  readonly kind: PersonKind;
  readonly id: string;
}

/** The buttons a card shows for a person it names (the bot makes them: they carry state). */
export type PersonButtons = (ref: PersonRef) => readonly Button[];

/** The operation that lists a person's listings, and its parameter. */
export const PERSON_LISTINGS = {
  agent: { operation: 'agent-properties', param: 'agent_id' },
  broker: { operation: 'broker-properties', param: 'broker_id' },
} as const;

export const PERSON_BUTTON_LABEL: Readonly<Record<PersonKind, string>> = {
  agent: "Agent's listings",
  broker: "Brokerage's listings",
};

/**
 * A person to lead to, or undefined when the id is one their listings cannot be asked for with: checked by the rule the
 * client checks parameters by before sending, so nothing is offered that would be refused.
 */
export function personRef(kind: PersonKind, id: unknown): PersonRef | undefined {
  const text =
    typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : typeof id === 'string' ? id.trim() : '';
  if (text === '' || text.length > 32) return undefined;
  const { operation, param } = PERSON_LISTINGS[kind];
  return checkParams(operation, { [param]: text }).length === 0 ? { kind, id: text } : undefined;
}

/** What to type for a person's listings, in every chat (the terminal takes it with or without the slash). */
export const personCommand = (ref: PersonRef): string => `/manzil ${ref.kind} ${ref.id}`;

export const sameRef = (a: PersonRef, b: PersonRef): boolean => a.kind === b.kind && a.id === b.id;

/**
 * A field's value with the command that leads on: "Sara Cruz · /manzil agent 1204"; the command alone when nothing else
 * is known.
 */
export function withCommand(text: string | undefined, ref: PersonRef | undefined): string | undefined {
  if (!ref) return text;
  return text ? `${text} · ${personCommand(ref)}` : personCommand(ref);
}

/** The card's buttons for the people it names, in order. */
export const buttonsFor = (refs: readonly (PersonRef | undefined)[], make: PersonButtons | undefined): Button[] =>
  make ? refs.flatMap((r) => (r ? [...make(r)] : [])) : [];

interface Named {
  agent_details?: { id?: string | null } | null;
  agent_id?: string | null;
  broker_id?: string | null;
  id?: string | number | null;
  broker?: { id?: string | null } | null;
}

/**
 * The agent of a listing (a search's, a property's details, a brokerage's listing); an agent's own listing names none.
 */
export const listingAgent = (r: unknown): PersonRef | undefined =>
  personRef('agent', (r as Named).agent_details?.id ?? (r as Named).agent_id);

/** The brokerage of a listing, by its id alone (the service sends no name with it). */
export const listingBroker = (r: unknown): PersonRef | undefined => personRef('broker', (r as Named).broker_id);

/** An agent record's own ref and its brokerage's (the detailed search names it). */
export const agentRefs = (r: unknown): { agent?: PersonRef; broker?: PersonRef } => {
  const agent = personRef('agent', (r as Named).id);
  const broker = personRef('broker', (r as Named).broker?.id);
  return { ...(agent ? { agent } : {}), ...(broker ? { broker } : {}) };
};

export const brokerRef = (r: unknown): PersonRef | undefined => personRef('broker', (r as Named).id);
