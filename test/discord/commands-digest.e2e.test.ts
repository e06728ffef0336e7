// `/digest` end to end on Discord (issue 16): the real discord.js client started by the composition root, logged in to
// the fake Discord (REST and gateway on 127.0.0.1), the sandbox as the property service, SQLite in a temp dir. The
// areas autocomplete answers within the deadline; each subcommand reaches the core and is answered; `/manzil help`
// names alerts and digests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-digest-e2e-7373';
const SUBCOMMAND = 1;
const STRING = 3;
const INTEGER = 4;
// Short beside Discord's 3 s, so a stalled service shows; long enough for a lookup on a loaded machine.
const DEADLINE_MS = 1_000;
const OWNER = '1180000000000000031';
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  const dir = mkdtempSync(join(tmpdir(), 'manzil-discord-digest-'));
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_RETRY_ATTEMPTS: '2',
      UAE_API_HEADERS_TIMEOUT_S: '2',
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(dir, 'manzil.db'),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_S: '0.5',
    },
    host: '127.0.0.1',
    writeLog: () => {},
    discord: { autocompleteDeadlineMs: DEADLINE_MS },
  });
  await fake.ready();
  // The first lookup pays for cold code and connections; the tests' lookups are warm, as most keystrokes are.
  await fake.autocomplete('digest', digest('add', [string('places', 'downtown dub', true)]));
}, 30_000);
afterAll(async () => {
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});
afterEach(() => sandbox.clearFaults());

const string = (name: string, value: string, focused = false) => ({
  name,
  type: STRING,
  value,
  ...(focused ? { focused: true } : {}),
});
const digest = (subcommand: string, options: unknown[] = []) => [{ name: subcommand, type: SUBCOMMAND, options }];
const numbered = (subcommand: string, n: number) => digest(subcommand, [{ name: 'number', type: INTEGER, value: n }]);

/**
 * Runs a slash command and waits until the bot has answered it: a reply at once, @original edited, or a follow-up sent.
 */
