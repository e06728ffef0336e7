// A search's page on Discord as Components V2 (adapters/discord/render-v2.ts), built with discord.js's own builders and
// checked by the validator the fake Discord applies to every payload: the flag set, no content or embeds, each
// component where Discord allows it, at most 40 components counted nested and 4,000 characters of text. Also that the
// validator itself refuses what Discord refuses, so a test through the fake fails on an invalid message.
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { componentCount, plainTextV2, renderDiscordV2, textLength } from '../../adapters/discord/render-v2.js';
import { messageOptions } from '../../adapters/discord/send.js';
import { listingCard } from '../../src/views/index.js';
import type { Block, Reply } from '../../src/views/model.js';
import { checkMessage } from '../fakes/discord-limits.js';
import { searchResult } from '../views/fixtures.js';

const V2 = MessageFlags.IsComponentsV2;
const errors = (m: unknown) => checkMessage(m, { where: 'test' }).errors;

type Json = { type: number; content?: string; components?: Json[]; accessory?: Json; label?: string; url?: string };
const containers = (m: { components: unknown[] }) => (m.components as Json[]).filter((c) => c.type === 17);

/** A listing card as a search's page makes it (with its tile), its Details button and photo. */
function listing(n: number, over: Record<string, unknown> = {}): Block {
  const record = searchResult({ property_id: String(16_000_000 + n), ...over });
  const card = listingCard(record, {
    tile: true,
    buttons: [{ label: 'Details', action: 'details', token: `tok.d${n}` }],
  });
  return { kind: 'card', card: { ...card, imageUrl: `https://cdn.example.ae/photos/${n}.jpg` } };
}

function page(cards: Block[], extra: Partial<Reply> = {}): Reply {
  return {
    text: 'Homes for rent in Dubai Marina',
    blocks: [
      { kind: 'header', text: 'Homes for rent in Dubai Marina' },
      { kind: 'context', text: `Showing 1–${cards.length}` },
      ...cards,
      {
        kind: 'actions',
        buttons: [
          { label: 'Next ▶', action: 'page', token: 'tok.n' },
          { label: 'Save as alert', action: 'save', token: 'tok.s', style: 'primary' },
        ],
      },
    ],
    footer: 'Sample data from the local sandbox.',
    ...extra,
  };
}

