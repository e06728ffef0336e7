// End to end: the real discord.js client started by the composition root and logged in to the fake Discord (REST and
// gateway on 127.0.0.1), the sandbox as the property service, SQLite in a temp dir. Interactions arrive as Discord
// sends them; every payload the bot sends is checked against Discord's limits by the fake.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-e2e-key-5151';
// Short beside Discord's 3 s, so a stalled service shows; long enough for a lookup on a loaded machine.
const AUTOCOMPLETE_DEADLINE_MS = 1_000;
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
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_RETRY_ATTEMPTS: '2',
      UAE_API_HEADERS_TIMEOUT_S: '2',
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_S: '0.5',
      ALERTS_DELIVERY_LEASE_S: '1',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
    discord: { autocompleteDeadlineMs: AUTOCOMPLETE_DEADLINE_MS },
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

const query = (value: string, focused = false) => ({
  name: 'query',
  type: STRING,
  value,
  ...(focused ? { focused: true } : {}),
});
const location = (value: string, focused = false) => ({
  name: 'location',
  type: STRING,
  value,
  ...(focused ? { focused: true } : {}),
});

/**
 * Runs a slash command and waits until the bot has answered it: a reply at once, @original edited, or a follow-up sent.
 */
async function slash(name: string, options: unknown[], opts?: { user?: string; permissions?: string }) {
  const { token } = await fake.slashCommand(name, options, opts);
  await fake.waitFor(
    () =>
      fake
        .responses(token)
        .some((r) => r.kind === 'edit' || r.kind === 'followup' || (r.kind === 'callback' && r.type === 4)),
    15_000,
  );
  return token;
}

/** The reply made at once (callback type 4), as the channel or the person sees it. */
const immediate = (token: string) => fake.responses(token).find((r) => r.kind === 'callback' && r.type === 4);

/** The value Discord sends when the person picks this place among the `location` choices. */
async function pickedLocation(typed: string, name: string): Promise<string> {
  const { choices } = await fake.autocomplete('rent', [query('2br'), location(typed, true)]);
  const choice = choices.find((c) => c.name === name);
  if (!choice) throw new Error(`no choice ${name} for "${typed}" among ${JSON.stringify(choices)}`);
  return choice.value;
}

const text = (m: DiscordJson) => JSON.stringify(m);
/** Interactions the bot answered after Discord's 3 s (the fake refused the answer). */
const expired = () => fake.violations().filter((v) => v.includes('Discord allows'));
/** Every button of a message, however nested (rows, Components V2 containers and sections). */
const allButtons = (m: DiscordJson): { label: string; custom_id?: string; url?: string }[] => {
  const walk = (list: DiscordJson[]): DiscordJson[] =>
    list.flatMap((c) => [
      ...(c.type === 2 ? [c] : []),
      ...walk(c.components ?? []),
      ...walk(c.accessory ? [c.accessory] : []),
    ]);
  return walk(m?.components ?? []);
};
/** What a message says: its content and, in Components V2, its text displays, in order. */
const shown = (m: DiscordJson): string => {
  const walk = (list: DiscordJson[]): string[] =>
    list.flatMap((c) => [...(c.type === 10 ? [String(c.content)] : []), ...walk(c.components ?? [])]);
  return [m.content ?? '', ...walk(m.components ?? [])].filter(Boolean).join('\n');
};
const IS_COMPONENTS_V2 = 1 << 15;
/** A search's listings in Components V2: one container each. */
const listings = (m: DiscordJson): DiscordJson[] => (m.components ?? []).filter((c: DiscordJson) => c.type === 17);
const buttonId = (m: DiscordJson, label: RegExp): string => {
  const found = allButtons(m).find((b) => label.test(b.label));
  if (!found?.custom_id) throw new Error(`no button ${label} in ${text(m).slice(0, 400)}`);
  return found.custom_id;
};
/** The last follow-up of an interaction (where ephemeral answers go). */
const lastFollowUp = (token: string) =>
  fake
    .responses(token)
    .filter((r) => r.kind === 'followup')
    .at(-1);