async function slash(name: string, options: unknown[], opts?: { user?: string }) {
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

/** Interactions the bot answered after Discord's 3 s (the fake refused the answer). */
const expired = () => fake.violations().filter((v) => v.includes('Discord allows'));

/**
 * What the person sees: the reply at once, the edited @original, or the last follow-up; and whether only they see it.
 */
function answer(token: string): { text: string; ephemeral: boolean } {
  const log = fake.responses(token);
  const last = [...log]
    .reverse()
    .find((r) => r.kind === 'followup' || r.kind === 'edit' || (r.kind === 'callback' && r.type === 4))!;
  const ephemeral = last.kind === 'edit' ? log[0]!.ephemeral : last.ephemeral;
  const body: DiscordJson = last.kind === 'edit' ? (fake.original(token) ?? last.body) : last.body;
  return { text: JSON.stringify(body), ephemeral };
}

describe('/digest add areas: autocomplete', () => {
  it('offers areas for the last comma-separated part, keeping the ones before, within the deadline', async () => {
    const first = await fake.autocomplete('digest', digest('add', [string('places', 'dubai mar', true)]));
    expect(first.choices.map((c) => c.name)).toContain('Dubai Marina');
    const second = await fake.autocomplete(
      'digest',
      digest('add', [string('places', 'Dubai Marina, business b', true)]),
    );
    expect(second.choices).toContainEqual({ name: 'Dubai Marina, Business Bay', value: 'Dubai Marina, Business Bay' });
    expect(second.choices.length).toBeLessThanOrEqual(25);
    expect(second.choices.every((c) => c.value.startsWith('Dubai Marina, ') && c.value.length <= 100)).toBe(true);
    const now = await fake.autocomplete('digest', digest('now', [string('places', 'dubai mar', true)]));
    expect(now.choices.map((c) => c.name)).toContain('Dubai Marina');
    // In time: the fake refuses an answer after Discord's 3 s, and autocomplete() then rejects.
    expect(expired()).toEqual([]);
  });

  it('answers within the deadline when the service stalls: from the cache, else nothing', async () => {
    sandbox.addFault({ latencyMs: 4_000 });
    const fresh = await fake.autocomplete(
      'digest',
      digest('add', [string('places', 'Dubai Marina, jumeirah vil', true)]),
    );
    expect(fresh.choices).toEqual([]);
    expect(fresh.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50); // it waited for the stalled service, up to the deadline
    // And no longer: waiting for the service (4 s) would miss Discord's 3 s, which the fake refuses (autocomplete()
    // rejects).
    expect(expired()).toEqual([]);
    // From the cache while the service still stalls, without waiting for it: no lookup reached it before the answer.
    sandbox.clearRequests();
    const cached = await fake.autocomplete('digest', digest('add', [string('places', 'dubai mar', true)]));
    expect(cached.choices.map((c) => c.name)).toContain('Dubai Marina');
    const lookups = sandbox.requests().filter((r) => r.path === '/autocomplete-location');
    expect(lookups.map((r) => r.params.query).filter((q) => /dubai/i.test(q ?? ''))).toEqual([]);
  });
});

describe('/digest through the gateway to the core', () => {
  it('add saves the digest with its schedule and says so in the channel', async () => {
    const token = await slash(
      'digest',
      digest('add', [
        string('places', 'Dubai Marina, Business Bay'),
        string('schedule', 'weekly'),
        string('day', 'friday'),
        string('time', '18:30'),
      ]),
      { user: OWNER },
    );
    const saved = answer(token);
    expect(saved.text).toMatch(
      /Saved digest #1: Dubai Marina, Business Bay, every Friday at 18:30 \(Asia\/Dubai\); the first on /,
    );
    expect(saved.ephemeral).toBe(false);
    expect(fake.violations()).toEqual([]);
  });

  it('a time that is not one is answered privately and saves nothing', async () => {
    const token = await slash('digest', digest('add', [string('places', 'Dubai Marina'), string('time', '25:00')]), {
      user: OWNER,
    });
    expect(answer(token)).toEqual({ text: expect.stringMatching(/25:00\W+ is not a time of day/), ephemeral: true });
  });

  it('list, pause, resume and remove answer only the person', async () => {
    const list = answer(await slash('digest', digest('list'), { user: OWNER }));
    expect(list.text).toMatch(/#1 · Dubai Marina, Business Bay · every Friday at 18:30/);
    expect(list.ephemeral).toBe(true);
    expect(answer(await slash('digest', numbered('pause', 1), { user: OWNER }))).toEqual({
      text: expect.stringMatching(/Paused digest #1/),
      ephemeral: true,
    });
    expect(answer(await slash('digest', numbered('resume', 1), { user: OWNER }))).toEqual({
      text: expect.stringMatching(/Resumed digest #1/),
      ephemeral: true,
    });
    expect(answer(await slash('digest', numbered('remove', 1), { user: '1180000000000000032' })).text).toMatch(
      /Only the person who added digest #1/,
    );
    expect(answer(await slash('digest', numbered('remove', 1), { user: OWNER })).text).toMatch(
      /Removed digest #1 \(Dubai Marina, Business Bay\)/,
    );
  });

  it('now says it is composing, privately; the digest itself comes to the channel', async () => {
    const before = fake.messages(fake.channelId).length;
    const token = await slash('digest', digest('now', [string('places', 'Dubai Marina')]), { user: OWNER });
    expect(answer(token)).toEqual({
      text: expect.stringMatching(/Composing the digest of Dubai Marina/),
      ephemeral: true,
    });
    await fake.waitFor(() => fake.messages(fake.channelId).length > before, 30_000);
    const posts = fake.messages(fake.channelId).slice(before);
    expect(JSON.stringify(posts)).toMatch(/Dubai Marina/);
    // Its chart, attached (the invite's permissions include Attach Files) and shown in an embed.
    expect(posts.flatMap((p) => fake.message(p.id)?.attachments ?? []).map((a: DiscordJson) => a.filename)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.png$/)]),
    );
    expect(fake.violations()).toEqual([]);
  }, 40_000);

  it('/manzil help names alerts and digests', async () => {
    const help = answer(await slash('manzil', [string('query', 'help')]));
    expect(help.ephemeral).toBe(true);
    expect(help.text).toContain('/alerts add|list|pause|resume|remove|test');
    expect(help.text).toContain('/digest add|list|remove|pause|resume|now');
    const digestHelp = answer(await slash('manzil', [string('query', 'help digest')]));
    expect(digestHelp.text).toContain('/digest now <place>[, <place>...]');
  });
});
