// The helpers in adapters/shared, run against every adapter that uses them: the same cases for the send-with-fallback
// chain (Slack, Discord), the table (all three), links and images, inert addresses and clamping, each with the
// adapter's own markup and limits. What differs per adapter is in its descriptor; what is shared must hold for all.
import { DiscordAPIError } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderText } from '../../adapters/console/render.js';
import { renderDiscord } from '../../adapters/discord/render.js';
import {
  clampMarkdown,
  imageUrl as discordImageUrl,
  linkUrl as discordLinkUrl,
} from '../../adapters/discord/render-text.js';
import { sendWithFallback as discordSend, isV2, type DiscordPayload } from '../../adapters/discord/send.js';
import { renderSlack } from '../../adapters/slack/render.js';
import {
  clampMrkdwn,
  escapeMrkdwn,
  imageUrl as slackImageUrl,
  linkUrl as slackLinkUrl,
} from '../../adapters/slack/render-text.js';
import { sendWithFallback as slackSend, type SlackPayload } from '../../adapters/slack/send.js';
import { fallbackText, sendWithFallback, withoutImages } from '../../adapters/shared/fallback.js';
import { imageUrl, inertCode, linkUrl } from '../../adapters/shared/links.js';
import { tableText } from '../../adapters/shared/table.js';
import { clamp, clampPlain, cutValue, orElse, width } from '../../adapters/shared/text.js';
import type { Block, Reply } from '../../src/views/model.js';

const PHOTO = 'https://images.example/photo-1.jpg';
const reply: Reply = {
  text: 'Found 1 listing',
  blocks: [
    {
      kind: 'card',
      card: {
        title: 'Marina flat',
        url: 'https://www.bayut.com/1',
        fields: [{ label: 'Price', value: 'AED 1,200,000' }],
        imageUrl: PHOTO,
      },
    },
  ],
};

type Log = (message: string, fields: Record<string, unknown>) => void;

interface Sender<P> {
  name: string;
  send: <T>(reply: Reply, deliver: (payload: P) => Promise<T>, log: Log) => Promise<T>;
  /** An error the platform gives when it refuses the content itself. */
  refusal: () => unknown;
  /** An error a plainer message cannot help with (a rate limit, say). */
  otherFailure: () => unknown;
  hasPhoto: (payload: P) => boolean;
  textOnly: (payload: P) => boolean;
}

class SlackRefusal extends Error {}
const discordError = (status: number) =>
  new DiscordAPIError(
    { code: 50035, message: 'Invalid Form Body' },
    50035,
    status,
    'POST',
    'https://discord.com/api/v10/channels/1/messages',
    {},
  );

const slack: Sender<SlackPayload> = {
  name: 'slack',
  send: (r, deliver, log) => slackSend(r, deliver, { log, isContentRefusal: (e) => e instanceof SlackRefusal }),
  refusal: () => new SlackRefusal('invalid_blocks'),
  otherFailure: () => new Error('ratelimited'),
  hasPhoto: (p) => JSON.stringify(p).includes(PHOTO),
  textOnly: (p) => p.blocks === undefined && p.text.length > 0,
};

const discord: Sender<DiscordPayload> = {
  name: 'discord',
  send: (r, deliver, log) => discordSend(r, deliver, log, 'embeds'),
  refusal: () => discordError(400),
  otherFailure: () => discordError(429),
  hasPhoto: (p) => JSON.stringify(p).includes(PHOTO),
  textOnly: (p) => !isV2(p) && p.embeds.length === 0 && p.components.length === 0 && p.content.length > 0,
};

/** A search's page on Discord: Components V2, whose last form is one text display (still flagged V2). */
const discordV2: Sender<DiscordPayload> = {
  ...discord,
  name: 'discord (Components V2)',
  send: (r, deliver, log) => discordSend(r, deliver, log, 'v2'),
  textOnly: (p) => isV2(p) && p.components.length === 1 && p.components[0]!.type === 10,
};

/** Runs the chain with a platform that fails the first `failures` attempts with the errors `fail` gives. */
async function run<P>(sender: Sender<P>, failures: number, fail: () => unknown) {
  const seen: P[] = [];
  const logged: Record<string, unknown>[] = [];
  const result = sender.send(
    reply,
    async (payload) => {
      seen.push(payload);
      if (seen.length <= failures) throw fail();
      return 'posted';
    },
    (_m, fields) => logged.push(fields),
  );
  return { result, seen, logged };
}

