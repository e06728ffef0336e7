// A shutdown with alert deliveries in flight, on Slack: the post under way finishes (or is found on Slack after the
// restart), the rest stay in the outbox, and the next start sends them. Every delivery reaches the channel once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'deliveries-signing-secret-01';
const KEY = 'sk-deliveries-key-4242';
const CHANNEL = 'C0SHUTDOWN';
let sandbox: Sandbox;
let slack: FakeSlack;
let seq = 0;
const running: Manzil[] = [];

const boot = async (dbPath: string, env: Record<string, string> = {}) => {
  const manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'warn',
      ALERTS_DELIVERY_LEASE_S: '1',
      ...env,
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  running.push(manzil);
  return manzil;
};

async function saveAlert(manzil: Manzil, text: string): Promise<void> {
  const id = `d${++seq}`;
  const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  await signedPost(
    events,
    SECRET,
    slashCommand('/alerts', `add ${text}`, slack.responseUrl(id), { channel_id: CHANNEL }),
  );
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  expect(JSON.stringify(slack.responses(id).at(-1))).toMatch(/Saved as alert #\d+/);
}

const deliveryIds = () =>
  slack
    .messages(CHANNEL)
    .filter((m) => m.metadata?.event_type === 'manzil_alert')
    .map((m) => (m.metadata!.event_payload as { delivery_id: string }).delivery_id);

/** Nothing left to send: every entry delivered or parked. */
const settled = async (manzil: Manzil) => {
  const stats = await manzil.alerts.outbox.stats();
  return stats.pending + stats.sending === 0;
};

/** Saved alerts with new listings queued for the channel; the background drainer starts on them at once. */
async function queueDeliveries(manzil: Manzil): Promise<number> {
  await saveAlert(manzil, 'rent marina');
  await saveAlert(manzil, 'buy marina');
  await manzil.alerts.poll(); // the first run only takes stock
  // Each move of the market brings one new listing in Dubai Marina, to rent or to buy.
  for (let i = 0; i < 3; i++) sandbox.advance(30);
  const report = await manzil.alerts.poll();
  expect(report.queued).toBeGreaterThan(1);
  return report.queued;
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  slack = await startFakeSlack();
});
afterEach(async () => {
  for (const m of running.splice(0)) await m.stop();
  slack.reset();
});
afterAll(async () => {
  await slack.close();
  await sandbox.close();
});

describe('a shutdown with deliveries in flight', () => {
  it('lets the post under way finish, keeps the rest queued, and the next start sends them: nothing lost, nothing twice', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-deliveries-')), 'manzil.db');
    const first = await boot(dbPath);
    const held = slack.holdNext('chat.postMessage');
    const queued = await queueDeliveries(first);
    await held.arrived;

    const stopping = first.shutdown('test');
    setTimeout(() => held.release(), 100);
    await stopping;
    // The held post was answered before the stop ended, so it counts as delivered; nothing else went out.
    expect(deliveryIds()).toHaveLength(1);

    // The next start's background drainer sends what the outbox kept.
    const second = await boot(dbPath);
    await slack.waitFor(() => settled(second), 15_000);
    const ids = deliveryIds();
    expect(ids).toHaveLength(queued);
    expect(new Set(ids).size).toBe(queued);
    expect(await second.alerts.outbox.stats()).toMatchObject({
      pending: 0,
      sending: 0,
      failed: 0,
      delivered: queued,
      possibleDuplicates: 0,
    });
  }, 20_000);

  it('a post still unanswered when the stop runs out of time is found on Slack after the restart, not sent again', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-deliveries-')), 'manzil.db');
    const first = await boot(dbPath, { SHUTDOWN_TIMEOUT_S: '0.3' });
    const held = slack.holdNext('chat.postMessage'); // posted on Slack, its answer never comes
    const queued = await queueDeliveries(first);
    await held.arrived;
    await first.shutdown('test');
    expect(deliveryIds()).toHaveLength(1);

    await new Promise((r) => setTimeout(r, 1_100)); // the stopped process's claim runs out (ALERTS_DELIVERY_LEASE_S=1)
    const second = await boot(dbPath);
    await slack.waitFor(() => settled(second), 15_000);
    const ids = deliveryIds();
    expect(ids).toHaveLength(queued);
    expect(new Set(ids).size).toBe(queued);
    expect(await second.alerts.outbox.stats()).toMatchObject({
      pending: 0,
      sending: 0,
      failed: 0,
      delivered: queued,
      possibleDuplicates: 0,
    });
    held.release();
  }, 20_000);
});
