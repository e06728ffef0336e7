// The Block Kit renderer: what each model block looks like in Slack, and that no text breaks Slack's limits.
import type { SlackBlock as KnownBlock } from '../../adapters/slack/render.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSlack } from '../../adapters/slack/render.js';
import type { Block, Button, Card, Reply } from '../../src/views/model.js';
import { listingCard, projectCard } from '../../src/views/index.js';
import { checkSlackMessage } from '../fakes/slack-limits.js';
import { project, searchResult } from '../views/fixtures.js';

const reply = (blocks: Block[], extra: Partial<Reply> = {}): Reply => ({ text: 'Results', blocks, ...extra });
const render = (blocks: Block[], extra: Partial<Reply> = {}) => renderSlack(reply(blocks, extra));
/** A rendered block as plain JSON, so tests can reach into it without narrowing every union. */
const only = (blocks: Block[]) => JSON.parse(JSON.stringify(render(blocks).blocks)) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
const elementsOf = (blocks: KnownBlock[]) =>
  blocks.flatMap((b) => (b.type === 'actions' ? b.elements : [])) as {
    action_id?: string;
    value?: string;
    url?: string;
    type: string;
  }[];

const listing: Card = {
  title: 'Sea view 2BR in Marina Gate',
  url: 'https://property.example.ae/listing/42?ref=bot&lang=en',
  subtitle: 'AED 120,000/yr',
  body: 'Balcony, gym & pool',
  fields: [
    { label: 'Beds', value: '2' },
    { label: 'Size', value: '1,250 sqft' },
  ],
  imageUrl: 'https://cdn.example.ae/photos/42.jpg',
  badges: ['Super agent', 'Verified'],
  buttons: [
    { label: 'Details', action: 'details', token: 'tok-details-42' },
    { label: 'Save', action: 'save', token: 'tok-save-42', style: 'primary' },
  ],
  links: [{ label: 'Open listing', url: 'https://property.example.ae/listing/42' }],
};