describe('a search page as Components V2', () => {
  it('is a container per listing: the photo as a section thumbnail, price and beds, area and size, Details and the link', () => {
    const m = renderDiscordV2(page([1, 2, 3, 4].map((n) => listing(n))));
    expect(errors(m)).toEqual([]);
    expect(m.flags).toBe(V2);
    expect(m).not.toHaveProperty('content');
    expect(m).not.toHaveProperty('embeds');
    expect(containers(m)).toHaveLength(4);
    const [section, row] = containers(m)[0]!.components!;
    expect(section!.type).toBe(9);
    expect(section!.accessory).toMatchObject({ type: 11, media: { url: 'https://cdn.example.ae/photos/1.jpg' } });
    expect(section!.components![0]!.content).toMatch(/^### AED 120,000\/yr · 1 bed\nMarina Gate.+sqft/);
    expect(row!.components!.map((b) => b.label)).toEqual(['Details', 'View listing']);
    // The page's own buttons below the listings, then the footer.
    const tail = (m.components as Json[]).slice(-2);
    expect(tail[0]!.components!.map((b) => b.label)).toEqual(['Next ▶', 'Save as alert']);
    expect(tail[1]).toEqual({ type: 10, content: '-# Sample data from the local sandbox.' });
    expect(componentCount(m.components)).toBeLessThanOrEqual(40);
  });

  it('keeps within 40 components and 4,000 characters with ten and more listings of long titles: whole listings go, and it says how many', () => {
    const long = 'Penthouse with a private pool and a view of the whole marina and the sea '.repeat(8);
    const cards = Array.from({ length: 12 }, (_, i) => listing(i + 1, { title: long, description: long }));
    const m = renderDiscordV2(page(cards));
    expect(errors(m)).toEqual([]);
    expect(componentCount(m.components)).toBeLessThanOrEqual(40);
    expect(textLength(m.components)).toBeLessThanOrEqual(4_000);
    const shown = containers(m).length;
    expect(shown).toBeGreaterThanOrEqual(4);
    expect(shown).toBeLessThan(12);
    const texts = (m.components as Json[]).filter((c) => c.type === 10).map((c) => c.content);
    expect(texts).toContain(`-# …${12 - shown} more not shown`);
    // Paging and Save are never the ones to go.
    expect(JSON.stringify(m.components)).toContain('manzil:page:tok.n');
    expect(JSON.stringify(m.components)).toContain('manzil:save:tok.s');
  });

  it('shows a listing without a photo as text alone (a section needs its thumbnail)', () => {
    const one = listing(1);
    const plain: Block = one.kind === 'card' ? { kind: 'card', card: { ...one.card, imageUrl: undefined } } : one;
    const m = renderDiscordV2(page([plain]));
    expect(errors(m)).toEqual([]);
    expect(containers(m)[0]!.components!.map((c) => c.type)).toEqual([10, 1]);
  });

  it('draws any reply when a V2 message is edited (Details, a notice, a table), and its last form is one text display', () => {
    const details = listingCard(searchResult(), {});
    const m = renderDiscordV2({
      text: 'x',
      blocks: [
        { kind: 'card', card: details },
        { kind: 'divider' },
        { kind: 'table', columns: ['Month', 'AED'], rows: [['Jan', '1,000']] },
        { kind: 'text', text: 'That page has expired.' },
      ],
    });
    expect(errors(m)).toEqual([]);
    expect(JSON.stringify(m)).toContain('**Price**: AED 120,000/yr');
    const last = plainTextV2({ text: 'Something went wrong', blocks: [] });
    expect(errors(last)).toEqual([]);
    expect(last.components).toEqual([{ type: 10, content: 'Something went wrong' }]);
  });

  it('goes through discord.js with its flag, and Ephemeral beside it when only the person should see it', () => {
    const m = renderDiscordV2(page([listing(1)]));
    expect(messageOptions(m, [], { ephemeral: true }).flags).toBe(V2 | MessageFlags.Ephemeral);
    expect(messageOptions(m).flags).toBe(V2);
    expect(messageOptions(m)).not.toHaveProperty('content');
    // An edit clears any embeds an earlier form left (Discord wants them empty before the flag is set).
    expect(messageOptions(m, [], { edit: true }).embeds).toEqual([]);
  });
});

describe('the fake Discord refuses V2 messages as Discord does', () => {
  const text = (content: string) => ({ type: 10, content });
  const ok = { flags: V2, components: [text('Hello')] };

  it('accepts a plain one', () => expect(errors(ok)).toEqual([]));

  it.each([
    ['content beside the components', { ...ok, content: 'hi' }, /cannot have content/],
    ['embeds beside the components', { ...ok, embeds: [{ title: 'x' }] }, /cannot have content, embeds/],
    ['41 components', { flags: V2, components: Array.from({ length: 41 }, () => text('x')) }, /41 components/],
    [
      '41 counted nested',
      { flags: V2, components: [{ type: 17, components: Array.from({ length: 40 }, () => text('x')) }] },
      /41 components/,
    ],
    ['4,001 characters', { flags: V2, components: [text('x'.repeat(2_000)), text('y'.repeat(2_001))] }, /4001 char/],
    ['a section without its accessory', { flags: V2, components: [{ type: 9, components: [text('x')] }] }, /accessory/],
    ['a text display in a row', { flags: V2, components: [{ type: 1, components: [text('x')] }] }, /not allowed/],
    [
      'a thumbnail at the top',
      { flags: V2, components: [{ type: 11, media: { url: 'https://a.example/x.png' } }] },
      /not allowed/,
    ],
    ['an empty text display', { flags: V2, components: [text('')] }, /text display/],
    [
      'a container in a container',
      { flags: V2, components: [{ type: 17, components: [{ type: 17, components: [text('x')] }] }] },
      /not allowed/,
    ],
    [
      'a section of four texts',
      {
        flags: V2,
        components: [
          {
            type: 9,
            components: [1, 2, 3, 4].map(() => text('x')),
            accessory: { type: 11, media: { url: 'https://a.example/x.png' } },
          },
        ],
      },
      /1 to 3/,
    ],
  ])('refuses %s', (_name, message, error) => {
    expect(errors(message).join('\n')).toMatch(error);
  });
});
