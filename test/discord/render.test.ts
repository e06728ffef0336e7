// The Discord renderer: what each model block looks like as a message, and that nothing it produces breaks Discord's
// limits (checked by the same validators the fake Discord applies to every payload).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedLength, readCustomId, renderDiscord } from '../../adapters/discord/render.js';
import { listingCard, projectCard } from '../../src/views/index.js';
import type { Block, Button, Card, Reply } from '../../src/views/model.js';
import { checkMessage } from '../fakes/discord-limits.js';
import { project, searchResult } from '../views/fixtures.js';

const reply = (blocks: Block[], extra: Partial<Reply> = {}): Reply => ({ text: 'Results', blocks, ...extra });
const render = (blocks: Block[], extra: Partial<Reply> = {}) => renderDiscord(reply(blocks, extra));
const problems = (m: unknown) => {
  const f = checkMessage(m, { where: 'test' });
  return [...f.errors, ...f.warnings];
};
const labels = (m: ReturnType<typeof renderDiscord>) =>
  m.components.flatMap((r) => r.components.map((c) => ('label' in c ? (c.label ?? '') : '')));

const listing = (n: number, over: Partial<Card> = {}): Card => ({
  title: `Sea view 2BR in Marina Gate #${n}`,
  url: `https://property.example.ae/listing/${n}`,
  subtitle: 'Apartment',
  fields: [
    { label: 'Price', value: 'AED 120,000/yr' },
    { label: 'Beds', value: '2' },
    { label: 'Agent', value: 'Sara' },
  ],
  imageUrl: `https://cdn.example.ae/photos/${n}.jpg`,
  badges: ['Verified'],
  buttons: [{ label: 'Details', action: 'details', token: `row${n}.d${n}` }],
  links: [{ label: 'View listing', url: `https://property.example.ae/listing/${n}` }],
  ...over,
});
const paging: Block = {
  kind: 'actions',
  buttons: [
    { label: '◀ Previous', action: 'page', token: 'row.p' },
    { label: 'Next ▶', action: 'page', token: 'row.n' },
    { label: 'Save as alert', action: 'save', token: 'row.s', style: 'primary' },
  ],
};

describe('renderDiscord: a page of listings', () => {
  const page = render(
    [
      { kind: 'header', text: '2-bedroom homes for rent in Dubai Marina' },
      { kind: 'context', text: 'Showing 1–8' },
      // Eight cards as embeds: an alert's or an old page's (a search's page goes as Components V2, render-v2.test.ts).
      ...Array.from({ length: 8 }, (_, i): Block => ({
        kind: 'card',
        card: listing(i + 1),
      })),
      paging,
      { kind: 'location-picker', token: 'row.r', placeholder: 'Refine' },
    ],
    { footer: 'Sample data from the local sandbox.' },
  );

  it('puts the summary in the content and each listing in an embed: linked title, photo, price and beds as fields', () => {
    expect(page.content).toBe('**2-bedroom homes for rent in Dubai Marina**\n-# Showing 1–8');
    expect(page.embeds).toHaveLength(8);
    const [first] = page.embeds;
    expect(first).toMatchObject({
      title: '1. Sea view 2BR in Marina Gate #1',
      url: 'https://property.example.ae/listing/1',
      image: { url: 'https://cdn.example.ae/photos/1.jpg' },
      description: 'Apartment\n*Verified*',
    });
    expect(first!.fields).toEqual([
      { name: 'Price', value: 'AED 120,000/yr', inline: true },
      { name: 'Beds', value: '2', inline: true },
      { name: 'Agent', value: 'Sara', inline: true },
    ]);
    expect(page.embeds.at(-1)!.footer).toEqual({ text: 'Sample data from the local sandbox.' });
  });

  it('numbers the cards and their Details buttons, packs them into rows, and keeps paging and Save in the last row', () => {
    expect(page.components.length).toBeLessThanOrEqual(5);
    expect(labels(page)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `Details ${i + 1}`),
      '◀ Previous',
      'Next ▶',
      'Save as alert',
    ]);
    expect(page.components.at(-1)!.components.map((c) => ('custom_id' in c ? c.custom_id : ''))).toEqual([
      'manzil:page:row.p',
      'manzil:page:row.n',
      'manzil:save:row.s',
    ]);
    // The card's own link is already its title's URL: no "View listing" buttons.
    expect(labels(page).some((l) => /View listing/.test(l))).toBe(false);
    expect(problems(page)).toEqual([]);
  });

  it('reads back the custom_id of every button', () => {
    expect(readCustomId('manzil:details:row3.d2')).toEqual({ action: 'details', token: 'row3.d2' });
    expect(readCustomId('other:thing')).toBeUndefined();
  });
});