describe('renderSlack: each block kind', () => {
  it('renders header, text, context and divider', () => {
    expect(
      only([
        { kind: 'header', text: 'Rent in Dubai Marina' },
        { kind: 'text', text: 'Found *2* flats' },
        { kind: 'context', text: 'Page 1 of 3' },
        { kind: 'divider' },
      ]),
    ).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Rent in Dubai Marina', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: 'Found *2* flats' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Page 1 of 3' }] },
      { type: 'divider' },
    ]);
  });

  it('renders a card as a section with a linked title, its text, fields and photo, then its buttons and links', () => {
    const [section, actions] = only([{ kind: 'card', card: listing }]);
    expect(section?.text.text).toBe(
      '*<https://property.example.ae/listing/42?ref=bot&lang=en|Sea view 2BR in Marina Gate>*\nAED 120,000/yr\nBalcony, gym &amp; pool\n_Super agent · Verified_',
    );
    expect(section?.fields).toEqual([
      { type: 'mrkdwn', text: '*Beds*\n2' },
      { type: 'mrkdwn', text: '*Size*\n1,250 sqft' },
    ]);
    expect(section?.accessory).toEqual({
      type: 'image',
      image_url: 'https://cdn.example.ae/photos/42.jpg',
      alt_text: 'Sea view 2BR in Marina Gate',
    });
    expect(actions?.elements).toEqual([
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Details', emoji: true },
        action_id: 'manzil:details:1',
        value: 'tok-details-42',
      },
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Save', emoji: true },
        action_id: 'manzil:save:2',
        value: 'tok-save-42',
        style: 'primary',
      },
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Open listing', emoji: true },
        url: 'https://property.example.ae/listing/42',
        action_id: 'manzil:link:3',
      },
    ]);
  });

  it('renders a card without a URL, buttons or photo as one bold-titled section', () => {
    const blocks = only([{ kind: 'card', card: { title: 'Emaar', fields: [] } }]);
    expect(blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: '*Emaar*' } }]);
  });

  it("keeps fields beyond Slack's ten in the card text rather than dropping them", () => {
    const fields = Array.from({ length: 12 }, (_, i) => ({ label: `F${i + 1}`, value: `v${i + 1}` }));
    const [section] = only([{ kind: 'card', card: { title: 'Many', fields } }]);
    expect(section?.fields).toHaveLength(10);
    expect(section?.text.text).toBe('*Many*\n*F11*: v11\n*F12*: v12');
  });

  it('renders a table as a data_table: a raw_text header, numbers as raw_number shown as written, captioned', () => {
    const [table] = only([
      { kind: 'header', text: 'Sold in Dubai Marina' },
      {
        kind: 'table',
        columns: ['Date', 'Price'],
        rows: [
          ['2024-01-05', 'AED 1,200,000'],
          ['2024-02-11', ''],
        ],
      },
    ]).slice(1);
    expect(table).toEqual({
      type: 'data_table',
      caption: 'Sold in Dubai Marina',
      page_size: 2,
      rows: [
        [
          { type: 'raw_text', text: 'Date' },
          { type: 'raw_text', text: 'Price' },
        ],
        [
          { type: 'raw_text', text: '2024-01-05' },
          { type: 'raw_number', value: 1_200_000, text: 'AED 1,200,000' },
        ],
        [
          { type: 'raw_text', text: '2024-02-11' },
          { type: 'raw_text', text: '—' },
        ],
      ],
    });
  });

  it('keeps a long table within 100 rows and 10,000 characters, and says how many rows were left out', () => {
    const rows = Array.from({ length: 500 }, (_, i) => [
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
      `AED ${1_000_000 + i}`,
      'Dubai Marina',
    ]);
    const message = render([{ kind: 'table', columns: ['Date', 'Price', 'Area'], rows }]);
    expect(checkSlackMessage(message)).toEqual([]);
    const [table, note] = JSON.parse(JSON.stringify(message.blocks)) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const shown = (table?.rows as unknown[]).length - 1;
    expect(shown).toBe(100);
    expect(note?.elements[0].text).toBe(`…and ${500 - shown} more rows`);
    // Wide cells: the characters run out before the rows do.
    const wide = rows.map((r) => [...r, 'x'.repeat(40), 'y'.repeat(40)]);
    const cut = render([{ kind: 'table', columns: ['Date', 'Price', 'Area', 'X', 'Y'], rows: wide }]);
    expect(checkSlackMessage(cut)).toEqual([]);
    const cutRows = (cut.blocks[0] as { rows: unknown[] }).rows.length - 1;
    expect(cutRows).toBeLessThan(100);
    expect(JSON.stringify(cut.blocks[1])).toContain(`…and ${500 - cutRows} more rows`);
  });

  it('shares 10,000 table characters across the message: a table past them is drawn as text', () => {
    const rows = Array.from({ length: 100 }, (_, i) => [`${'r'.repeat(40)}`, `${'s'.repeat(40)}`, String(i)]);
    const message = render([
      { kind: 'table', columns: ['A', 'B', 'N'], rows },
      { kind: 'table', columns: ['A', 'B', 'N'], rows },
      { kind: 'table', columns: ['A', 'B', 'N'], rows },
    ]);
    expect(checkSlackMessage(message)).toEqual([]);
    expect(message.blocks.some((b) => b.type === 'data_table')).toBe(true);
    expect(message.blocks.some((b) => b.type === 'section' && b.text?.text.startsWith('```'))).toBe(true);
  });

  it('renders actions as buttons whose values are the tokens', () => {
    const [actions] = only([
      { kind: 'actions', buttons: [{ label: 'Next', action: 'page', token: 'p2', style: 'primary' }] },
    ]);
    expect(actions).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Next', emoji: true },
          action_id: 'manzil:page:1',
          value: 'p2',
          style: 'primary',
        },
      ],
    });
  });

  it('renders a location picker as an external select whose block_id is the picker token', () => {
    const [picker] = only([{ kind: 'location-picker', token: 'pick-7', placeholder: 'Try another location' }]);
    expect(picker).toEqual({
      type: 'actions',
      block_id: 'pick-7',
      elements: [
        {
          type: 'external_select',
          action_id: 'manzil:location',
          placeholder: { type: 'plain_text', text: 'Try another location', emoji: true },
          min_query_length: 2,
        },
      ],
    });
  });

  it('puts the footer last as a context line and always sends fallback text', () => {
    const out = render([{ kind: 'text', text: 'hello' }], { footer: 'Sample data from the local sandbox' });
    expect(out.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Sample data from the local sandbox' }],
    });
    expect(out.text).toBe('Results');
    expect(renderSlack({ text: '  ', blocks: [{ kind: 'header', text: 'Agents in JVC' }] }).text).toBe('Agents in JVC');
  });
});