describe.each([slack, discord, discordV2] as Sender<unknown>[])('the send-with-fallback chain on $name', (sender) => {
  it('sends the reply as it is when the platform takes it', async () => {
    const { result, seen, logged } = await run(sender, 0, sender.refusal);
    await expect(result).resolves.toBe('posted');
    expect(seen).toHaveLength(1);
    expect(sender.hasPhoto(seen[0])).toBe(true);
    expect(logged).toEqual([]);
  });

  it('sends it again without its photos after a refusal of the content, then as text alone', async () => {
    const once = await run(sender, 1, sender.refusal);
    await expect(once.result).resolves.toBe('posted');
    expect(once.seen.map((p) => sender.hasPhoto(p))).toEqual([true, false]);
    expect(sender.textOnly(once.seen[1])).toBe(false);

    const twice = await run(sender, 2, sender.refusal);
    await expect(twice.result).resolves.toBe('posted');
    expect(twice.seen).toHaveLength(3);
    expect(sender.textOnly(twice.seen[2])).toBe(true);
    expect(twice.logged.map((f) => f.attempt)).toEqual([1, 2]);
  });

  it('throws the last error when every form is refused', async () => {
    const all = await run(sender, 3, sender.refusal);
    await expect(all.result).rejects.toBeDefined();
    expect(all.seen).toHaveLength(3);
    expect(all.logged.map((f) => f.attempt)).toEqual([1, 2, 3]);
  });

  it('stops at once when a failure is not a refusal of the content: a plainer message cannot help', async () => {
    const other = await run(sender, 3, sender.otherFailure);
    await expect(other.result).rejects.toBeDefined();
    expect(other.seen).toHaveLength(1);
  });
});

describe('the shared chain itself', () => {
  it('builds each form only when it is needed, and tries every form when no refusal test is given', async () => {
    const built: string[] = [];
    const forms = {
      render: (r: Reply) => (
        built.push(r.blocks.some((b) => b.kind === 'card' && b.card.imageUrl) ? 'full' : 'plain'),
        'blocks'
      ),
      textOnly: () => (built.push('text'), 'text'),
    };
    await expect(sendWithFallback(reply, forms, async () => 'ok', { onFailure: () => {} })).resolves.toBe('ok');
    expect(built).toEqual(['full']);
    let n = 0;
    await sendWithFallback(
      reply,
      forms,
      async (p) => {
        if (++n < 3) throw new Error('no');
        return p;
      },
      { onFailure: () => {} },
    );
    expect(built).toEqual(['full', 'full', 'plain', 'text']);
  });

  it('takes the photos off the cards only, and finds the words that stand for a reply', () => {
    const chart: Block = {
      kind: 'image',
      image: { name: 'c.png', title: 'Trend', alt: 'a chart', fallback: '▁▂▃', pngBase64: 'AA==' },
    };
    const stripped = withoutImages({ ...reply, blocks: [...reply.blocks, chart] });
    expect(stripped.blocks[0]).toMatchObject({ card: { title: 'Marina flat', imageUrl: undefined } });
    expect(stripped.blocks[1]).toBe(chart);
    expect(reply.blocks[0]).toMatchObject({ card: { imageUrl: PHOTO } });

    expect(fallbackText({ text: ' ', blocks: reply.blocks })).toBe('Manzil');
    expect(fallbackText({ text: ' ', blocks: reply.blocks }, { fromBlocks: true })).toBe('Marina flat');
    expect(fallbackText({ text: 'Hello', blocks: reply.blocks }, { fromBlocks: true })).toBe('Hello');
  });
});

// ---- Tables: the same table through each renderer, within each platform's room. ----

interface TableCase {
  name: string;
  render: (columns: string[], rows: string[][]) => string;
  /** The room the platform gives a table; Infinity where it scrolls. */
  max: number;
}

