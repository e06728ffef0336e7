// Agents and brokerages on cards (issue 27): the command a card shows is the search its button runs, and an id their
// listings cannot be asked for with is neither shown as a command nor offered as a button.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { personQuery } from '../../src/bot/button-payloads.js';
import { parseCommand } from '../../src/query/index.js';
import {
  agentCard,
  brokerCard,
  listingCard,
  personCommand,
  propertyDetailsCard,
  type Button,
  type PersonRef,
} from '../../src/views/index.js';
import { brokerListingRecord, detailsRecord, searchResult, simpleAgent, simpleBroker } from './fixtures.js';

const kinds = fc.constantFrom<PersonRef['kind']>('agent', 'broker');
const digits = fc.stringMatching(/^\d{1,24}$/);
const press = (): Button[] => [{ label: 'x', action: 'page', token: 't' }];

describe('the command a card shows for a person', () => {
  it('is read back as the search its button runs, for any id', () => {
    fc.assert(
      fc.property(kinds, digits, (kind, id) => {
        const ref = { kind, id };
        const typed = parseCommand(personCommand(ref));
        expect(typed.ok && { operation: typed.query.operation, params: typed.query.params }).toEqual({
          operation: personQuery(ref).operation,
          params: personQuery(ref).params,
        });
      }),
    );
  });

  it('is on every card that names a person by an id the service takes, with its button', () => {
    fc.assert(
      fc.property(digits, digits, (agent, broker) => {
        const listing = listingCard(searchResult({ agent_details: { id: agent, name: 'Noor Haddad' } }), {
          personButtons: press,
        });
        expect(listing.fields.find((f) => f.label === 'Agent')?.value).toBe(`Noor Haddad · /manzil agent ${agent}`);
        expect(listing.buttons).toHaveLength(1);
        const ofBroker = listingCard({ ...brokerListingRecord(), agent_id: agent }, { personButtons: press });
        expect(ofBroker.fields.find((f) => f.label === 'Agent')?.value).toMatch(
          new RegExp(` · /manzil agent ${agent}$`),
        );
        const card = brokerCard({ ...simpleBroker, id: broker }, { personButtons: press });
        expect(card.fields.find((f) => f.label === 'Listings')?.value).toBe(`2,310 · /manzil broker ${broker}`);
        expect(card.buttons).toHaveLength(1);
      }),
    );
  });

  it('is left out, with its button, when the id is not one the service takes (it would only be refused)', () => {
    const notAnId = fc.oneof(
      fc.string().filter((s) => !/^\s*\d+\s*$/.test(s)),
      fc.uuid(),
      fc.constant(''),
      fc.constant('12 34'),
    );
    fc.assert(
      fc.property(notAnId, (id) => {
        const listing = listingCard(searchResult({ agent_details: { id, name: 'Noor Haddad' } }), {
          personButtons: press,
        });
        expect(listing.fields.find((f) => f.label === 'Agent')?.value).toBe('Noor Haddad');
        expect(listing.buttons).toBeUndefined();
        const agent = agentCard({ ...simpleAgent, id }, { personButtons: press });
        expect(JSON.stringify(agent)).not.toContain('/manzil');
        expect(agent.buttons).toBeUndefined();
        const details = propertyDetailsCard(
          { ...detailsRecord(), agent_details: { id, name: 'Noor Haddad' }, broker_id: id },
          { personButtons: press },
        );
        expect(JSON.stringify(details)).not.toContain('/manzil');
      }),
    );
  });
});
