// End to end: the real discord.js client started by the composition root and logged in to the fake Discord (REST and
// gateway on 127.0.0.1), the sandbox as the property service, SQLite in a temp dir. Interactions arrive as Discord
// sends them; every payload the bot sends is checked against Discord's limits by the fake.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/main.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-e2e-key-5151';
const STRING = 3;
const MANAGE_GUILD = (1n << 5n).toString();
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;
let dbPath: string;
const logs: string[] = [];

async function boot() {
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY, UAE_API_BASE_URL: sandbox.url, UAE_API_RETRY_ATTEMPTS: '2', UAE_API_HEADERS_TIMEOUT_S: '2',
      DISCORD_TOKEN: fake.botToken, DISCORD_API_URL: fake.apiUrl,
      PORT: '0', MANZIL_DB_PATH: dbPath, LOG_LEVEL: 'debug', LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_S: '0.5', ALERTS_DELIVERY_LEASE_S: '1',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
    discord: { autocompleteDeadlineMs: 400 },
  });
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-discord-e2e-')), 'manzil.db');
  await boot();
  await fake.ready();
});
afterAll(async () => {
  await manzil?.stop();
  await fake.close();
  await sandbox.close();
});
afterEach(() => sandbox.clearFaults());

const query = (value: string, focused = false) => ({ name: 'query', type: STRING, value, ...(focused ? { focused: true } : {}) });
const location = (value: string, focused = false) => ({ name: 'location', type: STRING, value, ...(focused ? { focused: true } : {}) });

/** Runs a slash command and waits until the bot has answered it: @original edited, or a follow-up sent. */
async function slash(name: string, options: unknown[], opts?: { user?: string; permissions?: string }) {
  const { token } = await fake.slashCommand(name, options, opts);
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  return token;
}

const text = (m: DiscordJson) => JSON.stringify(m);
const allButtons = (m: DiscordJson): { label: string; custom_id?: string; url?: string }[] =>
  (m?.components ?? []).flatMap((row: DiscordJson) => row.components ?? []);
const buttonId = (m: DiscordJson, label: RegExp): string => {
  const found = allButtons(m).find((b) => label.test(b.label));
  if (!found?.custom_id) throw new Error(`no button ${label} in ${text(m).slice(0, 400)}`);
  return found.custom_id;
};
/** The last follow-up of an interaction (where ephemeral answers go). */
const lastFollowUp = (token: string) => fake.responses(token).filter((r) => r.kind === 'followup').at(-1);

describe('slash commands', () => {
  it('defers at once, then edits the reply with one embed per listing: photo, link, price and beds as fields', async () => {
    const token = await slash('rent', [query('marina 2br under 200k')]);
    const [first] = fake.responses(token);
    expect(first).toMatchObject({ kind: 'callback', type: 5, ephemeral: false });
    const reply = fake.original(token);
    expect(reply.content).toMatch(/2-bedroom homes for rent in Dubai Marina/);
    expect(reply.embeds.length).toBeGreaterThan(0);
    expect(reply.embeds.length).toBeLessThanOrEqual(10);
    const card = reply.embeds[0];
    expect(card.url).toMatch(/^https?:\/\//);
    expect(card.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['Price', 'Beds']));
    expect(text(card.fields)).toMatch(/AED [\d,]+\/yr/);
    expect(reply.embeds.filter((e: DiscordJson) => e.image).every((e: DiscordJson) => e.image.url.startsWith('https://'))).toBe(true);
    const urls = reply.embeds.map((e: DiscordJson) => e.url).filter(Boolean);
    expect(new Set(urls).size).toBe(urls.length);
    expect(allButtons(reply).map((b) => b.label)).toEqual(expect.arrayContaining(['Save as alert', 'Details 1']));
  });

  it('takes the location option as the place, in quotes', async () => {
    const token = await slash('buy', [query('1br'), location('Downtown Dubai')]);
    expect(fake.original(token).content).toMatch(/1-bedroom homes for sale in Downtown Dubai/);
  });

  it('answers a mistake only to the person: the public "thinking…" is deleted, the error sent ephemeral', async () => {
    const token = await slash('rent', [query('marina 2br under')]);
    const kinds = fake.responses(token).map((r) => r.kind);
    expect(kinds).toEqual(['callback', 'delete', 'followup']);
    const answer = lastFollowUp(token)!;
    expect(answer.ephemeral).toBe(true);
    expect(answer.body.content).toMatch(/"under" what\?/);
    expect(fake.original(token)).toBeUndefined();
  });

  it('says the property service is busy when it keeps failing (503), ephemeral, never "no results"', async () => {
    sandbox.addFault({ status: 503, count: 10 });
    const token = await slash('rent', [query('business bay 3br')]);
    const answer = lastFollowUp(token)!;
    expect(answer.ephemeral).toBe(true);
    expect(text(answer.body)).toMatch(/property service is busy/);
    expect(text(answer.body)).not.toMatch(/No results/);
  });

  it('shows help from /manzil', async () => {
    const token = await slash('manzil', [query('help')]);
    expect(text(lastFollowUp(token)?.body ?? fake.original(token))).toMatch(/rent/);
  });
});

