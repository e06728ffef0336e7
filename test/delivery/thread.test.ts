// The delivery thread (`manzil start`'s default): the drainer, the poller and the digests in a worker thread on a
// SQLite connection and chat clients of their own, while the main thread answers chat. Real composition root, real
// worker thread (its TypeScript loaded through tsx), the fake Slack and a sandbox on loopback.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryThread } from '../../src/background/thread.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { alertPosts, deliveryIdOf, saveAlerts, slackChannel, SECRET } from './helpers.js';

const KEY = 'sk-delivery-thread-1818';
// A test's own bound only proves it does not hang: each boots Manzil once or twice (a worker thread loaded through
// tsx),
// which took over 40 s on a loaded machine. The waits inside bound the behaviour.
const NO_HANG_MS = 120_000;
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil | undefined;
let logs: string[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
});
afterEach(async () => {
  await manzil?.stop();
  manzil = undefined;
  slack.reset();
  slack.refuseAuth(false);
});
afterAll(async () => {
  await slack.close();
  await sandbox.close();
});

async function boot(env: Record<string, string> = {}, deliveryThread = true): Promise<Manzil> {
  logs = [];
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-thread-')), 'manzil.db'),
      LOG_LEVEL: 'info',
      ALERTS_CRON: '0 0 1 1 *',
      ...env,
    },
    host: '127.0.0.1',
    deliveryThread,
    writeLog: (line) => logs.push(line),
  });
  return manzil;
}

const parsed = () => logs.map((l) => JSON.parse(l) as { msg: string; thread?: string; [k: string]: unknown });

/** Polls (in the thread) until a run queues something: the market moves two hours before each. */
async function queueSome(m: Manzil): Promise<number> {
  let queued = 0;
  for (let runs = 0; runs < 10 && queued === 0; runs++) {
    sandbox.advance(120);
    queued += (await m.alerts.poll()).queued;
  }
  expect(queued).toBeGreaterThan(0);
  return queued;
}