describe('renderDiscord: what Discord would refuse or show badly', () => {
  it('leaves out images that are not https and links that are not http(s)', () => {
    const m = render([
      {
        kind: 'card',
        card: listing(1, { imageUrl: 'http://cdn.example.ae/1.jpg', url: 'javascript:alert(1)', links: [] }),
      },
    ]);
    expect(m.embeds[0]!.image).toBeUndefined();
    expect(m.embeds[0]!.url).toBeUndefined();
  });

  it('gives each URL to one embed only (Discord merges embeds that share one)', () => {
    const m = render([
      { kind: 'card', card: listing(1) },
      { kind: 'card', card: listing(2, { url: 'https://property.example.ae/listing/1' }) },
    ]);
    expect(m.embeds.map((e) => e.url)).toEqual(['https://property.example.ae/listing/1', undefined]);
  });

  it('leaves out a button whose custom_id would pass 100 characters rather than cut its token', () => {
    const long: Button = { label: 'Details', action: 'details', token: 'x'.repeat(95) };
    const m = render([{ kind: 'actions', buttons: [long, { label: 'Next', action: 'page', token: 'ok.n' }] }]);
    expect(labels(m)).toEqual(['Next']);
  });

  it('escapes markdown and pings nobody', () => {
    const m = render([{ kind: 'text', text: '**Free** @everyone # heading [x](https://evil.example)' }]);
    // Not bold, and no masked link hiding where it leads.
    expect(m.content).toBe('\\*\\*Free\\*\\* @everyone # heading \\[x](https://evil.example)');
    expect(m.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps at most 10 embeds and 6,000 characters, says how many cards were left out, and keeps the controls', () => {
    const huge = (n: number) =>
      listing(n, {
        title: 'T'.repeat(400),
        body: 'B'.repeat(5_000),
        fields: Array.from({ length: 30 }, (_, i) => ({ label: 'L'.repeat(300), value: `V${i}`.repeat(400) })),
      });
    const m = render(
      [
        { kind: 'header', text: 'Many' },
        ...Array.from({ length: 14 }, (_, i): Block => ({ kind: 'card', card: huge(i) })),
        paging,
      ],
      { footer: 'F'.repeat(3_000) },
    );
    expect(m.embeds.length).toBeGreaterThan(0);
    expect(m.embeds.length).toBeLessThanOrEqual(10);
    expect(m.embeds.reduce((n, e) => n + embedLength(e), 0)).toBeLessThanOrEqual(6_000);
    expect(m.content).toMatch(/…\d+ more not shown/);
    expect(labels(m)).toEqual(expect.arrayContaining(['Next ▶', 'Save as alert']));
    expect(problems(m)).toEqual([]);
  });

  it('gives 25 "which one?" choices all five rows', () => {
    const choices = Array.from({ length: 25 }, (_, i): Button => ({
      label: `Place ${i}`,
      action: 'choose',
      token: `row.c${i}`,
    }));
    const m = render([
      { kind: 'text', text: 'Which one did you mean?' },
      { kind: 'actions', buttons: choices },
    ]);
    expect(m.components).toHaveLength(5);
    expect(problems(m)).toEqual([]);
  });

  it('draws a table as a code block in an embed, and long text as embeds', () => {
    const table = render([
      {
        kind: 'table',
        columns: ['Date', 'Price'],
        rows: Array.from({ length: 500 }, (_, i) => [`2026-01-${i}`, `AED ${i}`]),
      },
    ]);
    expect(table.embeds[0]!.description).toMatch(/^```\nDate/);
    expect(table.embeds[0]!.description).toMatch(/…and \d+ more rows$/);
    const long = render([{ kind: 'text', text: 'line\n'.repeat(1_000) }]);
    expect(long.embeds.length).toBe(2);
    expect(long.embeds.map((e) => e.description).join('\n')).toBe('line\n'.repeat(1_000).trim());
    expect(problems(long)).toEqual([]);
  });

  it('always says something: an empty reply shows its text', () => {
    expect(render([], { text: 'Nothing to show' }).content).toBe('Nothing to show');
  });

  it('never produces a message Discord refuses, whatever the views hold', () => {
    const text = fc.string({ maxLength: 3_000, unit: 'grapheme' });
    const button = fc.record({
      label: text,
      action: fc.constantFrom('page', 'details', 'save', 'choose'),
      token: fc.string({ minLength: 0, maxLength: 120 }),
    }) as fc.Arbitrary<Button>;
    const card = fc.record({
      title: text,
      url: fc.option(fc.webUrl(), { nil: undefined }),
      subtitle: fc.option(text, { nil: undefined }),
      body: fc.option(text, { nil: undefined }),
      fields: fc.array(fc.record({ label: text, value: text }), { maxLength: 30 }),
      imageUrl: fc.option(fc.webUrl(), { nil: undefined }),
      badges: fc.option(fc.array(text, { maxLength: 4 }), { nil: undefined }),
      buttons: fc.option(fc.array(button, { maxLength: 6 }), { nil: undefined }),
      links: fc.option(fc.array(fc.record({ label: text, url: fc.webUrl() }), { maxLength: 3 }), { nil: undefined }),
    }) as fc.Arbitrary<Card>;
    const block: fc.Arbitrary<Block> = fc.oneof(
      fc.record({ kind: fc.constant('header' as const), text }),
      fc.record({ kind: fc.constant('text' as const), text }),
      fc.record({ kind: fc.constant('context' as const), text }),
      fc.record({ kind: fc.constant('card' as const), card }),
      fc.record({ kind: fc.constant('actions' as const), buttons: fc.array(button, { maxLength: 30 }) }),
      fc.record({
        kind: fc.constant('table' as const),
        columns: fc.array(text, { maxLength: 5 }),
        rows: fc.array(fc.array(text, { maxLength: 5 }), { maxLength: 40 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 16 }),
        text,
        fc.option(text, { nil: undefined }),
        (blocks, fallback, footer) => {
          const m = renderDiscord({ text: fallback, blocks, ...(footer !== undefined ? { footer } : {}) });
          const found = checkMessage(m, { where: 'property' });
          expect(found.errors).toEqual([]);
          expect(m.embeds.reduce((n, e) => n + embedLength(e), 0)).toBeLessThanOrEqual(6_000);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('renderDiscord: commands in the text', () => {
  it('keeps `inline code` as code, as the core writes commands', () => {
    expect(render([{ kind: 'text', text: 'Try `/alerts pause 2` (see `/alerts list`).' }]).content).toBe(
      'Try `/alerts pause 2` (see `/alerts list`).',
    );
  });
});

describe('renderDiscord: untrusted listing links', () => {
  /**
   * Everywhere a URL could be made a link of: the embed's own URL, link buttons, and bare text outside inline code.
   */
  const linked = (m: ReturnType<typeof renderDiscord>, host: string) => [
    ...m.embeds.map((e) => e.url ?? '').filter((u) => u.includes(host)),
    ...m.components
      .flatMap((r) => r.components.map((c) => ('url' in c ? (c.url ?? '') : '')))
      .filter((u) => u.includes(host)),
    ...m.embeds
      .flatMap((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)])
      .map((t) => t.replace(/`[^`]*`/g, ''))
      .filter((t) => t.includes(host)),
  ];

  it.each([
    ['an unknown host', 'https://evil.example/phish?x=1'],
    ['plain http on a portal', 'http://www.propertyfinder.ae/en/plp/rent/apartment-1.html'],
  ])('shows %s as inline code, never as a link or a button', (_what, url) => {
    const host = new URL(url).host;
    for (const card of [listingCard(searchResult({ property_url: url })), projectCard(project({ share_url: url }))]) {
      const m = render([{ kind: 'card', card }]);
      const values = m.embeds.flatMap((e) => (e.fields ?? []).map((f) => f.value)).filter((v) => v.includes(host));
      expect(values).toEqual([`\`${new URL(url).href}\``]);
      expect(linked(m, host)).toEqual([]);
      expect(problems(m)).toEqual([]);
    }
  });

  it("keeps a trusted https link as the embed's linked title, not as code", () => {
    const url = 'https://www.bayut.com/property/details-1.html';
    const m = render([{ kind: 'card', card: listingCard(searchResult({ property_url: url })) }]);
    expect(m.embeds[0]!.url).toBe(url);
    expect(JSON.stringify(m.embeds[0]!.fields)).not.toContain('`');
  });

  it('cannot be broken out of its inline code by a backtick', () => {
    const m = render([
      {
        kind: 'card',
        card: {
          title: 'x',
          fields: [{ label: 'Link', value: 'https://evil.example/`[a](https://x.example)`', inert: true }],
        },
      },
    ]);
    const value = m.embeds[0]!.fields![0]!.value;
    expect(value.match(/`/g)).toHaveLength(2);
    expect(value).toContain('%60');
  });
});
