// End to end: the real Bolt app (HTTP mode) started by the composition root, the sandbox as the property service,
// and the fake Slack Web API for everything Slack would receive. Requests are signed exactly as Slack signs them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, blockSelect, blockSuggestion, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'test-signing-secret-0001';
const KEY = 'sk-e2e-secret-key-7777';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let events: string;
let dbPath: string;
const logs: string[] = [];
let seq = 0;

async function boot() {
  manzil = await startManzil({
    env: {
      // A short headers timeout so the slow-service test takes seconds, not tens of them; loopback answers in ms.
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_RETRY_ATTEMPTS: '2',
      UAE_API_HEADERS_TIMEOUT_S: '2',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'debug',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
  });
  events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-e2e-')), 'manzil.db');
  await boot();
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
  await sandbox.close();
});
afterEach(() => sandbox.clearFaults());

type Element = { action_id?: string; value?: string; type?: string; actions?: Element[] };
type Payload = {
  blocks?: {
    type: string;
    elements?: Element[];
    block_id?: string;
    text?: { text: string };
    rows?: unknown[];
  }[];
  text: string;
  response_type?: string;
  replace_original?: boolean;
};

/** Posts a slash command, expects the ack, and waits for the reply on its response_url. */
async function command(cmd: string, text: string): Promise<Payload> {
  const id = `r${++seq}`;
  const res = await signedPost(events, SECRET, slashCommand(cmd, text, slack.responseUrl(id)));
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

async function click(actionId: string, value: string, blockId?: string): Promise<Payload> {
  const id = `r${++seq}`;
  const res = await signedPost(events, SECRET, blockAction(actionId, value, slack.responseUrl(id), blockId));
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

/** The buttons of a reply: its actions blocks', then those of each card of its carousels. */
const elements = (p: Payload): Element[] =>
  (p.blocks ?? []).flatMap((b) =>
    b.type === 'actions'
      ? (b.elements ?? [])
      : b.type === 'carousel'
        ? (b.elements ?? []).flatMap((card) => card.actions ?? [])
        : [],
  );
const buttons = (p: Payload) => elements(p).filter((e) => e.type === 'button');
const button = (p: Payload, label: RegExp) => {
  const found = elements(p).find((e) => label.test(JSON.stringify((e as { text?: unknown }).text)));
  if (!found) throw new Error(`no button ${label} in ${JSON.stringify(p).slice(0, 500)}`);
  return found as { action_id: string; value: string };
};
const allText = (p: Payload) => JSON.stringify(p);

/**
 * How many records a reply shows: the cards of its carousels, a data_table's rows under its header, cards shown whole (a
 * section titled in bold, or with fields or a photo) and the rows of a table drawn as text (the lines of a fenced table
 * after its header and rule). A header and a "No results" line count for nothing.
 */
function records(p: Payload): number {
  let n = 0;
  for (const b of (p.blocks ?? []) as {
    type: string;
    text?: { text: string };
    fields?: unknown[];
    accessory?: unknown;
    elements?: unknown[];
    rows?: unknown[];
  }[]) {
    if (b.type === 'carousel') n += b.elements?.length ?? 0;
    if (b.type === 'data_table') n += Math.max(0, (b.rows?.length ?? 0) - 1);
    if (b.type !== 'section') continue;
    const text = b.text?.text ?? '';
    if (text.startsWith('```')) n += Math.max(0, text.split('```')[1]!.trim().split('\n').length - 2);
    else if (text.startsWith('*') || (b.fields?.length ?? 0) > 0 || b.accessory !== undefined) n++;
  }
  return n;
}

describe('slash commands', () => {
  it('answers a rent search with listing cards, a summary and paging buttons, visible to the channel', async () => {
    const reply = await command('/rent', 'marina 2br under 200k');
    expect(reply.response_type).toBe('in_channel');
    expect(allText(reply)).toMatch(/Dubai Marina/);
    expect(allText(reply)).toMatch(/AED [\d,]+\/yr/);
    expect(button(reply, /Next/)).toBeTruthy();
    expect(button(reply, /Save as alert/)).toBeTruthy();
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it("answers a search with one carousel of cards within Slack's limits, Next and Save below, and text for notifications", async () => {
    const reply = await command('/buy', 'marina');
    // The fake Slack refused nothing (it answers invalid_blocks to a card past a limit); its shape, as a person sees it:
    const carousel = (reply.blocks ?? []).find((b) => b.type === 'carousel') as unknown as {
      elements: {
        title: { text: string };
        subtitle?: { text: string };
        body?: { text: string };
        actions?: Element[];
      }[];
    };
    expect(carousel.elements.length).toBeGreaterThan(1);
    expect(carousel.elements.length).toBeLessThanOrEqual(10);
    for (const card of carousel.elements) {
      expect(card.title.text).toMatch(/^AED [\d,]+/);
      expect(card.title.text.length).toBeLessThanOrEqual(150);
      expect(card.subtitle?.text ?? '').toMatch(/Dubai Marina/);
      expect((card.body?.text ?? '').length).toBeLessThanOrEqual(200);
      expect((card.actions ?? []).length).toBeLessThanOrEqual(3);
      expect(JSON.stringify(card.actions)).toMatch(/Details/);
    }
    const below = (reply.blocks ?? []).findIndex((b) => b.type === 'actions');
    expect(below).toBeGreaterThan((reply.blocks ?? []).indexOf(carousel as never));
    expect(button(reply, /Next/)).toBeTruthy();
    expect(reply.text).toMatch(/Dubai Marina: \d+ shown/);
  });

  it('answers transactions with a data_table: a header and its rows, within 20 columns and 10,000 characters', async () => {
    const reply = await command('/transactions', 'sold marina 2br');
    const table = (reply.blocks ?? []).find((b) => b.type === 'data_table') as unknown as {
      caption: string;
      rows: { type: string; text: string; value?: number }[][];
    };
    expect(table.caption.length).toBeGreaterThan(0);
    expect(table.rows[0]!.map((c) => c.text)).toEqual(['Date', 'Type', 'Beds', 'Price']);
    expect(table.rows.length).toBeGreaterThan(1);
    // Prices go as numbers, so the table sorts them as numbers.
    expect(table.rows.slice(1).every((r) => r[3]!.type === 'raw_number' && typeof r[3]!.value === 'number')).toBe(true);
  });

  const verbs: [string, string, RegExp][] = [
    ['/buy', 'downtown 1br', /Downtown Dubai/],
    ['/projects', 'business bay', /Business Bay/],
    ['/transactions', 'sold marina 2br', /Dubai Marina/],
    ['/trend', 'marina', /Dubai Marina/],
    ['/agents', 'marina', /Dubai Marina|[Aa]gent/],
    ['/brokers', '', /[Bb]rokerage|[Bb]roker/],
    ['/developers', 'abu dhabi', /[Dd]evelopers?/],
    ['/location', 'marina', /Dubai Marina/],
    ['/manzil', 'rent business bay office', /Business Bay/],
    ['/manzil', 'adrec', /ADREC|Abu Dhabi/],
  ];
  it.each(verbs)('%s %s shows records, visible to the channel', async (cmd, text, expected) => {
    const reply = await command(cmd, text);
    expect(allText(reply)).toMatch(expected);
    expect(allText(reply)).not.toMatch(/No results|couldn't find/);
    expect(records(reply)).toBeGreaterThan(0);
    expect(reply.response_type).toBe('in_channel');
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it.each([
    ['/manzil', 'help', /rent/],
    ['/rent', 'help', /bedroom|br/i],
  ] as const)('%s %s explains the verbs', async (cmd, text, expected) => {
    const reply = await command(cmd, text);
    expect(allText(reply)).toMatch(expected);
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it('reads "<" and ">" as Slack sends them (&lt; &gt;): "/buy marina < 2m" is a maximum price in Dubai Marina', async () => {
    const under = await command('/buy', 'marina < 2m');
    expect(allText(under)).toMatch(/Dubai Marina/);
    expect(allText(under)).toMatch(/up to AED 2,000,000/);
    expect(allText(under)).not.toMatch(/&lt;|&amp;lt/);
    expect(records(under)).toBeGreaterThan(0);
    const over = await command('/buy', 'marina > 1m');
    expect(allText(over)).toMatch(/from AED 1,000,000/);
  });

  it('shows one property, and one agent and one brokerage listings, by id', async () => {
    const search = await command('/buy', 'marina');
    const details = await click(button(search, /Details/).action_id, button(search, /Details/).value);
    expect(details.response_type).toBe('ephemeral');
    expect(allText(details)).toMatch(/AED|Price on request/);
    const propertyId = /property\/(\d+)/.exec(allText(details))?.[1];
    expect(propertyId).toBeDefined();
    const byId = await command('/property', propertyId!);
    expect(allText(byId)).toMatch(/AED|Price on request/);
    const agent = (await manzil.api.call('search-agents', { location_id: '50' })).records[0]!;
    const broker = (await manzil.api.call('search-brokers', {})).records[0]!;
    expect(allText(await command('/manzil', `agent ${agent.id}`))).toMatch(/AED|Price on request/);
    expect(allText(await command('/manzil', `broker ${broker.id} rent`))).toMatch(/AED [\d,]+\/(yr|mo)/);
  });
});

describe('buttons', () => {
  it('pages in place: Next replaces the message with other listings, Previous brings the first page back', async () => {
    const first = await command('/rent', 'marina');
    const page2 = await click(button(first, /Next/).action_id, button(first, /Next/).value);
    expect(page2.replace_original).toBe(true);
    const ids = (p: Payload) => [...allText(p).matchAll(/property\/(\d+)/g)].map((m) => m[1]);
    expect(ids(page2).length).toBeGreaterThan(0);
    expect(ids(page2).some((id) => ids(first).includes(id))).toBe(false);
    const back = await click(button(page2, /Previous/).action_id, button(page2, /Previous/).value);
    expect(ids(back)).toEqual(ids(first));
  });

  it('offers no Next when the service already sent its last page', async () => {
    const reply = await command('/rent', 'marina 2br under 120k');
    expect(allText(reply)).toMatch(/AED 1[01]\d,\d{3}\/yr/);
    expect(() => button(reply, /Next/)).toThrow(/no button/);
    expect(button(reply, /Save as alert/)).toBeTruthy();
  });

  it('asks which area when the location is ambiguous, and runs the search on a choice', async () => {
    const reply = await command('/rent', 'jumeirah village 1br');
    expect(allText(reply)).toMatch(/Which one did you mean/);
    const choices = buttons(reply);
    expect(choices.length).toBeGreaterThan(1);
    // The "which one?" prompt is private; the search in the chosen area is posted anew for the channel.
    expect(reply.response_type).toBe('ephemeral');
    const chosen = await click(choices[0]!.action_id!, choices[0]!.value!);
    expect(chosen.replace_original).toBe(false);
    expect(chosen.response_type).toBe('in_channel');
    expect(allText(chosen)).toMatch(/for rent in Jumeirah/);
    expect(records(chosen)).toBeGreaterThan(0);
  });

  it('saves the search behind the reply as an alert, for the channel to see', async () => {
    const reply = await command('/rent', 'marina 1br');
    const saved = await click(button(reply, /Save as alert/).action_id, button(reply, /Save as alert/).value);
    expect(saved.response_type).toBe('in_channel');
    expect(saved.text).toMatch(
      /^Saved as alert #\d+: 1-bedroom homes for rent in Dubai Marina\. I'll post new listings here as they appear/,
    );
  });

  it('keeps a button working after a restart', async () => {
    const first = await command('/buy', 'marina');
    const next = button(first, /Next/);
    await manzil.stop();
    await boot();
    const page2 = await click(next.action_id, next.value);
    expect(page2.replace_original).toBe(true);
    expect(allText(page2)).toMatch(/property\/\d+/);
  });

  it('suggests locations for the Refine picker and reruns the search on a pick', async () => {
    const reply = await command('/rent', 'marina 1br');
    const picker = (reply.blocks ?? []).find((b) => b.elements?.some((e) => e.type === 'external_select'));
    expect(picker).toBeDefined();
    const blockId = picker!.block_id!;
    const res = await signedPost(events, SECRET, blockSuggestion('manzil:location', blockId, 'down'));
    expect(res.status).toBe(200);
    const options = JSON.parse(res.text).options as { text: { text: string }; value: string }[];
    expect(options.length).toBeGreaterThan(0);
    expect(options.length).toBeLessThanOrEqual(100);
    const downtown = options.find((o) => o.text.text === 'Downtown Dubai')!;
    const id = `r${++seq}`;
    await signedPost(events, SECRET, blockSelect('manzil:location', blockId, downtown.value, slack.responseUrl(id)));
    await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
    expect(allText(slack.responses(id)[0] as Payload)).toMatch(/Downtown Dubai/);
  });
});

describe('bad input and faults', () => {
  it('explains a command it cannot understand, only to the person, with an example', async () => {
    const reply = await command('/rent', 'marina 12x bedrooms');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text.length).toBeGreaterThan(10);
  });

  it('names an area it cannot find, only to the person', async () => {
    const reply = await command('/rent', 'zzyzx qwerty 2br');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toMatch(/couldn't find a place called "zzyzx qwerty"/);
  });

  it('resends without images when Slack refuses the blocks, and as plain text if it refuses again', async () => {
    const hasImage = (p: unknown) => JSON.stringify(p).includes('"type":"image"');
    slack.failNext('response_url', { status: 400, error: 'invalid_blocks' });
    const reply = await command('/buy', 'downtown 2br');
    const attempts = slack.responseAttempts().slice(-2);
    expect(attempts.map((a) => a.accepted)).toEqual([false, true]);
    expect(hasImage(attempts[0]!.payload)).toBe(true);
    expect(hasImage(reply)).toBe(false);
    expect(allText(reply)).toMatch(/AED [\d,]+/);

    slack.failNext('response_url', { status: 400, error: 'invalid_blocks' }, 2);
    const plain = await command('/buy', 'downtown 3br');
    expect(plain.blocks).toBeUndefined();
    expect(plain.text).toMatch(/Downtown Dubai/);
  });

  it('rejects a forged or stale signature with 401 and sends nothing', async () => {
    const before = slack.calls.length;
    const forged = await signedPost(events, SECRET, slashCommand('/rent', 'marina', slack.responseUrl('forged')), {
      secret: 'not-the-secret',
    });
    expect(forged.status).toBe(401);
    const stale = await signedPost(events, SECRET, slashCommand('/rent', 'marina', slack.responseUrl('stale')), {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(401);
    // A signed command sent after them is answered: had either been run, it would have been answered by now too.
    expect((await command('/rent', 'marina 12x bedrooms')).text.length).toBeGreaterThan(10);
    expect(slack.responses('forged')).toEqual([]);
    expect(slack.responses('stale')).toEqual([]);
    // (Bolt checks its token with auth.test at its first request, which may be this command.)
    expect(slack.calls.slice(before).filter((c) => c.method !== 'auth.test')).toEqual([]);
  });

  it('says the property service is busy when it keeps failing, never "no results"', async () => {
    sandbox.addFault({ status: 503, count: 10 });
    const reply = await command('/rent', 'business bay 3br');
    expect(allText(reply)).toMatch(/property service is busy/);
    expect(allText(reply)).not.toMatch(/No results/);
    expect(reply.response_type).toBe('ephemeral');
  });

  it('acks at once while the service stalls past the (2 s) headers timeout, then delivers the reply', async () => {
    sandbox.addFault({ latencyMs: 3_000, count: 1 });
    const id = `r${++seq}`;
    const before = sandbox.requests().length;
    const started = Date.now();
    const res = await signedPost(events, SECRET, slashCommand('/buy', 'business bay 2br', slack.responseUrl(id)));
    expect(res.status).toBe(200);
    // Acked while the service was still thinking: no reply yet, and the stalled call not yet retried (after 2 s).
    expect(slack.responses(id)).toEqual([]);
    expect(sandbox.requests().length - before).toBeLessThanOrEqual(1);
    await slack.waitFor(() => slack.responses(id).length > 0, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // the answer came after the stalled call timed out
    expect(allText(slack.responses(id)[0] as Payload)).toMatch(/Business Bay/);
  });

  it('never lets a key or token reach a log line or a reply', () => {
    const everything = logs.join('\n') + JSON.stringify(slack.calls) + JSON.stringify(slack.responses());
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(SECRET);
  });
});
