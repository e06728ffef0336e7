// Personal alerts on Discord, end to end: the real discord.js client logged in to the fake Discord, the sandbox's
// market clock. An alert saved "for me" is posted to the person's DM with the bot (POST /users/@me/channels, then the
// DM's messages), never to the channel, and listed to its owner alone; a person who blocks the bot (50007) has it
// paused with the reason after one refused post, and resumes it once unblocked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-personal-6161';
const ALICE = '700000000000000001';
const BOB = '700000000000000002';
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;
const logs: string[] = [];

/** Runs `/alerts <sub>` with its options as `user`; the reply's JSON as the person saw it. */
async function alerts(sub: string, options: unknown[], user: string): Promise<string> {
  const { token } = await fake.slashCommand('alerts', [{ name: sub, type: 1, options }], {
    user,
    channelId: fake.channelId,
  });
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  return JSON.stringify(fake.responses(token).filter((r) => r.kind !== 'callback'));
}

const dmPosts = () => {
  const dm = fake.dmChannelOf(ALICE);
  return dm ? fake.messages(dm) : [];
};
/** Requests that could write to Alice: opening her DM, or posting in it. */
const writes = () =>
  fake
    .requests()
    .filter(
      (r) =>
        r.method === 'POST' &&
        (r.path === '/users/@me/channels' || r.path === `/channels/${fake.dmChannelOf(ALICE)}/messages`),
    ).length;

async function runs(n: number, until: () => boolean = () => false): Promise<void> {
  for (let i = 0; i < n && !until(); i++) {
    sandbox.advance(120);
    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
  }
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-discord-personal-')), 'manzil.db');
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'warn',
      ALERTS_DELIVERY_LEASE_S: '1',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
  });
  await fake.ready();
}, 60_000);
afterAll(async () => {
  await manzil.stop();
  await fake.close();
  await sandbox.close();
});

describe('a personal alert on Discord', () => {
  it('reaches only its owner’s DM, and only its owner lists it', async () => {
    const saved = await alerts(
      'add',
      [
        { name: 'query', type: 3, value: 'rent marina' },
        { name: 'for_me', type: 5, value: true },
      ],
      ALICE,
    );
    expect(saved).toMatch(/Saved as your alert #1 \(to me\): Homes for rent in Dubai Marina/);
    expect(await alerts('list', [], BOB)).toMatch(/No alerts in this channel yet/);
    expect(await alerts('list', [], ALICE)).toMatch(
      /#1 · Homes for rent in Dubai Marina · instant, checked [^"]* · to me/,
    );

    await runs(10, () => dmPosts().length > 0);
    expect(dmPosts().length).toBeGreaterThan(0);
    expect(JSON.stringify(dmPosts()[0]!.body)).toMatch(/Alert #1 · Homes for rent in Dubai Marina/);
    expect(fake.messages(fake.channelId)).toHaveLength(0);
  });

  it('pauses once the person blocks the bot, with no loop, and resumes once unblocked', async () => {
    fake.blockBot(ALICE);
    const before = dmPosts().length;
    const writesBefore = writes();
    await runs(10, () => writes() > writesBefore);
    expect(writes() - writesBefore).toBe(1);
    await runs(4);
    expect(writes() - writesBefore).toBe(1);
    expect(dmPosts()).toHaveLength(before);
    expect(await alerts('list', [], ALICE)).toMatch(
      /paused: I could not send you direct messages \(discord: [^)]*50007[^)]*\)/,
    );
    expect(logs.some((l) => /personal alerts paused/.test(l))).toBe(true);
    expect(logs.filter((l) => l.includes(fake.botToken))).toEqual([]);

    fake.blockBot(ALICE, false);
    expect(
      await alerts(
        'resume',
        [
          { name: 'number', type: 4, value: 1 },
          { name: 'mine', type: 5, value: true },
        ],
        ALICE,
      ),
    ).toMatch(/Resumed alert #1/);
    await runs(10, () => dmPosts().length > before);
    expect(dmPosts().length).toBeGreaterThan(before);
  });
});