describe('slash commands', () => {
  it('defers at once, then edits the reply into Components V2: a container per listing with its photo, price and beds, Details and the link', async () => {
    const token = await slash('rent', [query('marina 2br under 200k')]);
    const [first] = fake.responses(token);
    expect(first).toMatchObject({ kind: 'callback', type: 5, ephemeral: false });
    const reply = fake.original(token);
    expect(reply.flags & IS_COMPONENTS_V2).toBe(IS_COMPONENTS_V2);
    expect(reply.content).toBe('');
    expect(reply.embeds).toEqual([]);
    expect(shown(reply)).toMatch(/2-bedroom homes for rent in Dubai Marina/);
    const cards = listings(reply);
    expect(cards).toHaveLength(4);
    for (const card of cards) {
      const [section, row] = card.components;
      expect(section.type).toBe(9);
      expect(section.components[0].content).toMatch(/^### AED [\d,]+\/yr · 2 beds\n/);
      expect(section.accessory).toMatchObject({ type: 11, media: { url: expect.stringMatching(/^https:\/\//) } });
      expect(row.components.map((b: DiscordJson) => b.label)).toEqual(['Details', 'View listing']);
    }
    const links = allButtons(reply).flatMap((b) => (b.url ? [b.url] : []));
    expect(new Set(links).size).toBe(cards.length);
    expect(allButtons(reply).map((b) => b.label)).toEqual(expect.arrayContaining(['Save as alert', 'Next ▶']));
    expect(fake.violations()).toEqual([]);
  });

  it('takes an area typed in the location option (not picked from the list) as the area', async () => {
    const token = await slash('buy', [query('1br'), location('Downtown Dubai')]);
    expect(shown(fake.original(token))).toMatch(/1-bedroom homes for sale in Downtown Dubai/);
  });

  it('searches the area picked in `location` by its id, with no second lookup of its name', async () => {
    const picked = await pickedLocation('downtown dub', 'Downtown Dubai');
    expect(picked).toMatch(/^\d+:Downtown Dubai$/);
    const id = picked.split(':')[0]!;
    sandbox.clearRequests();
    const token = await slash('rent', [query('1br'), location(picked)]);
    expect(shown(fake.original(token))).toMatch(/1-bedroom homes for rent in Downtown Dubai/);
    expect(listings(fake.original(token)).length).toBeGreaterThan(0);
    const calls = sandbox.requests();
    expect(calls.filter((r) => r.path.includes('autocomplete-location'))).toEqual([]);
    // The search (and the cards' market context, read for the same area) ask for that id only.
    expect(calls.filter((r) => r.path.startsWith('/search-')).map((r) => r.params.location_id)).toEqual([id]);
    expect(new Set(calls.filter((r) => r.params.location_id !== undefined).map((r) => r.params.location_id))).toEqual(
      new Set([id]),
    );
  });

  it('searches the id picked even when another area has the same name (the first of that name is not taken)', async () => {
    const marina = (await pickedLocation('dubai mar', 'Dubai Marina')).split(':')[0]!;
    const downtown = (await pickedLocation('downtown dub', 'Downtown Dubai')).split(':')[0]!;
    expect(downtown).not.toBe(marina);
    sandbox.clearRequests();
    // As if Downtown Dubai were also called "Dubai Marina": the choice's id is what is searched, not the name.
    await slash('rent', [query('2br'), location(`${downtown}:Dubai Marina`)]);
    expect(
      new Set(
        sandbox
          .requests()
          .filter((r) => r.params.location_id !== undefined)
          .map((r) => r.params.location_id),
      ),
    ).toEqual(new Set([downtown]));
  });

  it('when the query names an area and `location` picks another, searches the one picked and says so', async () => {
    const picked = await pickedLocation('downtown dub', 'Downtown Dubai');
    const { choices } = await fake.autocomplete('rent', [query('marina 2br', true), location(picked)]);
    expect(choices[0]!.name).toBe(
      '2-bedroom homes for rent in Downtown Dubai (the location picked; "marina" left out)',
    );
    const token = await slash('rent', [query('marina 2br'), location(picked)]);
    expect(fake.responses(token)[0]).toMatchObject({ kind: 'callback', type: 5, ephemeral: false });
    const reply = fake.original(token);
    expect(shown(reply)).toMatch(/^## 2-bedroom homes for rent in Downtown Dubai\n/);
    expect(shown(reply)).toContain(
      'Searching Downtown Dubai, the location you picked; "marina" in the query was left out.',
    );
    expect(text(reply)).not.toMatch(/already in quotes|didn't understand/);
    expect(listings(reply).length).toBeGreaterThan(0);
  });

  it('says nothing more when the area typed and the area picked are the same', async () => {
    const picked = await pickedLocation('dubai mar', 'Dubai Marina');
    const token = await slash('rent', [query('marina 2br'), location(picked)]);
    expect(shown(fake.original(token))).toMatch(/2-bedroom homes for rent in Dubai Marina/);
    expect(shown(fake.original(token))).not.toMatch(/left out/);
  });

  it('answers a mistake only to the person, at once: no public message at all, not even a "thinking…"', async () => {
    const token = await slash('rent', [query('marina 2br under')]);
    const log = fake.responses(token);
    expect(log.map((r) => `${r.kind}:${r.type ?? ''}`)).toEqual(['callback:4']);
    expect(log.every((r) => r.ephemeral)).toBe(true);
    expect(immediate(token)!.body.content).toMatch(/"under" what\?/);
    const callbacks = fake
      .requests()
      .filter((r) => r.path.startsWith('/interactions/') && r.path.endsWith(`/${token}/callback`));
    expect(callbacks.map((r) => (r.body as DiscordJson).type)).toEqual([4]);
    expect(callbacks.every((r) => ((r.body as DiscordJson).data.flags & 64) === 64)).toBe(true);
  });

  it('says the property service is busy when it keeps failing (503), ephemeral, never "no results"', async () => {
    sandbox.addFault({ status: 503, count: 10 });
    const token = await slash('rent', [query('business bay 3br')]);
    const answer = lastFollowUp(token)!;
    expect(answer.ephemeral).toBe(true);
    expect(text(answer.body)).toMatch(/property service is busy/);
    expect(text(answer.body)).not.toMatch(/No results/);
  });

  it('shows help from /manzil at once, only to the person', async () => {
    const token = await slash('manzil', [query('help')]);
    expect(fake.responses(token)).toEqual([expect.objectContaining({ kind: 'callback', type: 4, ephemeral: true })]);
    expect(text(immediate(token)!.body)).toMatch(/rent/);
  });
});

describe('buttons', () => {
  it('Next replaces the message with the next listings; Previous brings the first page back', async () => {
    const token = await slash('rent', [query('marina')]);
    // Each listing's link: which listings the page shows.
    const titles = (m: DiscordJson): string[] => listings(m).flatMap((c) => allButtons(c).flatMap((b) => b.url ?? []));
    const first = titles(fake.original(token));
    const click = await fake.clickButton(buttonId(fake.original(token), /Next/), { id: token });
    await fake.waitFor(() => fake.responses(click.token).some((r) => r.kind === 'edit'), 15_000);
    expect(fake.responses(click.token)[0]).toMatchObject({ kind: 'callback', type: 6 });
    const second = fake.original(token);
    // Edited as Components V2 again (the flag can never come off), within Discord's rules.
    expect(second.flags & IS_COMPONENTS_V2).toBe(IS_COMPONENTS_V2);
    expect(fake.violations()).toEqual([]);
    expect(titles(second).length).toBeGreaterThan(0);
    expect(titles(second).some((t) => first.includes(t))).toBe(false);
    const back = await fake.clickButton(buttonId(second, /Previous/), { id: token });
    await fake.waitFor(() => fake.responses(back.token).some((r) => r.kind === 'edit'), 15_000);
    expect(titles(fake.original(token))).toEqual(first);
  });

  it('Details answers with the property, only to the person', async () => {
    const token = await slash('buy', [query('marina')]);
    const click = await fake.clickButton(buttonId(fake.original(token), /^Details$/), { id: token });
    await fake.waitFor(() => lastFollowUp(click.token) !== undefined, 15_000);
    const details = lastFollowUp(click.token)!;
    expect(details.ephemeral).toBe(true);
    expect(text(details.body)).toMatch(/AED|Price on request/);
  });

  it('asks which area when the location is ambiguous, privately, and runs the search on a choice', async () => {
    const token = await slash('rent', [query('jumeirah village 1br')]);
    const prompt = lastFollowUp(token)!;
    expect(prompt.ephemeral).toBe(true);
    expect(text(prompt.body)).toMatch(/Which one did you mean/);
    const choices = allButtons(prompt.body).filter((b) => b.custom_id?.startsWith('manzil:choose:'));
    expect(choices.length).toBeGreaterThan(1);
    const click = await fake.clickButton(choices[0]!.custom_id!, { id: prompt.messageId! });
    await fake.waitFor(() => lastFollowUp(click.token) !== undefined, 15_000);
    const chosen = lastFollowUp(click.token)!;
    expect(chosen.ephemeral).toBe(false);
    // The search comes as a follow-up in Components V2, after a private prompt in embeds.
    expect(chosen.body.flags & IS_COMPONENTS_V2).toBe(IS_COMPONENTS_V2);
    expect(listings(chosen.body).length).toBeGreaterThan(0);
    expect(shown(chosen.body)).toMatch(/for rent in Jumeirah/);
    expect(fake.violations()).toEqual([]);
  });
});

describe('autocomplete', () => {
  it('offers areas for `location`, at most 25, named as the service names them, each carrying its id', async () => {
    const { choices } = await fake.autocomplete('rent', [query('2br'), location('dubai mar', true)]);
    expect(choices.map((c) => c.name)).toContain('Dubai Marina');
    expect(choices.find((c) => c.name === 'Dubai Marina')!.value).toMatch(/^\d+:Dubai Marina$/);
    expect(new Set(choices.map((c) => c.value)).size).toBe(choices.length);
    expect(choices.length).toBeLessThanOrEqual(25);
    // In time: the fake refuses an answer after Discord's 3 s, and autocomplete() then rejects.
    expect(expired()).toEqual([]);
  });

  it('answers `location` within the deadline even when the service is slow: from the cache, else empty', async () => {
    // Every service call stalls for 4 s during both halves (cleared after the test); the bot's deadline is 1 s.
    sandbox.addFault({ latencyMs: 4_000 });
    const deadlineMs = AUTOCOMPLETE_DEADLINE_MS;
    const fresh = await fake.autocomplete('buy', [query('1br'), location('business b', true)]);
    expect(fresh.choices).toEqual([]);
    expect(fresh.ms).toBeGreaterThanOrEqual(deadlineMs - 50); // it did wait for the stalled service, up to the deadline
    // And no longer: waiting for the service (4 s) would miss Discord's 3 s, which the fake refuses (autocomplete()
    // rejects).
    expect(expired()).toEqual([]);
    // Asked a moment ago (the test above): offered from the cache while the service still stalls, without waiting for
    // it: no lookup reached the service before the answer.
    sandbox.clearRequests();
    const cached = await fake.autocomplete('rent', [query('2br'), location('dubai mar', true)]);
    expect(cached.choices.map((c) => c.name)).toContain('Dubai Marina');
    const lookups = sandbox.requests().filter((r) => r.path === '/autocomplete-location');
    expect(lookups.map((r) => r.params.query).filter((q) => /dubai/i.test(q ?? ''))).toEqual([]);
  });

  it('shows how `query` will be understood as its first choice, with the location option taken into account', async () => {
    const { choices } = await fake.autocomplete('rent', [query('2br under 120k', true), location('Dubai Marina')]);
    expect(choices[0]).toEqual({
      name: '2-bedroom homes for rent in Dubai Marina, up to AED 120,000 a year',
      value: '2br under 120k',
    });
    const alerts = await fake.autocomplete('alerts', [
      { name: 'add', type: 1, options: [query('buy downtown 1br', true)] },
    ]);
    expect(alerts.choices[0]!.name).toMatch(/1-bedroom homes for sale in downtown/i);
    const empty = await fake.autocomplete('buy', [query('', true)]);
    expect(empty.choices[0]!.name).toMatch(/^e\.g\. /);
  });
});

describe('Discord itself misbehaving', () => {
  // Retry-After says 60 s, X-RateLimit-Reset-After 0.3 s: the answer lands within seconds, so discord.js waited the
  // bucket's Reset-After (a client waiting Retry-After would miss the 15 s the helper allows).
  it('waits out a 429 on the edit of the reply for X-RateLimit-Reset-After (not Retry-After) and delivers it once', async () => {
    fake.rateLimitNext('PATCH', /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/, 0.3, { retryAfterSeconds: 60 });
    const started = Date.now();
    const token = await slash('buy', [query('downtown 2br')]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(listings(fake.original(token)).length).toBeGreaterThan(0);
    const edits = fake.requests().filter((r) => r.method === 'PATCH' && r.path.includes(token));
    expect(edits.map((r) => r.status)).toEqual([429, 200]);
    expect(edits[1]!.at - edits[0]!.at).toBeGreaterThanOrEqual(250);
    expect(fake.responses(token).filter((r) => r.kind === 'edit')).toHaveLength(1);
  });

  it('waits out a 429 on an ephemeral follow-up too, for X-RateLimit-Reset-After, and sends it once', async () => {
    fake.rateLimitNext('POST', /^\/webhooks\/\d+\/[^/]+$/, 0.3, { retryAfterSeconds: 60 });
    sandbox.addFault({ status: 503, count: 10 }); // an error the bot learns of only by calling: deferred, then a follow-up
    const started = Date.now();
    const token = await slash('property', [query('16266089')]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const posts = fake.requests().filter((r) => r.method === 'POST' && r.path.endsWith(token));
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.responses(token).filter((r) => r.kind === 'followup')).toHaveLength(1);
    expect(lastFollowUp(token)?.ephemeral).toBe(true);
  });

  it('survives the gateway dropping the connection (1006): resumes and keeps answering', async () => {
    const before = fake.sessions();
    await fake.dropConnection(1006);
    expect(fake.sessions().resumed).toBeGreaterThan(before.resumed);
    const token = await slash('buy', [query('marina')]);
    expect(listings(fake.original(token)).length).toBeGreaterThan(0);
  });
});

describe('alerts on Discord', () => {
  const channelPosts = () => fake.messages(fake.channelId);

  it('saves with /alerts add, lets only the creator or Manage Server manage it, and lists it', async () => {
    const saved = await slash('alerts', [{ name: 'add', type: 1, options: [query('rent marina')] }], {
      user: '1180000000000000021',
    });
    expect(text(fake.original(saved) ?? lastFollowUp(saved)?.body)).toMatch(
      /Saved as alert #1: Homes for rent in Dubai Marina/,
    );
    const pause = (user: string, permissions?: string) =>
      slash('alerts', [{ name: 'pause', type: 1, options: [{ name: 'number', type: 4, value: 1 }] }], {
        user,
        ...(permissions ? { permissions } : {}),
      });
    const refused = await pause('1180000000000000022');
    expect(fake.responses(refused)[0]).toMatchObject({ kind: 'callback', type: 5, ephemeral: true });
    expect(text(fake.original(refused))).toMatch(/Only the person who saved alert #1/);
    expect(text(fake.original(await pause('1180000000000000023', MANAGE_GUILD)))).toMatch(/Paused alert #1/);
    const resumed = await slash(
      'alerts',
      [{ name: 'resume', type: 1, options: [{ name: 'number', type: 4, value: 1 }] }],
      { user: '1180000000000000021' },
    );
    expect(text(fake.original(resumed))).toMatch(/Resumed alert #1/);
    expect(text(fake.original(await slash('alerts', [{ name: 'list', type: 1 }])))).toMatch(
      /Homes for rent in Dubai Marina/,
    );
  });

  it('posts new listings to the channel with a nonce from the delivery id, each once', async () => {
    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
    const before = channelPosts().length;
    sandbox.advance(60);
    const report = await manzil.alerts.poll();
    expect(report.queued).toBeGreaterThan(0);
    await manzil.alerts.drainer.drain();
    await fake.waitFor(
      async () => (await manzil.alerts.outbox.stats()).pending + (await manzil.alerts.outbox.stats()).sending === 0,
      15_000,
    );
    const posts = channelPosts().slice(before);
    expect(posts).toHaveLength(report.queued);
    expect(
      posts.every((p) => /^m[0-9a-f]{10}-[0-9a-f]{12}$/.test(p.nonce ?? '') && p.body.enforce_nonce === true),
    ).toBe(true);
    expect(text(posts[0]!.body)).toMatch(/New listing · Alert #1|Price dropped/);
    // Alerts keep embeds, with the words a push notification shows in `content`: a V2 message would have none.
    for (const p of posts) {
      expect((p.body.flags ?? 0) & IS_COMPONENTS_V2).toBe(0);
      expect(String(p.body.content)).not.toBe('');
      expect(p.body.embeds.length).toBeGreaterThan(0);
    }
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
    await fake.waitFor(
      async () => (await manzil.alerts.outbox.stats()).pending + (await manzil.alerts.outbox.stats()).sending === 0,
      15_000,
    );
    const posts = channelPosts().slice(before);
    expect(posts.filter((p) => p.nonce === interrupted.nonce)).toHaveLength(1);
    expect(posts).toHaveLength(report.queued);
    const resent = fake
      .requests()
      .filter((r) => r.method === 'POST' && (r.body as { nonce?: string })?.nonce === interrupted.nonce);
    expect(resent.length).toBeGreaterThanOrEqual(2); // sent twice, shown once
    expect((await manzil.alerts.outbox.stats()).possibleDuplicates).toBe(0);
  });
});

describe('what Discord received', () => {
  it('was valid: every payload within Discord’s limits', () => {
    expect(fake.violations()).toEqual([]);
  });

  it('identified with the Guilds intent alone (1): nothing privileged, no message content', () => {
    const identifies = fake.identifies();
    expect(identifies.length).toBeGreaterThan(0);
    expect(identifies.map((d) => d.intents)).toEqual(identifies.map(() => 1));
    expect(JSON.stringify(identifies)).not.toContain(fake.botToken);
  });

  it('never saw the token or the key in a log line or a message', () => {
    const everything = logs.join('\n') + JSON.stringify(fake.requests().map((r) => r.body));
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(fake.botToken);
  });
});