describe('renderSlack: escaping and unsafe content', () => {
  it('escapes &, < and > in every user text placed in mrkdwn', () => {
    const out = render(
      [
        { kind: 'text', text: 'Tom & Jerry <b>2BR</b>' },
        { kind: 'card', card: { title: 'A&B <Tower>', subtitle: '1 < 2', fields: [{ label: 'R&D', value: '<x>' }] } },
      ],
      { text: 'Deals & <more>', footer: 'a > b' },
    );
    const json = JSON.stringify(out);
    expect(out.text).toBe('Deals &amp; &lt;more&gt;');
    expect(json).toContain('Tom &amp; Jerry &lt;b&gt;2BR&lt;/b&gt;');
    expect(json).toContain('*A&amp;B &lt;Tower&gt;*\\n1 &lt; 2');
    expect(json).toContain('*R&amp;D*\\n&lt;x&gt;');
    expect(json).toContain('a &gt; b');
    expect(json).not.toMatch(/<b>|<x>|<Tower>/);
  });

  it('keeps the generated link intact: the URL unescaped, the label escaped and stripped of | and >', () => {
    const [section] = only([
      { kind: 'card', card: { title: 'Pool | Gym > Spa & more', url: 'https://x.example/l?a=1&b=2', fields: [] } },
    ]);
    expect(section?.text.text).toBe('*<https://x.example/l?a=1&b=2|Pool Gym Spa &amp; more>*');
  });

  it('leaves out WebP and non-https photos, and drops link buttons that are not web URLs', () => {
    for (const imageUrl of [
      'https://cdn.example.ae/a.webp',
      'https://cdn.example.ae/a.WEBP?w=640',
      'http://cdn.example.ae/a.jpg',
      'not a url',
    ]) {
      const [section] = only([{ kind: 'card', card: { title: 'x', fields: [], imageUrl } }]);
      expect(section?.accessory, imageUrl).toBeUndefined();
    }
    const [, actions] = only([
      {
        kind: 'card',
        card: {
          title: 'x',
          fields: [],
          links: [
            { label: 'bad', url: 'javascript:alert(1)' },
            { label: 'ok', url: 'https://ok.example' },
          ],
        },
      },
    ]);
    expect(actions?.elements.map((e: { text: { text: string } }) => e.text.text)).toEqual(['ok']);
  });

  it('clamps a header to 150 characters without splitting a family emoji', () => {
    const family = '👨‍👩‍👧';
    const out = only([{ kind: 'header', text: family.repeat(30) }]);
    const text: string = out[0]?.text.text;
    expect(text.length).toBeLessThanOrEqual(150);
    expect(text.endsWith('…')).toBe(true);
    expect(text.slice(0, -1).split(family).join('')).toBe('');
  });
});

describe('renderSlack: at most 50 blocks', () => {
  const paging: Button[] = [
    { label: 'Previous', action: 'page', token: 'page-1' },
    { label: 'Next', action: 'page', token: 'page-3' },
  ];
  const many = (n: number): Block[] => [
    { kind: 'header', text: 'Rent in Dubai Marina' },
    ...Array.from({ length: n }, (_, i): Block => ({
      kind: 'card',
      card: {
        ...listing,
        title: `Flat ${i + 1}`,
        buttons: [{ label: 'Details', action: 'details', token: `d${i + 1}` }],
      },
    })),
    { kind: 'actions', buttons: paging },
  ];

  it('drops cards from the end, says how many, and keeps the paging buttons and the footer', () => {
    const out = render(many(40), { footer: 'Sample data' });
    expect(out.blocks.length).toBeLessThanOrEqual(50);
    expect(checkSlackMessage(out)).toEqual([]);
    const json = out.blocks.map((b) => JSON.stringify(b));
    const shownCards = json.filter((b) => b.includes('*<https://property.example.ae')).length;
    expect(json.at(-3)).toContain(`…${40 - shownCards} more not shown`);
    expect(elementsOf(out.blocks.slice(-2, -1)).map((e) => e.value)).toEqual(['page-1', 'page-3']);
    expect(json.at(-1)).toContain('Sample data');
    expect(json.slice(1, 3).join()).toContain('Flat 1');
  });

  it('leaves a reply that fits untouched', () => {
    const out = render(many(3));
    expect(out.blocks).toHaveLength(1 + 3 * 2 + 1);
    expect(JSON.stringify(out.blocks)).not.toContain('more not shown');
  });

  it('gives every button a unique action_id and its token as value', () => {
    const out = render(many(10));
    const buttons = elementsOf(out.blocks).filter((e) => e.type === 'button' && !e.url);
    const ids = buttons.map((b) => b.action_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^manzil:(details|page):\d+$/.test(id ?? ''))).toBe(true);
    expect(buttons.map((b) => b.value)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `d${i + 1}`),
      'page-1',
      'page-3',
    ]);
  });
});