describe('the delivery thread', () => {
  it(
    'polls and posts every new listing once from its own thread, its log lines in the main log',
    async () => {
      const m = await boot();
      expect(m.deliveryThread).toBe(true);
      const channel = 'C0THREAD1';
      await saveAlerts(m, [slackChannel(channel)]);
      const queued = await queueSome(m);
      // The thread was poked by its own run: nobody drains here.
      await slack.waitFor(() => alertPosts(slack, channel).length === queued, 15_000);
      const ids = alertPosts(slack, channel).map(deliveryIdOf);
      expect(new Set(ids).size).toBe(queued);
      // Recorded by the thread just after Slack answered.
      await slack.waitFor(async () => (await m.alerts.outbox.stats()).delivered === queued, 15_000);
      expect(await m.alerts.outbox.stats()).toMatchObject({ pending: 0, sending: 0 });
      // The run and its posts are the thread's: its lines carry `thread: delivery`, and its counters reach /metrics
      // here.
      expect(parsed().some((l) => l.thread === 'delivery' && /poller run finished/.test(l.msg))).toBe(true);
      // The thread sends its counters over after it recorded the posts: waited for, not read at once.
      const delivered = new RegExp(`manzil_alerts_delivered_total\\{[^}]*\\} ${queued}`);
      await slack.waitFor(async () => delivered.test(await m.metrics.text()), 15_000);
      // The main thread keeps answering chat.
      const reply = await m.bot.handleCommand({ user: 'U0ALICE', channel: slackChannel(channel), text: 'alerts list' });
      expect(reply.text).toMatch(/#1/);
    },
    NO_HANG_MS,
  );

  it(
    'a platform refusing the token is shown paused on /healthz, then resumes by itself; nothing lost, nothing twice',
    async () => {
      const m = await boot();
      const channel = 'C0THREAD2';
      await saveAlerts(m, [slackChannel(channel)]);
      slack.refuseAuth(true);
      const queued = await queueSome(m);
      await slack.waitFor(() => m.alerts.drainer.gate.isPaused('slack'), 10_000);
      expect((await m.health.check()).checks.platforms).toMatchObject({
        ok: false,
        paused: [expect.objectContaining({ platform: 'slack' })],
      });
      expect(alertPosts(slack, channel)).toHaveLength(0);
      slack.refuseAuth(false);
      // The thread's first probe comes 5 s after the pause.
      await slack.waitFor(() => alertPosts(slack, channel).length === queued, 20_000);
      await slack.waitFor(() => !m.alerts.drainer.gate.isPaused('slack'), 5_000);
      expect(new Set(alertPosts(slack, channel).map(deliveryIdOf)).size).toBe(queued);
      expect(parsed().filter((l) => l.thread === 'delivery' && /paus/.test(l.msg)).length).toBeGreaterThanOrEqual(1);
    },
    NO_HANG_MS,
  );

  it(
    'a stop ends the thread cleanly, giving back what it had not posted; the next start posts it, once',
    async () => {
      const m = await boot();
      const channel = 'C0THREAD3';
      await saveAlerts(m, [slackChannel(channel)]);
      // Rate limited: the thread holds the channel and spends no attempt (nothing here may have been posted).
      slack.outage(429, { retryAfter: 1 });
      const queued = await queueSome(m);
      await slack.waitFor(() => slack.callsTo('chat.postMessage').length > 0, 10_000);
      const dbPath = m.config.dbPath;
      await m.stop();
      manzil = undefined;
      expect(parsed().some((l) => /delivery thread exited/.test(l.msg))).toBe(false);
      slack.outage(undefined);
      const again = await boot({ MANZIL_DB_PATH: dbPath });
      expect(again.deliveryThread).toBe(true);
      await slack.waitFor(() => alertPosts(slack, channel).length === queued, 15_000);
      await slack.waitFor(async () => (await again.alerts.outbox.stats()).delivered === queued, 5_000);
      expect(new Set(alertPosts(slack, channel).map(deliveryIdOf)).size).toBe(queued);
      expect(await again.alerts.outbox.stats()).toMatchObject({ failed: 0, possibleDuplicates: 0 });
    },
    NO_HANG_MS,
  );

  it(
    'a thread that dies mid-post is started again at once; the post it had in flight is found, not sent twice',
    async () => {
      const m = await boot();
      const channel = 'C0THREAD4';
      await saveAlerts(m, [slackChannel(channel)]);
      // Slack stores the first post but its answer never comes back: the thread dies waiting for it.
      const held = slack.holdNext('chat.postMessage', { carryOut: true });
      const queued = await queueSome(m);
      const inFlight = deliveryIdOf(await held.arrived);
      const diedAt = Date.now();
      expect((await m.health.check()).checks.delivery).toEqual({ ok: true, thread: true, running: true });
      await (m.alerts.drainer as DeliveryThread).terminate();
      // Down until it is started again (a second later): /healthz says so.
      await slack.waitFor(async () => (await m.health.check()).checks.delivery.running === false, 900);
      expect((await m.health.check()).status).toBe('failing');
      await slack.waitFor(async () => (await m.alerts.outbox.stats()).delivered === queued, 30_000);
      // Its claims were handed over at once, by the thread started in its place: well within the 60 s lease (a few
      // seconds on a quiet machine; half the lease leaves room for a loaded one and still fails if the lease is waited
      // out).
      expect(Date.now() - diedAt).toBeLessThan(30_000);
      const ids = alertPosts(slack, channel).map(deliveryIdOf);
      expect(ids).toHaveLength(queued);
      expect(ids.filter((id) => id === inFlight)).toHaveLength(1);
      expect(await m.alerts.outbox.stats()).toMatchObject({ pending: 0, sending: 0, failed: 0, possibleDuplicates: 0 });
      expect(parsed().filter((l) => /delivery thread exited; starting it again/.test(l.msg))).toHaveLength(1);
      expect((await m.health.check()).checks.delivery.ok).toBe(true);
    },
    NO_HANG_MS,
  );

  it(
    'posts to Discord over a REST client of its own, with the nonce of each delivery, while the gateway stays here',
    async () => {
      const discord = await startFakeDiscord();
      try {
        const m = await boot({ DISCORD_TOKEN: discord.botToken, DISCORD_API_URL: discord.apiUrl });
        const channel = `discord:${discord.guildId}:${discord.channelId}`;
        await saveAlerts(m, [channel]);
        const queued = await queueSome(m);
        await discord.waitFor(async () => (await m.alerts.outbox.stats()).delivered === queued, 15_000);
        const posts = discord.messages(discord.channelId).filter((p) => p.nonce);
        expect(posts).toHaveLength(queued);
        expect(new Set(posts.map((p) => p.nonce)).size).toBe(queued);
        expect(discord.violations()).toEqual([]);
        // One gateway session: the thread never logs in to the gateway.
        expect(discord.sessions().identified).toBe(1);
      } finally {
        await manzil?.stop();
        manzil = undefined;
        await discord.close();
      }
    },
    NO_HANG_MS,
  );

  it('is not used where it cannot be: an in-memory database keeps delivery in the main thread', async () => {
    const m = await boot({ MANZIL_DB_PATH: ':memory:' });
    expect(m.deliveryThread).toBe(false);
  }, 20_000);
});
