// Issue 26, acceptance: a search typed right after an alert posted a new listing shows it, though the same search was
// answered (and cached) just before, and the poller ran elsewhere: in the delivery thread that `manzil start` runs
// (real composition root, real worker thread), and in another instance on one real Postgres. Calls still cost money:
// the same search typed again with no poll between is answered from the cache.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { freshPostgres } from '../support/postgres.js';
import { alertPosts, driveByHand, saveAlerts, SECRET, slackChannel } from './helpers.js';

const KEY = 'sk-fresh-results-26';
const SEARCH = 'rent marina newest';
let sandbox: Sandbox;
let slack: FakeSlack;
const running: Manzil[] = [];
const dropAfter: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  slack = await startFakeSlack();
});
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
  for (const drop of dropAfter.splice(0)) await drop();
  slack.reset();
});
afterAll(async () => {
  await slack.close();
  await sandbox.close();
});

async function boot(
  env: Record<string, string>,
  options: { deliveryThread?: boolean; serve?: boolean } = {},
): Promise<Manzil> {
  const m = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-fresh-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      // The poller runs when the test says (m.alerts.poll()), never on its own.
      ALERTS_CRON: '0 0 1 1 *',
      ...env,
    },
    host: '127.0.0.1',
    ...options,
    writeLog: () => {},
  });
  running.push(m);
  return m;
}

const search = (m: Manzil, channel: string) => m.bot.handleCommand({ user: 'U0BOB', channel, text: SEARCH });
const idsIn = (what: unknown): string[] => [
  ...new Set(Array.from(JSON.stringify(what).matchAll(/property\/(\d+)/g), (x) => x[1]!)),
];
const searchCalls = () => sandbox.requests().filter((r) => r.path === '/search-rent').length;

/** The market moves and `poller` polls until an alert is queued; `drain` posts it. The ids the channel was shown. */
async function newListingPosted(poller: Manzil, channelId: string, drain: () => Promise<void>): Promise<string[]> {
  let queued = 0;
  for (let runs = 0; runs < 10 && queued === 0; runs++) {
    sandbox.advance(120);
    const report = await poller.alerts.poll();
    expect(report.failedQueries).toBe(0);
    queued += report.queued;
  }
  expect(queued).toBeGreaterThan(0);
  await drain();
  await slack.waitFor(() => alertPosts(slack, channelId).length >= queued, 60_000);
  return idsIn(alertPosts(slack, channelId));
}

/** The page typed right after shows every listing the alert posted; typed once more, it costs no call. */
async function expectFresh(m: Manzil, channel: string, before: Reply, posted: string[]): Promise<void> {
  expect(posted.length).toBeGreaterThan(0);
  expect(idsIn(before.blocks)).not.toEqual(expect.arrayContaining(posted));
  const after = await search(m, channel);
  expect(idsIn(after.blocks)).toEqual(expect.arrayContaining(posted));
  sandbox.clearRequests();
  expect(idsIn((await search(m, channel)).blocks)).toEqual(idsIn(after.blocks));
  expect(searchCalls()).toBe(0);
}

describe('results as fresh as the alerts', () => {
  it(
    'the poller in the delivery thread: the search typed after its alert shows the new listing',
    { timeout: 240_000 },
    async () => {
      const m = await boot({}, { deliveryThread: true });
      expect(m.deliveryThread).toBe(true);
      const channelId = 'C0FRESH1';
      const channel = slackChannel(channelId);
      await saveAlerts(m, [channel]);
      // The alert's first look (it records what exists and posts nothing), in the thread.
      expect((await m.alerts.poll()).failedQueries).toBe(0);
      const before = await search(m, channel);
      // The thread drains by itself once its run queued something.
      const posted = await newListingPosted(m, channelId, async () => {});
      await expectFresh(m, channel, before, posted);
    },
  );

  it(
    'the poller in another instance on Postgres: the search typed here after its alert shows the new listing',
    { timeout: 180_000 },
    async () => {
      const database = await freshPostgres();
      dropAfter.push(() => database.drop());
      const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '4' };
      // Two instances on one database: one polls and posts, the other answers this channel.
      const poller = await boot(env, { serve: false });
      const chat = await boot(env, { serve: false });
      driveByHand(poller);
      const channelId = 'C0FRESH2';
      const channel = slackChannel(channelId);
      await saveAlerts(chat, [channel]);
      expect((await poller.alerts.poll()).failedQueries).toBe(0);
      const before = await search(chat, channel);
      const posted = await newListingPosted(poller, channelId, () => poller.alerts.drainer.drain().then(() => {}));
      await expectFresh(chat, channel, before, posted);
    },
  );
});