describe('renderSlack: properties', () => {
  const samples = [
    'شقة في دبي مارينا',
    '👨‍👩‍👧',
    '🏠🇦🇪',
    'Dubai Marina & JBR <2br>',
    '|',
    '>',
    '*_~`',
    'é',
    '\n',
    ' ',
    '&amp;',
    'ﷺ',
    'a\u0301',
  ];
  const mixed = fc.array(fc.constantFrom(...samples), { maxLength: 40 }).map((a) => a.join(''));
  const long = fc
    .tuple(fc.constantFrom(...samples, 'x'), fc.integer({ min: 100, max: 1_500 }))
    .map(([s, n]) => s.repeat(n));
  const text = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    mixed,
    long,
    fc.constant(''),
  );
  const url = fc.oneof(
    fc.webUrl(),
    fc.constantFrom(
      'https://cdn.example.ae/a.webp',
      'http://cdn.example.ae/a.jpg',
      'not a url',
      'https://x.example/a|b>c<d',
      '',
    ),
    text.map((t) => `https://x.example/${t}`),
  );
  const button: fc.Arbitrary<Button> = fc.record(
    {
      label: text,
      action: fc.constantFrom('page', 'save', 'details', 'choose', 'value'),
      token: fc.oneof(fc.uuid(), text),
      style: fc.constantFrom('primary', 'danger'),
    },
    { requiredKeys: ['label', 'action', 'token'] },
  );
  const card: fc.Arbitrary<Card> = fc.record(
    {
      title: text,
      url,
      subtitle: text,
      body: text,
      imageUrl: url,
      fields: fc.array(fc.record({ label: text, value: text }), { maxLength: 14, size: 'max' }),
      badges: fc.array(text, { maxLength: 4 }),
      buttons: fc.array(button, { maxLength: 28, size: 'max' }),
      links: fc.array(fc.record({ label: text, url }), { maxLength: 3 }),
    },
    { requiredKeys: ['title', 'fields'] },
  );
  const block: fc.Arbitrary<Block> = fc.oneof(
    fc.record({ kind: fc.constant('header'), text }),
    fc.record({ kind: fc.constant('text'), text }),
    fc.record({ kind: fc.constant('context'), text }),
    fc.constant({ kind: 'divider' as const }),
    fc.record({ kind: fc.constant('card'), card }),
    fc.record({
      kind: fc.constant('table'),
      columns: fc.array(text, { maxLength: 5 }),
      rows: fc.array(fc.array(text, { maxLength: 6 }), { maxLength: 200, size: 'max' }),
    }),
    fc.record({ kind: fc.constant('actions'), buttons: fc.array(button, { maxLength: 28, size: 'max' }) }),
    fc.record({ kind: fc.constant('location-picker'), token: fc.oneof(fc.uuid(), text), placeholder: text }),
  );
  const replies: fc.Arbitrary<Reply> = fc.record(
    // size 'max': fast-check would otherwise stop at 10 blocks, never reaching Slack's 50.
    { text, blocks: fc.array(block, { maxLength: 60, size: 'max' }), footer: text },
    { requiredKeys: ['text', 'blocks'] },
  );

  it('never produces a payload Slack would refuse, whatever the text', () => {
    fc.assert(
      fc.property(replies, (r) => {
        const out = renderSlack(r);
        expect(checkSlackMessage(out)).toEqual([]);
        expect(out.text.trim()).not.toBe('');
      }),
      { numRuns: 100 },
    );
    // CPU alone (replies of up to 60 blocks and tables of 200 rows): about 4 s on an idle core, and a loaded machine
    // gives each worker a fraction of one.
  }, 90_000);

  it('never leaves half a character or half an entity behind when it cuts text', () => {
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    fc.assert(
      fc.property(
        fc.constantFrom(...samples.filter((x) => x.trim()), '&', '<b>'),
        fc.integer({ min: 50, max: 2_000 }),
        (s, n) => {
          const out = renderSlack(
            reply(
              [
                { kind: 'header', text: s.repeat(n) },
                { kind: 'text', text: s.repeat(n * 3) },
              ],
              { text: s.repeat(n * 30) },
            ),
          );
          const [header, section] = out.blocks as unknown as [{ text: { text: string } }, { text: { text: string } }];
          const all = [out.text, header.text.text, section.text.text];
          expect(all.some((t) => loneSurrogate.test(t))).toBe(false);
          // Only mrkdwn is escaped: a cut there must not leave `&am…`, which Slack would show as garbage.
          expect([out.text, section.text.text].some((t) => /&[a-z]{0,3}…$/.test(t))).toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('clamps a 50,000-character reply text to the fallback limit', () => {
    const out = renderSlack({ text: 'شقة في دبي مارينا '.repeat(3_000), blocks: [] });
    expect(out.text.length).toBeLessThanOrEqual(40_000);
    expect(out.text.endsWith('…')).toBe(true);
    expect(checkSlackMessage(out)).toEqual([]);
  });
});

describe('renderSlack: untrusted listing links', () => {
  type Text = { type: string; text: string; verbatim?: boolean };
  /** Every text object in the rendered blocks, wherever it sits. */
  const texts = (node: unknown): Text[] => {
    if (Array.isArray(node)) return node.flatMap(texts);
    if (!node || typeof node !== 'object') return [];
    const o = node as Record<string, unknown>;
    const self = typeof o['type'] === 'string' && typeof o['text'] === 'string' ? [o as unknown as Text] : [];
    return [...self, ...Object.values(o).flatMap(texts)];
  };
  /**
   * What Slack would make a link of: a mrkdwn text (not verbatim) holding a bare URL, or an explicit `<url>` anywhere.
   */
  const autoLinkable = (blocks: unknown, host: string) =>
    texts(blocks).filter(
      (t) => t.text.includes(host) && (t.text.includes(`<http`) || (t.type === 'mrkdwn' && t.verbatim !== true)),
    );

  it.each([
    ['an unknown host', 'https://evil.example/phish?x=1'],
    ['plain http on a portal', 'http://www.propertyfinder.ae/en/plp/rent/apartment-1.html'],
  ])('shows %s as verbatim inline code on a whole card, and never as a link or a button', (_what, url) => {
    const host = new URL(url).host;
    // A listing's tile in a carousel leaves the address to its Details; a card shown whole shows it inert.
    const listing = listingCard(searchResult({ property_url: url }), { tile: true });
    const whole = listingCard(searchResult({ property_url: url }));
    const projectUrl = projectCard(project({ share_url: url }));
    for (const card of [whole, projectUrl]) {
      const blocks = JSON.parse(JSON.stringify(render([{ kind: 'card', card }]).blocks)) as unknown;
      const shown = texts(blocks).filter((t) => t.text.includes(host));
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatchObject({ type: 'mrkdwn', verbatim: true });
      expect(shown[0]!.text).toMatch(
        new RegExp('`' + new URL(url).href.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&').replace(/&/g, '&amp;') + '`'),
      );
      expect(autoLinkable(blocks, host)).toEqual([]);
      expect(elementsOf(render([{ kind: 'card', card }]).blocks).filter((e) => e.url)).toEqual([]);
    }
    const carousel = JSON.stringify(render([{ kind: 'card', card: listing }]).blocks);
    expect(carousel).toContain('"carousel"');
    expect(carousel).not.toContain(host);
  });

  it('keeps a trusted https link as a button: on a whole card with a linked title, on a tile as its button', () => {
    const url = 'https://www.bayut.com/property/details-1.html';
    const listing = listingCard(searchResult({ property_url: url }), { tile: true });
    const blocks = render([{ kind: 'card', card: listingCard(searchResult({ property_url: url })) }]).blocks;
    expect(
      elementsOf(blocks)
        .filter((e) => e.url)
        .map((e) => e.url),
    ).toEqual([url]);
    expect(texts(blocks).some((t) => t.text.includes(`<${url}|`))).toBe(true);
    const tile = render([{ kind: 'card', card: listing }]).blocks[0] as {
      elements: { actions?: { url?: string }[] }[];
    };
    expect(tile.elements[0]!.actions?.map((a) => a.url).filter(Boolean)).toEqual([url]);
  });

  it('keeps an inert address beyond the tenth field verbatim too', () => {
    const fields = [
      ...Array.from({ length: 10 }, (_, i) => ({ label: `F${i}`, value: `v${i}` })),
      { label: 'Link', value: 'https://evil.example/x', inert: true as const },
    ];
    const [section] = only([{ kind: 'card', card: { title: 'Many', fields } }]);
    expect(section?.text).toMatchObject({ type: 'mrkdwn', verbatim: true });
    expect(section?.text.text).toContain('`https://evil.example/x`');
  });
});
