// Direct messages are one pool (`discord:@me`) that anyone with an account may join: each person there may spend only a
// part of its share (PERSON_DM_SHARE_PCT), so one person cannot spend everyone's and a new account adds no share. The
// real discord.js client started by the composition root, logged in to the fake Discord; DMs arrive as Discord sends
// them (no guild, the person as `user`); the sandbox is the property service, SQLite in a temp dir.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { runTeamsCli } from '../../src/ops/teams-cli.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTeamRepo, openStore } from '../../src/store/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-dm-share-7373';
const STRING = 3;
const ALICE = { user: '1180000000000000901', channelId: '1180000000000000911' };
const BOB = { user: '1180000000000000902', channelId: '1180000000000000912' };
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-dm-share-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      ALERTS_CRON: '0 0 1 1 *',
      // 1,000 calls a month; each team (the DMs' pool too) may spend a tenth: 100; each person in the DMs 3 % of that:
      // 3.
      UAE_API_BUDGET_PER_MONTH: '1000',
      TEAM_SHARE_PCT: '10',
      PERSON_DM_SHARE_PCT: '3',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  await fake.ready();
});
afterAll(async () => {
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});

/** `/rent <query>` in a person's DM with the bot; what the person is shown in the end (the reply, or a follow-up). */
async function rentInDm(who: { user: string; channelId: string }, query: string): Promise<string> {
  const { token } = await fake.slashCommand('rent', [{ name: 'query', type: STRING, value: query }], {
    ...who,
    dm: true,
  });
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  const last = fake
    .responses(token)
    .filter((r) => r.kind === 'edit' || r.kind === 'followup')
    .at(-1)!;
  return JSON.stringify(last.body);
}

const PART_SPENT = /You've used your part of this month's property lookups in direct messages/;
const RESULTS = /homes for rent in Dubai Marina/;

describe('a person’s part of the direct messages’ share', () => {
  it('stops one DM user at their part of the pool, while another DM user is still answered', async () => {
    const teams = createTeamRepo(openStore(manzil.config.dbPath));
    const alice = `discord:@me:${ALICE.user}`;
    let last = '';
    for (let i = 1; i <= 8 && !PART_SPENT.test(last); i++)
      last = await rentInDm(ALICE, `marina ${i}br under ${100 + i}k`);
    expect(last).toMatch(PART_SPENT);
    expect(last).not.toMatch(/discord:@me|@me/); // no internals in chat
    // Each call is counted (after it is made): Alice's three, in the pool's ledger and her own.
    await fake.waitFor(async () => (await teams.spent(alice)) === 3);
    expect(await teams.spent('discord:@me')).toBe(3);

    // Another person in their own DM is answered, and spends the pool, not Alice's part.
    expect(await rentInDm(BOB, 'marina 2br')).toMatch(RESULTS);
    await fake.waitFor(async () => (await teams.spent('discord:@me')) > 3);
    expect(await teams.spent(alice)).toBe(3);
    // (Bob's search, answered from the cache, would cost her nothing: another one.)
    expect(await rentInDm(ALICE, 'marina 2br under 90k')).toMatch(PART_SPENT);

    // The operator sees the pool as one team; its people are not teams of their own.
    const lines: string[] = [];
    expect(
      await runTeamsCli(
        [],
        manzil.config,
        (l) => lines.push(l),
        () => {},
      ),
    ).toBe(0);
    expect(lines.join('\n')).toMatch(/discord:@me\s/);
    expect(lines.join('\n')).not.toContain(ALICE.user);
  });
});
