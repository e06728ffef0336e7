// Manzil on Postgres (DATABASE_URL), started by the composition root as `manzil start` starts it: two instances on one
// real Postgres and one property service, each with its own pool, the real Slack poster against the fake Slack.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { runOutboxCli } from '../../src/ops/outbox-cli.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { alertPosts, deliveryIdOf, SECRET } from '../delivery/helpers.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { freshPostgres } from '../support/postgres.js';

const KEY = 'sk-postgres-e2e-key-18';
const CHANNELS = ['C0PGONE', 'C0PGTWO'];
const channelOf = (channelId: string) => `slack:T0TEST:${channelId}`;

let sandbox: Sandbox;
let slack: FakeSlack;
let database: { url: string; drop(): Promise<void> };
const running: Manzil[] = [];

beforeEach(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  slack = await startFakeSlack();
  database = await freshPostgres();
});

afterEach(async () => {
  for (const m of running.splice(0)) await m.stop();
  await slack.close();
  await sandbox.close();
  await database.drop();
});

/** One instance: the live-service configuration against the shared sandbox, its state in the shared Postgres. */
async function instance(): Promise<{ manzil: Manzil; dbPath: string }> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-pg-e2e-')), 'unused.db');
  const manzil = await startManzil({
    env: {
      UAE_API_BASE_URL: sandbox.url!,
      UAE_API_KEY: KEY,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'error',
    },
    host: '127.0.0.1',
    serve: false,
    writeLog: () => {},
  });
  running.push(manzil);
  return { manzil, dbPath };
}

describe('Manzil on Postgres', () => {
  it('keeps its alerts in Postgres (no SQLite file), and two instances post every new listing exactly once', async () => {
    const a = await instance();
    const b = await instance();
    expect(existsSync(a.dbPath)).toBe(false);

    // Saved through one instance, listed by the other.
    for (const channelId of CHANNELS) {
      const reply = await a.manzil.bot.handleCommand({
        user: 'U0ALICE',
        channel: channelOf(channelId),
        text: 'alerts add rent marina',
      });
      expect(reply.text).toMatch(/^Saved as alert #1/);
    }
    expect(
      (await b.manzil.bot.handleCommand({ user: 'U0ALICE', channel: channelOf(CHANNELS[0]!), text: 'alerts list' }))
        .text,
    ).toMatch(/Alerts in this channel \(1\):\nTime zone [^\n]*\n#1 · /);

    // The first look records what is there and posts nothing; then the market moves and both instances run at once.
    await a.manzil.alerts.poll();
    sandbox.advance(180);
    const [ra, rb] = await Promise.all([a.manzil.alerts.poll(), b.manzil.alerts.poll()]);
    const queued = (ra.ran ? ra.queued : 0) + (rb.ran ? rb.queued : 0);
    expect(queued).toBeGreaterThan(0);
    // One run took the lease; the other found it held.
    expect([ra.ran, rb.ran].filter(Boolean)).toHaveLength(1);

    // Both drain the one outbox at once (a channel gets a message a second): each entry is posted by one of them, once.
    const deadline = Date.now() + 30_000;
    while ((await a.manzil.alerts.outbox.stats()).delivered < queued && Date.now() < deadline) {
      await Promise.all([a.manzil.alerts.drainer.drain(), b.manzil.alerts.drainer.drain()]);
      await new Promise((r) => setTimeout(r, 100));
    }
    const posts = CHANNELS.flatMap((c) => alertPosts(slack, c));
    expect(posts.length).toBe(queued);
    expect(new Set(posts.map(deliveryIdOf)).size).toBe(queued);
    expect(await b.manzil.alerts.outbox.stats()).toMatchObject({
      pending: 0,
      sending: 0,
      failed: 0,
      delivered: queued,
    });

    // A run with nothing new posts nothing, whichever instance makes it.
    await b.manzil.alerts.poll();
    await Promise.all([a.manzil.alerts.drainer.drain(), b.manzil.alerts.drainer.drain()]);
    expect(CHANNELS.flatMap((c) => alertPosts(slack, c))).toHaveLength(queued);

    // The operator's `manzil outbox` reads the same database beside the running instances.
    const out: string[] = [];
    const status = await runOutboxCli(
      [],
      { dbPath: a.dbPath, postgres: { url: database.url, poolSize: 2 } },
      (l) => out.push(l),
      (l) => out.push(l),
    );
    expect(status).toBe(0);
    expect(out.at(-1)).toMatch(new RegExp(`^Outbox: 0 waiting .*, 0 parked, ${queued} delivered;`));
  });
});