describe('buttons', () => {
  it('Next replaces the message with the next listings; Previous brings the first page back', async () => {
    const token = await slash('rent', [query('marina')]);
    const titles = (m: DiscordJson): string[] => m.embeds.map((e: DiscordJson) => e.title.replace(/^\d+\\?\. /, ''));
    const first = titles(fake.original(token));
    const click = await fake.clickButton(buttonId(fake.original(token), /Next/), { id: token });
    await fake.waitFor(() => fake.responses(click.token).some((r) => r.kind === 'edit'), 15_000);
    expect(fake.responses(click.token)[0]).toMatchObject({ kind: 'callback', type: 6 });
    const second = fake.original(token);
    expect(titles(second).length).toBeGreaterThan(0);
    expect(titles(second).some((t) => first.includes(t))).toBe(false);
    const back = await fake.clickButton(buttonId(second, /Previous/), { id: token });
    await fake.waitFor(() => fake.responses(back.token).some((r) => r.kind === 'edit'), 15_000);
    expect(titles(fake.original(token))).toEqual(first);
  });

  it('Details answers with the property, only to the person', async () => {
    const token = await slash('buy', [query('marina')]);
    const click = await fake.clickButton(buttonId(fake.original(token), /^Details 1$/), { id: token });
    await fake.waitFor(() => lastFollowUp(click.token) !== undefined, 15_000);
    const details = lastFollowUp(click.token)!;
    expect(details.ephemeral).toBe(true);
    expect(text(details.body)).toMatch(/AED|Price on request/);
  });

  it('asks which place when the location is ambiguous, privately, and runs the search on a choice', async () => {
    const token = await slash('rent', [query('jumeirah 1br')]);
    const prompt = lastFollowUp(token)!;
    expect(prompt.ephemeral).toBe(true);
    expect(text(prompt.body)).toMatch(/Which one did you mean/);
    const choices = allButtons(prompt.body).filter((b) => b.custom_id?.startsWith('manzil:choose:'));
    expect(choices.length).toBeGreaterThan(1);
    const click = await fake.clickButton(choices[0]!.custom_id!, { id: prompt.messageId! });
    await fake.waitFor(() => lastFollowUp(click.token) !== undefined, 15_000);
    const chosen = lastFollowUp(click.token)!;
    expect(chosen.ephemeral).toBe(false);
    expect(text(chosen.body)).toMatch(/for rent in Jumeirah/);
  });
});

describe('autocomplete', () => {
  it('offers places for `location`, at most 25, named as the service names them', async () => {
    const { choices, ms } = await fake.autocomplete('rent', [query('2br'), location('dubai mar', true)]);
    expect(choices.map((c) => c.value)).toContain('Dubai Marina');
    expect(choices.length).toBeLessThanOrEqual(25);
    expect(ms).toBeLessThan(2_500);
  });

  it('answers `location` within the deadline even when the service is slow: from the cache, else empty', async () => {
    sandbox.addFault({ latencyMs: 4_000, count: 1 });
    const fresh = await fake.autocomplete('buy', [query('1br'), location('business b', true)]);
    expect(fresh.ms).toBeLessThan(1_500); // the deadline is 400 ms in this test; Discord allows 3 s
    expect(fresh.choices).toEqual([]);
    // Asked a moment ago (the test above): still offered while the service stalls.
    const cached = await fake.autocomplete('rent', [query('2br'), location('dubai mar', true)]);
    expect(cached.ms).toBeLessThan(1_500);
    expect(cached.choices.map((c) => c.value)).toContain('Dubai Marina');
  });

  it('shows how `query` will be understood as its first choice, with the location option taken into account', async () => {
    const { choices } = await fake.autocomplete('rent', [query('2br under 120k', true), location('Dubai Marina')]);
    expect(choices[0]).toEqual({ name: '2-bedroom homes for rent in Dubai Marina, up to AED 120,000 a year', value: '2br under 120k' });
    const alerts = await fake.autocomplete('alerts', [{ name: 'add', type: 1, options: [query('buy downtown 1br', true)] }]);
    expect(alerts.choices[0]!.name).toMatch(/1-bedroom homes for sale in downtown/i);
    const empty = await fake.autocomplete('buy', [query('', true)]);
    expect(empty.choices[0]!.name).toMatch(/^e\.g\. /);
  });
});

