// The area pickers' suggestions spend the asking team's share (issue 25): the real composition root on a sandbox over
// loopback, typing sent as Slack sends it (signed block_suggestion requests to real Bolt) and as Discord sends it
// (autocomplete interactions to real discord.js on the fake gateway). A stranger typing string after string into a
// picker makes calls only until they reach their hourly limit, then their workspace's share; the calls are counted in
// /metrics under that team; cached answers are still given; another workspace is untouched.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTeamRepo, openStore } from '../../src/store/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockSuggestion, signedPost } from '../fakes/slack-sign.js';

const KEY = 'sk-suggestions-share-2525';
const SECRET = 'suggestions-signing-secret';
// 400 calls a month, each team's share 5 % of them: 20. One person: 8 calls' worth of suggestions an hour.
const LIMITS = { UAE_API_BUDGET_PER_MONTH: '400', TEAM_SHARE_PCT: '5', PERSON_SUGGESTIONS_PER_HOUR: '8' };
const SHARE = 20;
const PER_PERSON = 8;

/** Two-character texts, as a stranger would type them to spend calls: "aa", "ab", … none a prefix of another. */
const strings = (() => {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...chars].flatMap((a) => [...chars].map((b) => a + b));
})();

/** The sum of a /metrics counter's lines that start with `prefix` (0 when there are none). */
async function counted(manzil: Manzil, prefix: string): Promise<number> {
  const lines = (await manzil.metrics.text()).split('\n').filter((l) => l.startsWith(prefix));
  return lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** The team's upstream calls as /metrics reports them. */
const teamCalls = (manzil: Manzil, team: string) => counted(manzil, `manzil_team_upstream_calls_total{team="${team}"}`);

/**
 * Waits until every lookup the sandbox received has been answered and counted (with its team's charge): one slower than
 * the picker's deadline goes on after the picker was answered, and the next keystroke must find it counted.
 */
async function settled(manzil: Manzil, sandbox: Sandbox): Promise<void> {
  const lookups = () => sandbox.requests().filter((r) => r.path === '/autocomplete-location').length;
  const done = () => counted(manzil, 'manzil_upstream_calls_total{operation="autocomplete-location"');
  await vi.waitUntil(async () => (await done()) === lookups(), { timeout: 15_000, interval: 20 });
}

function env(dir: string, extra: Record<string, string>) {
  return {
    UAE_API_KEY: KEY,
    PORT: '0',
    MANZIL_DB_PATH: join(dir, 'manzil.db'),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ALERTS_CRON: '0 0 1 1 *',
    ...LIMITS,
    ...extra,
  };
}

describe('Slack: typing into the Refine picker', () => {
  let sandbox: Sandbox;
  let slack: FakeSlack;
  let manzil: Manzil;
  let events: string;
  const logs: string[] = [];
  const STRANGER = 'slack:T0STRANGER';

  beforeAll(async () => {
    sandbox = createSandbox({ key: KEY });
    await sandbox.listen();
    slack = await startFakeSlack();
    manzil = await startManzil({
      env: env(mkdtempSync(join(tmpdir(), 'manzil-suggest-slack-')), {
        UAE_API_BASE_URL: sandbox.url!,
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
      }),
      host: '127.0.0.1',
      writeLog: (l) => logs.push(l),
    });
    events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  });
  afterAll(async () => {
    await manzil?.stop();
    await slack?.close();
    await sandbox?.close();
  });
  const lookups = () => sandbox.requests().filter((r) => r.path === '/autocomplete-location').length;
  /** Types `value` as `user` of `team`; the options the picker shows. */
  async function type(value: string, user: string, team = 'T0STRANGER'): Promise<string[]> {
    const res = await signedPost(events, SECRET, blockSuggestion('manzil:location', 'refine-1', value, { user, team }));
    expect(res.status).toBe(200);
    await settled(manzil, sandbox);
    return (JSON.parse(res.text) as { options: { text: { text: string } }[] }).options.map((o) => o.text.text);
  }

  it('lets one person make only their hourly calls; what is cached they are still shown', async () => {
    await type('du', 'U0STRANGER1');
    for (const s of strings.slice(0, 30)) await type(s, 'U0STRANGER1');
    expect(lookups()).toBe(PER_PERSON); // "du" and the next seven; the other 23 texts cost nothing
    expect(await type('du', 'U0STRANGER1')).toContain('Dubai Marina'); // from the cache, past the limit
    expect(await type('dubai mari', 'U0STRANGER1')).toContain('Dubai Marina'); // narrowed from a cached prefix
    expect(lookups()).toBe(PER_PERSON);
    // One log line for the operator, not one a keystroke; no secret in any line.
    expect(
      logs.filter((l) => l.includes('reached the hourly limit') && l.includes('U0STRANGER1') && l.includes(STRANGER)),
    ).toHaveLength(1);
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it("stops at the workspace's share, counted under it in /metrics, and leaves other workspaces their own", async () => {
    let next = 30;
    for (const user of ['U0STRANGER2', 'U0STRANGER3', 'U0STRANGER4'])
      for (let i = 0; i < 12; i++) await type(strings[next++]!, user);
    // The first person's 8, then 8 and 4 more: the share of 20 is spent, and the fourth person makes no call at all.
    expect(lookups()).toBe(SHARE);
    expect(await teamCalls(manzil, STRANGER)).toBe(SHARE);
    expect(await createTeamRepo(openStore(manzil.config.dbPath)).spent(STRANGER)).toBe(SHARE);
    // Another workspace is answered from the service, and pays for it itself.
    expect(await type('downt', 'U0NEIGHBOUR', 'T0NEIGHBOUR')).toContain('Downtown Dubai');
    expect(lookups()).toBe(SHARE + 1);
    expect(await teamCalls(manzil, 'slack:T0NEIGHBOUR')).toBe(1);
    expect(await teamCalls(manzil, STRANGER)).toBe(SHARE);
  });
});

describe('Discord: autocomplete of location and areas', () => {
  const STRING = 3;
  const SUBCOMMAND = 1;
  let sandbox: Sandbox;
  let fake: FakeDiscord;
  let manzil: Manzil;
  let guild: string;

  beforeAll(async () => {
    sandbox = createSandbox({ key: KEY });
    await sandbox.listen();
    fake = await startFakeDiscord();
    guild = `discord:${fake.guildId}`;
    manzil = await startManzil({
      env: env(mkdtempSync(join(tmpdir(), 'manzil-suggest-discord-')), {
        UAE_API_BASE_URL: sandbox.url!,
        DISCORD_TOKEN: fake.botToken,
        DISCORD_API_URL: fake.apiUrl,
      }),
      host: '127.0.0.1',
      writeLog: () => {},
      discord: { autocompleteDeadlineMs: 2_000 },
    });
    await fake.ready();
  });
  afterAll(async () => {
    await manzil?.stop();
    await fake?.close();
    await sandbox?.close();
  });

  const lookups = () => sandbox.requests().filter((r) => r.path === '/autocomplete-location').length;
  /** Types into `/rent location` or `/digest add areas`, as `user`. */
  async function type(value: string, user: string, where: 'location' | 'places'): Promise<string[]> {
    const { choices } =
      where === 'location'
        ? await fake.autocomplete('rent', [{ name: 'location', type: STRING, value, focused: true }], 3_000, { user })
        : await fake.autocomplete(
            'digest',
            [{ name: 'add', type: SUBCOMMAND, options: [{ name: 'places', type: STRING, value, focused: true }] }],
            3_000,
            { user },
          );
    await settled(manzil, sandbox);
    return choices.map((c) => c.name);
  }

  it("limits each person, then the server's share; the calls are the server's in /metrics", async () => {
    await type('du', '1180000000000000021', 'location');
    for (const [i, s] of strings.slice(0, 14).entries())
      await type(s, '1180000000000000021', i % 2 ? 'places' : 'location');
    expect(lookups()).toBe(PER_PERSON);
    expect(await type('du', '1180000000000000021', 'places')).toContain('Dubai Marina'); // cached: still shown
    let next = 14;
    for (const user of ['1180000000000000022', '1180000000000000023', '1180000000000000024']) {
      for (let i = 0; i < 12; i++) await type(strings[next++]!, user, i % 2 ? 'places' : 'location');
    }
    expect(lookups()).toBe(SHARE);
    expect(await teamCalls(manzil, guild)).toBe(SHARE);
  });
});
