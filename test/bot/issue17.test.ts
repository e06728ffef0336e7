// The bot's side of issue 17, on a real Bot, the real client, the sandbox and SQLite: "did you mean 80,000?" with a
// button that runs the corrected search; the same flat from several agents as one card in search results; commercial
// rents sent as yearly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ListingSummary } from '../../src/api/records.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Card } from '../../src/views/model.js';
import { ask, button, buttons, cards, harness, press, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});
beforeEach(() => sandbox.clearRequests());

const searches = () => sandbox.requests().filter((r) => r.path !== '/autocomplete-location');
const header = (reply: { blocks: readonly { kind: string; text?: string }[] }) =>
  reply.blocks.find((b) => b.kind === 'header')?.text;

describe('a price too small to be one', () => {
  it('is not searched: the reply asks "did you mean 80,000?" privately, and costs no call', async () => {
    const reply = await ask(h.bot, '/rent marina 2br under 80');
    expect(reply.ephemeral).toBe(true);
    expect(reply.text).toBe(
      '"under 80" reads as AED 80 a year, less than any rent, so I didn\'t search. Did you mean 80,000?',
    );
    expect(buttons(reply).map((b) => b.label)).toEqual(['Yes, 80,000']);
    // No search: only the area is looked up, so the button carries it (issue 38: a button that cannot work is not
    // offered).
    expect(searches()).toEqual([]);
    // Nothing runs before the button is pressed: an adapter asking for an immediate reply is told to run the command.
    expect(h.bot.immediateReply({ user: 'U1', channel: 'test:1', text: '/rent marina 2br under 80' })).toBeUndefined();
  });

  it('pressing the button runs the corrected search, in the area typed, and the summary says how it was read', async () => {
    const question = await ask(h.bot, '/rent marina 2br under 80');
    const results = await press(h.bot, button(question, /^Yes, 80,000$/));
    expect(results.ephemeral).toBeUndefined();
    expect(header(results)).toBe(
      '2-bedroom homes for rent in Dubai Marina, up to AED 80,000 a year (read "under 80" as AED 80,000)',
    );
    expect(searches().map((r) => r.params)).toEqual([
      { bedrooms: '2', price_max: '80000', location_id: '50', page: '1' },
    ]);
  });

  it('asks about a sale price too, by a million when a thousand is still too small', async () => {
    const question = await ask(h.bot, '/buy downtown 2 bed under 2.5');
    expect(question.text).toMatch(/Did you mean 2,500,000\?$/);
    const results = await press(h.bot, button(question, /^Yes, 2,500,000$/));
    expect(header(results)).toMatch(/^2-bedroom homes for sale in Downtown Dubai, up to AED 2,500,000/);
  });
});

describe('the same flat from several agents', () => {
  it('is one card in search results, "also listed by" the other agent, with their link', async () => {
    // The sandbox's market moves: the first new listing of an advance (in Dubai Marina) is listed again by another
    // brokerage, under its own id, within 1 % of the price.
    sandbox.advance(30);
    const raw = async (op: 'search-rent' | 'search-buy') =>
      (await h.api.call(op, { location_id: '50', sort: 'newest' })).records as ListingSummary[];
    const [rent, buy] = [await raw('search-rent'), await raw('search-buy')];
    const all = [...rent, ...buy];
    const copy = all.reduce((a, b) => (Number(b.property_id) > Number(a.property_id) ? b : a));
    const original = all.find(
      (l) => l !== copy && l.title === copy.title && l.size?.value === copy.size?.value && l.bedrooms === copy.bedrooms,
    )!;
    expect(original).toBeDefined();
    expect(original.agent_details?.name).not.toBe(copy.agent_details?.name);

    const reply = await ask(h.bot, `/${rent.includes(copy) ? 'rent' : 'buy'} marina newest`);
    const shown = cards(reply);
    const urlOf = (l: ListingSummary) => l.property_url!;
    // The service's page holds both; the reply shows one card for them.
    expect(shown.filter((c) => c.url === urlOf(original) || c.url === urlOf(copy))).toHaveLength(1);
    const card = shown.find((c) => c.url === urlOf(original) || c.url === urlOf(copy)) as Card;
    const other = card.url === urlOf(original) ? copy : original;
    expect(card.fields).toContainEqual({
      label: 'Also listed by',
      value: `1 other agent: ${other.agent_details!.name} (/manzil agent ${other.agent_details!.id})`,
    });
    expect(card.links).toContainEqual({ label: `Listing by ${other.agent_details!.name}`, url: urlOf(other) });
    // Its own Details still opens the listing shown.
    const opened = await press(
      h.bot,
      (card.buttons ?? []).find((b) => b.label === 'Details')!,
    );
    expect(opened.text).toMatch(/^Property \d+$/);
  });
});

describe('commercial rents', () => {
  it('are sent as yearly unless a month is said, and the summary says so', async () => {
    const reply = await ask(h.bot, '/rent office business bay under 150k');
    expect(header(reply)).toBe('Offices for rent in Business Bay, up to AED 150,000 a year');
    expect(searches().map((r) => r.params.rent_frequency)).toEqual(['yearly']);
    sandbox.clearRequests();
    await ask(h.bot, '/rent office business bay under 15k monthly');
    expect(searches().map((r) => r.params.rent_frequency)).toEqual(['monthly']);
  });
});