const tableReply = (columns: string[], rows: string[][]): Reply => ({
  text: 'Table',
  blocks: [{ kind: 'table', columns, rows }],
});
const tables: TableCase[] = [
  {
    // Slack shows a table as a data_table (test/slack/render.test.ts); as text when the message's 10,000 characters of
    // table cells are spent, here by two tables that take them all (3 + 100 × 99, then 1 + 3 × 32).
    name: 'slack',
    max: 3_000,
    render: (c, r) => {
      const full = Array.from({ length: 100 }, () => ['x'.repeat(40), 'y'.repeat(40), 'z'.repeat(19)]);
      const rest = Array.from({ length: 5 }, () => ['w'.repeat(32)]);
      const spent: Block[] = [
        { kind: 'table', columns: ['A', 'B', 'C'], rows: full },
        { kind: 'table', columns: ['A'], rows: rest },
      ];
      const blocks = renderSlack({ text: 'Table', blocks: [...spent, ...tableReply(c, r).blocks] }).blocks;
      return (blocks.find((b) => b.type === 'section') as { text: { text: string } }).text.text;
    },
  },
  { name: 'discord', max: 3_000, render: (c, r) => renderDiscord(tableReply(c, r)).embeds[0]!.description! },
  { name: 'console', max: Infinity, render: (c, r) => renderText(tableReply(c, r)).text },
];

describe.each(tables)('tables on $name', ({ name, render, max }) => {
  const rows = Array.from({ length: 400 }, (_, i) => [
    `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
    `AED ${(i + 1) * 1_000}`,
  ]);

  it('pads the columns under a header and a rule', () => {
    const text = render(['Date', 'Price'], rows.slice(0, 2));
    expect(text).toContain('Date        Price\n----------  --------\n2024-01-01  AED 1000\n2024-01-02  AED 2000');
    expect(text.startsWith('```')).toBe(name !== 'console');
  });

  it('keeps within the platform’s room and counts the rows left out', () => {
    const text = render(['Date', 'Price'], rows);
    expect(text.length).toBeLessThanOrEqual(max);
    const shown = text.split('\n').filter((l) => /^2024-/.test(l)).length;
    const left = Number(/…and (\d+) more rows?$/.exec(text)?.[1] ?? 0);
    expect(shown + left).toBe(rows.length);
    if (max === Infinity) expect(left).toBe(0);
    else expect(left).toBeGreaterThan(0);
  });
});

describe('tableText options', () => {
  it('escapes each line, keeps cells on one line and cut, and styles the header and rule', () => {
    const text = tableText(['A & B'], [['x\ny'], ['z'.repeat(60)]], {
      escape: escapeMrkdwn,
      style: { head: (l) => `<${l}>`, rule: (l) => `[${l}]` },
    })!;
    const lines = text.split('\n');
    expect(lines[0]).toBe('<A &amp; B>');
    expect(lines[1]).toMatch(/^\[-+\]$/);
    expect(lines[2]).toBe('x y');
    expect(lines[3]).toBe(`${'z'.repeat(39)}…`);
    expect(tableText([], [])).toBeUndefined();
  });

  it('never returns more than max, even when the header alone is wider', () => {
    const wide = tableText(['x'.repeat(40), 'y'.repeat(40)], [['1', '2']], { max: 30, fence: true })!;
    expect(wide.length).toBeLessThanOrEqual(30);
  });
});

// ---- Links, images and inert addresses: each adapter's checks, on the same URLs. ----

const links = [
  { name: 'slack', link: slackLinkUrl, image: slackImageUrl, max: 3_000 },
  { name: 'discord', link: discordLinkUrl, image: discordImageUrl, max: 2_048 },
];

describe.each(links)('links and images on $name', ({ name, link, image, max }) => {
  it('links http(s) only, within the limit', () => {
    expect(link('https://www.bayut.com/a')).toBe('https://www.bayut.com/a');
    expect(link(' http://sandbox-manzil.example/a ')).toBe('http://sandbox-manzil.example/a');
    for (const bad of ['javascript:alert(1)', 'ftp://x.example/a', 'not a url', '', undefined])
      expect(link(bad), String(bad)).toBeUndefined();
    expect(link(`https://x.example/${'a'.repeat(max)}`)).toBeUndefined();
  });

  it('loads images from https only: never plain http', () => {
    expect(image('https://images.example/a.jpg')).toBe('https://images.example/a.jpg');
    expect(image('http://images.example/a.jpg')).toBeUndefined();
    expect(image('data:image/png;base64,AA==')).toBeUndefined();
    expect(image(`https://images.example/${'a'.repeat(max)}.jpg`)).toBeUndefined();
    // Slack fails a whole message on a WebP it fetches; Discord shows it.
    expect(image('https://images.example/a.WEBP')).toBe(
      name === 'discord' ? 'https://images.example/a.WEBP' : undefined,
    );
  });
});

