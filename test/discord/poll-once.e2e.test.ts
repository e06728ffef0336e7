// `manzil poll --once` delivering to Discord, as a cron-style deployment runs it: an alert saved through the real
// discord.js client, then real poll processes against the sandbox and the fake Discord. One is killed with SIGKILL
// after Discord created its post but before it answered; the next run re-sends with the same nonce, and the channel
// shows the alert once.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { manzilArgs } from '../support/child.js';

const KEY = 'sk-discord-poll-once-5151';
// Each test runs two or three `manzil poll --once` processes one after another, which took past 30 s on a loaded
// machine: the test's own bound only proves no hang.
const NO_HANG_MS = 120_000;
let sandbox: Sandbox;
let fake: FakeDiscord;
let dbPath: string;

const env = () => ({
  UAE_API_KEY: KEY,
  UAE_API_BASE_URL: sandbox.url!,
  DISCORD_TOKEN: fake.botToken,
  DISCORD_API_URL: fake.apiUrl,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
  LOG_LEVEL: 'warn',
  ALERTS_DELIVERY_LEASE_S: '1',
});
const alertPosts = () =>
  fake.messages(fake.channelId).filter((m) => /^m[0-9a-f]{10}-[0-9a-f]{12}$/.test(m.nonce ?? ''));

function pollOnce() {
  const child = spawn(process.execPath, manzilArgs('poll', '--once'), {
    env: { PATH: process.env.PATH, HOME: tmpdir(), ...env(), MANZIL_FROM_SOURCE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return { child, output: () => out };
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-discord-poll-')), 'manzil.db');
  // The alert is saved in the chat, as a person saves it.
  const manzil = await startManzil({ env: env(), host: '127.0.0.1', writeLog: () => {} });
  const { token } = await fake.slashCommand(
    'alerts',
    [{ name: 'add', type: 1, options: [{ name: 'query', type: 3, value: 'rent marina' }] }],
    { channelId: fake.channelId },
  );
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  expect(JSON.stringify(fake.original(token))).toMatch(/Saved as alert #1/);
  await manzil.stop();
}, 120_000);
afterAll(async () => {
  await fake.close();
  await sandbox.close();
});

describe('manzil poll --once with Discord', () => {
  it(
    'posts each new listing to the channel once, and nothing on a run with nothing new',
    async () => {
      sandbox.advance(60);
      const run = pollOnce();
      const [code] = await once(run.child, 'exit');
      expect(code).toBe(0);
      const posts = alertPosts();
      expect(posts.length).toBeGreaterThan(0);
      expect(new Set(posts.map((p) => p.nonce)).size).toBe(posts.length);
      expect(JSON.stringify(posts[0]!.body)).toMatch(/New listing · Alert #1 · Homes for rent in Dubai Marina/);

      const quiet = pollOnce();
      expect((await once(quiet.child, 'exit'))[0]).toBe(0);
      expect(alertPosts()).toHaveLength(posts.length);
    },
    NO_HANG_MS,
  );

  it(
    'killed after Discord created a post but before it answered: the next run shows it once',
    async () => {
      sandbox.advance(60);
      const before = alertPosts().length;
      const held = fake.holdNext('POST', /^\/channels\/\d+\/messages$/);
      const run = pollOnce();
      await held.arrived;
      const interrupted = alertPosts().at(-1)!;
      run.child.kill('SIGKILL');
      await once(run.child, 'exit');
      held.release();
      await new Promise((r) => setTimeout(r, 1_100)); // the dead process's claim runs out (ALERTS_DELIVERY_LEASE_S=1)

      const again = pollOnce();
      const [code] = await once(again.child, 'exit');
      expect(code).toBe(0);
      const posts = alertPosts().slice(before);
      expect(posts.filter((p) => p.nonce === interrupted.nonce)).toHaveLength(1);
      expect(new Set(posts.map((p) => p.nonce)).size).toBe(posts.length);
      // Its summary: the interrupted entry delivered (re-sent within the nonce window: no duplicate), none left over.
      const summary = JSON.parse(
        again
          .output()
          .split('\n')
          .find((l) => l.startsWith('{"poll"'))!,
      ) as {
        delivery: { delivered: number; possibleDuplicates: number };
        outbox: { pending: number; sending: number; failed: number };
      };
      expect(summary.delivery).toMatchObject({ possibleDuplicates: 0 });
      expect(summary.delivery.delivered).toBeGreaterThan(0);
      expect(summary.outbox).toMatchObject({ pending: 0, sending: 0, failed: 0 });
    },
    NO_HANG_MS,
  );
});