describe('Discord itself misbehaving', () => {
  it('waits out a 429 on the edit of the reply (X-RateLimit-Reset-After) and delivers it once', async () => {
    fake.rateLimitNext('PATCH', /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/, 0.3);
    const token = await slash('buy', [query('downtown 2br')]);
    expect(fake.original(token).embeds.length).toBeGreaterThan(0);
    const edits = fake.requests().filter((r) => r.method === 'PATCH' && r.path.includes(token));
    expect(edits.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.responses(token).filter((r) => r.kind === 'edit')).toHaveLength(1);
  });

  it('waits out a 429 on an ephemeral follow-up too', async () => {
    fake.rateLimitNext('POST', /^\/webhooks\/\d+\/[^/]+$/, 0.3);
    const token = await slash('property', [query('abc')]);
    const posts = fake.requests().filter((r) => r.method === 'POST' && r.path.endsWith(token));
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
    expect(lastFollowUp(token)?.ephemeral).toBe(true);
  });

  it('survives the gateway dropping the connection (1006): resumes and keeps answering', async () => {
    const before = fake.sessions();
    await fake.dropConnection(1006);
    expect(fake.sessions().resumed).toBeGreaterThan(before.resumed);
    const token = await slash('buy', [query('marina')]);
    expect(fake.original(token).embeds.length).toBeGreaterThan(0);
  });
});

describe('alerts on Discord', () => {
  const channelPosts = () => fake.messages(fake.channelId);

  it('saves with /alerts add, lets only the creator or Manage Server manage it, and lists it', async () => {
    const saved = await slash('alerts', [{ name: 'add', type: 1, options: [query('rent marina')] }], { user: '1180000000000000021' });
    expect(text(fake.original(saved) ?? lastFollowUp(saved)?.body)).toMatch(/Saved as alert #1: Homes for rent in Dubai Marina/);
    const pause = (user: string, permissions?: string) =>
      slash('alerts', [{ name: 'pause', type: 1, options: [{ name: 'number', type: 4, value: 1 }] }], { user, ...(permissions ? { permissions } : {}) });
    const refused = await pause('1180000000000000022');
    expect(fake.responses(refused)[0]).toMatchObject({ kind: 'callback', type: 5, ephemeral: true });
    expect(text(fake.original(refused))).toMatch(/Only the person who saved alert #1/);
    expect(text(fake.original(await pause('1180000000000000023', MANAGE_GUILD)))).toMatch(/Paused alert #1/);
    const resumed = await slash('alerts', [{ name: 'resume', type: 1, options: [{ name: 'number', type: 4, value: 1 }] }], { user: '1180000000000000021' });
    expect(text(fake.original(resumed))).toMatch(/Resumed alert #1/);
    expect(text(fake.original(await slash('alerts', [{ name: 'list', type: 1 }])))).toMatch(/Homes for rent in Dubai Marina/);
  });

  it('posts new listings to the channel with a nonce from the delivery id, each once', async () => {
    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
    const before = channelPosts().length;
    sandbox.advance(60);
    const report = await manzil.alerts.poll();
    expect(report.queued).toBeGreaterThan(0);
    await manzil.alerts.drainer.drain();
    await fake.waitFor(() => manzil.alerts.repo.stats().pending + manzil.alerts.repo.stats().sending === 0, 15_000);
    const posts = channelPosts().slice(before);
    expect(posts).toHaveLength(report.queued);
    expect(posts.every((p) => /^m\d+$/.test(p.nonce ?? '') && p.body.enforce_nonce === true)).toBe(true);
    expect(text(posts[0]!.body)).toMatch(/New listing · Alert #1|Price dropped/);
  });

  it('shows a post interrupted by a crash once: the re-send after the restart carries the same nonce', async () => {
    const before = channelPosts().length;
    sandbox.advance(60);
    const held = fake.holdNext('POST', /^\/channels\/\d+\/messages$/);
    const report = await manzil.alerts.poll(); // wakes the drainer, whose first post is held: created, never answered
    expect(report.queued).toBeGreaterThan(0);
    await held.arrived;
    const interrupted = channelPosts().at(-1)!;
    await manzil.stop(); // the answer never came: the entry stays "sending"
    held.release();
    await new Promise((r) => setTimeout(r, 1_100)); // its claim runs out (ALERTS_DELIVERY_LEASE_S=1)
    await boot();
    await manzil.alerts.drainer.drain();
    await fake.waitFor(() => manzil.alerts.repo.stats().pending + manzil.alerts.repo.stats().sending === 0, 15_000);
    const posts = channelPosts().slice(before);
    expect(posts.filter((p) => p.nonce === interrupted.nonce)).toHaveLength(1);
    expect(posts).toHaveLength(report.queued);
    const resent = fake.requests().filter((r) => r.method === 'POST' && (r.body as { nonce?: string })?.nonce === interrupted.nonce);
    expect(resent.length).toBeGreaterThanOrEqual(2); // sent twice, shown once
    expect(manzil.alerts.repo.stats().possibleDuplicates).toBe(0);
  });
});

describe('what Discord received', () => {
  it('was valid: every payload within Discord’s limits', () => {
    expect(fake.violations()).toEqual([]);
  });

  it('never saw the token or the key in a log line or a message', () => {
    const everything = logs.join('\n') + JSON.stringify(fake.requests().map((r) => r.body));
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(fake.botToken);
  });
});