describe('shared link checks', () => {
  it('percent-encodes what would end the platform’s link markup, and still checks the length after', () => {
    expect(linkUrl('https://x.example/a|b>c', { max: 100, encode: /[<>|]/g })).toBe('https://x.example/a%7Cb%3Ec');
    expect(linkUrl('https://x.example/||||', { max: 22, encode: /[|]/g })).toBeUndefined();
    expect(imageUrl('https://x.example/a.gif', { max: 100, refuse: ['.gif'] })).toBeUndefined();
  });

  it('shows an address inert: in inline code, with what would end the code or start a link encoded', () => {
    expect(inertCode('http://evil.example/a`b c', { encode: /[`<>|\s]/g })).toBe('`http://evil.example/a%60b%20c`');
    expect(inertCode(' ', { encode: /`/g })).toBe('`—`');
    expect(inertCode('https://x.example/&', { encode: /`/g, escape: escapeMrkdwn })).toBe('`https://x.example/&amp;`');
    const cut = inertCode(`https://x.example/${'a'.repeat(100)}`, { encode: /`/g, max: 30 });
    expect(cut).toHaveLength(30);
    expect(cut).toMatch(/^`.*…`$/);
  });

  it('renders an inert field on Slack and Discord as inline code, never as a link', () => {
    const card: Reply = {
      text: 't',
      blocks: [
        {
          kind: 'card',
          card: { title: 'T', fields: [{ label: 'Link', value: 'http://evil.example/x', inert: true }] },
        },
      ],
    };
    expect(JSON.stringify(renderSlack(card).blocks)).toContain('`http://evil.example/x`');
    expect(JSON.stringify(renderSlack(card).blocks)).not.toContain('<http://evil.example');
    expect(renderDiscord(card).embeds[0]!.fields![0]!.value).toBe('`http://evil.example/x`');
  });
});

// ---- Clamping: plain by default, each platform's markup kept whole by its `end` option. ----

const anyText = fc.string({
  unit: fc.constantFrom('a', ' ', '&', '\\', 'é', '👩‍👩‍👧', '🇦🇪', '\u0301', 'ب'),
  maxLength: 80,
});
const splitsCharacter = (cut: string) => /[\uD800-\uDBFF]$/.test(cut.replace(/…$/, ''));

describe('clamping', () => {
  it('never exceeds max, ends in … when cut, and never splits a character, for every adapter’s clamp', () => {
    const clamps = {
      plain: clampPlain,
      slack: (t: string, m: number) => clampMrkdwn(escapeMrkdwn(t), m),
      discord: clampMarkdown,
    };
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 60 }), (text, max) => {
        for (const [name, cut] of Object.entries(clamps)) {
          const out = cut(text, max);
          const input = name === 'slack' ? escapeMrkdwn(text) : text;
          if (input.length <= max) expect(out).toBe(input);
          else {
            expect(out.length, name).toBeLessThanOrEqual(max);
            expect(out.endsWith('…'), name).toBe(true);
            expect(splitsCharacter(out), name).toBe(false);
            expect(input.startsWith(out.slice(0, -1)), name).toBe(true);
          }
          if (name === 'slack') expect(out, name).not.toMatch(/&[a-z]{0,3}…$/);
          if (name === 'discord' && out !== input) expect((/\\+…$/.exec(out)?.[0].length ?? 1) % 2, name).toBe(1);
        }
      }),
    );
  });

  it('cuts opaque values without an ellipsis, fills blanks, and measures width in characters', () => {
    expect(cutValue('👩‍👩‍👧abc', 3)).toBe('');
    expect(cutValue('abcdef', 3)).toBe('abc');
    expect(clamp('abc   def', 7, { end: (kept) => kept })).toBe('abc   …');
    expect(orElse('  ', 'Open')).toBe('Open');
    expect(orElse('x', 'Open')).toBe('x');
    expect(width('👩‍👩‍👧ab')).toBe(3);
  });
});
