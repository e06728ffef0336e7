// A search's page on Slack: one carousel of card blocks, each within the card block's limits however long the listing's
// words, checked by the fake Slack's own reading of the docs (test/fakes/slack-limits.ts).
import { describe, expect, it } from 'vitest';
import { renderSlack } from '../../adapters/slack/render.js';
import { listingCard } from '../../src/views/index.js';
import type { Block, Reply } from '../../src/views/model.js';
import { checkSlackMessage } from '../fakes/slack-limits.js';
import { searchResult } from '../views/fixtures.js';

const long = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');

/** A page as the bot lays it out: a header, cards with Details, then Next and Save as alert. */
function page(cards: number, over: Record<string, unknown> = {}, market?: string): Reply {
  const blocks: Block[] = [{ kind: 'header', text: '1-bedroom homes for rent in Dubai Marina' }];
  for (let i = 0; i < cards; i++) {
    const card = listingCard(searchResult({ property_id: String(1000 + i), ...over }), {
      buttons: [{ label: 'Details', action: 'details', token: `row.d${i}` }],
      personButtons: (ref) => [{ label: "Agent's listings", action: 'page', token: `row.a${ref.id}` }],
      tile: true,
    });
    blocks.push({
      kind: 'card',
      card: market && card.tile ? { ...card, tile: { ...card.tile, body: `${market}\n${card.tile.body}` } } : card,
    });
  }
  blocks.push({
    kind: 'actions',
    buttons: [
      { label: 'Next ▶', action: 'page', token: 'row.n' },
      { label: 'Save as alert', action: 'save', token: 'row.s', style: 'primary' },
    ],
  });
  return { text: 'Homes for rent in Dubai Marina: 10 shown', blocks };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (reply: Reply) => JSON.parse(JSON.stringify(renderSlack(reply))) as { text: string; blocks: Json[] };

describe('a search page on Slack', () => {
  it('is one carousel of ten cards, with Next and Save as alert below and its text for notifications', () => {
    const message = json(page(10));
    expect(checkSlackMessage(message)).toEqual([]);
    expect(message.text).toBe('Homes for rent in Dubai Marina: 10 shown');
    expect(message.blocks.map((b) => b.type)).toEqual(['header', 'carousel', 'actions']);
    const cards = message.blocks[1]!.elements as Json[];
    expect(cards).toHaveLength(10);
    const [first] = cards;
    // Price and beds as title, area and size as subtitle, who lists it as body, the photo as hero image.
    expect(first!.title).toEqual({ type: 'mrkdwn', text: 'AED 120,000/yr · 1 bed' });
    expect(first!.subtitle.text).toBe('Marina Gate 1, Marina Gate, Dubai Marina, Dubai · 812 sqft');
    expect(first!.body.text).toBe('Sara Haddad · /manzil agent 84213');
    expect(first!.hero_image).toMatchObject({ type: 'image', image_url: expect.stringMatching(/^https:\/\//) });
    // Details, Save (the page's Save as alert, by its token), then the link: three, the card block's most.
    const labels = (first!.actions as Json[]).map((a) => a.text.text);
    expect(labels.slice(0, 2)).toEqual(['Details', 'Save as alert']);
    expect(first!.actions).toHaveLength(3);
    expect((first!.actions as Json[])[1]!.value).toBe('row.s');
    expect(message.blocks[2]!.elements.map((e: Json) => e.text.text)).toEqual(['Next ▶', 'Save as alert']);
  });

  it('puts the market line first in the body', () => {
    const cards = json(page(2, {}, '8% below the 1-bed median of AED 130,000/yr')).blocks[1]!.elements as Json[];
    expect(cards[0]!.body.text).toBe('8% below the 1-bed median of AED 130,000/yr\nSara Haddad · /manzil agent 84213');
  });

  it('keeps every card within 150-character titles and subtitles, 200-character bodies, however long its words', () => {
    const reply = page(
      10,
      {
        address: { full_name: long('Marina & Gate <Tower>', 80) },
        agent_details: { id: '84213', name: long('Sara-Haddad', 60), is_super_agent: true },
        price: { value: 123_456_789_012, currency: 'AED', period: 'yearly', is_hidden: false },
        bedrooms: '7',
      },
      long('well below the median & more', 40),
    );
    const message = json(reply);
    expect(checkSlackMessage(message)).toEqual([]);
    const cards = message.blocks[1]!.elements as Json[];
    expect(cards).toHaveLength(10);
    for (const card of cards) {
      expect(card.title.text.length).toBeLessThanOrEqual(150);
      expect(card.subtitle.text.length).toBeLessThanOrEqual(150);
      expect(card.body.text.length).toBeLessThanOrEqual(200);
      expect(card.subtitle.text.endsWith('…')).toBe(true);
      expect(card.body.text.endsWith('…')).toBe(true);
      // Escaped for mrkdwn, and never cut inside an entity.
      expect(card.subtitle.text).toContain('&amp;');
      expect(card.subtitle.text).not.toMatch(/&[a-z]{0,3}…$/);
      expect(card.actions.length).toBeLessThanOrEqual(3);
    }
  });

  it('splits more than ten cards into carousels of ten', () => {
    const message = json(page(12));
    expect(checkSlackMessage(message)).toEqual([]);
    const carousels = message.blocks.filter((b) => b.type === 'carousel');
    expect(carousels.map((c) => c.elements.length)).toEqual([10, 2]);
  });
});

describe('the fake Slack refuses what Slack refuses in a carousel', () => {
  const carousel = (card: Json, n = 1) => ({
    text: 'x',
    blocks: [{ type: 'carousel', elements: Array.from({ length: n }, () => card) }],
  });
  const card = { type: 'card', title: { type: 'mrkdwn', text: 'AED 1 · 1 bed' } };

  it('eleven cards, long texts, four buttons, a card with nothing, a section in a carousel', () => {
    expect(checkSlackMessage(carousel(card, 10))).toEqual([]);
    expect(checkSlackMessage(carousel(card, 11))).toEqual(['blocks[0].elements: at most 10 cards (got 11)']);
    expect(checkSlackMessage(carousel({ ...card, body: { type: 'mrkdwn', text: 'x'.repeat(201) } }))).toEqual([
      'blocks[0].elements[0].body.text: must be at most 200 characters (got 201)',
    ]);
    expect(checkSlackMessage(carousel({ ...card, title: { type: 'mrkdwn', text: 'x'.repeat(151) } }))).toHaveLength(1);
    const b = (i: number) => ({ type: 'button', action_id: `a${i}`, text: { type: 'plain_text', text: 'Go' } });
    expect(checkSlackMessage(carousel({ ...card, actions: [b(1), b(2), b(3), b(4)] }))).toEqual([
      'blocks[0].elements[0].actions: at most 3 buttons (got 4)',
    ]);
    expect(checkSlackMessage(carousel({ type: 'card' }))).toHaveLength(1);
    expect(checkSlackMessage(carousel({ type: 'section', text: { type: 'mrkdwn', text: 'x' } }))).toHaveLength(1);
  });
});
