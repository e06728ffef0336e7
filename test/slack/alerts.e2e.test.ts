// Alerts on Slack, end to end: the real Bolt app started by the composition root, signed slash commands and
// clicks, the sandbox's market clock, and the fake Slack Web API receiving the posts. The crash tests kill a real
// `manzil poll --once` process with SIGKILL mid-post and start it again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand } from '../fakes/slack-sign.js';
import { manzilArgs } from '../support/child.js';

// Each crash test runs two `manzil poll --once` processes, past 30 s on a loaded machine (run R3): the test's own bound
// only proves no hang.
const NO_HANG_MS = 120_000;
const SECRET = 'alerts-signing-secret-01';
const KEY = 'sk-alerts-e2e-key-4242';
const CHANNEL = 'C0DEALS';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let dbPath: string;
let seq = 0;

const env = () => ({
  UAE_API_KEY: KEY,
  UAE_API_BASE_URL: sandbox.url,
  UAE_API_RETRY_ATTEMPTS: '2',
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
  LOG_LEVEL: 'warn',
  ALERTS_MAX_PER_USER: '3',
  ALERTS_DELIVERY_LEASE_S: '1',
});

async function boot() {
  manzil = await startManzil({
    env: env(),
    host: '127.0.0.1',
    writeLog: (l) => process.env.DEBUG_E2E && console.log(l),
  });
}

type Payload = {
  text: string;
  response_type?: string;
  blocks?: { type: string; elements?: { action_id?: string; value?: string; text?: { text: string } }[] }[];
};

async function command(text: string, user = 'U0ALICE', cmd = '/alerts', channel = CHANNEL): Promise<Payload> {
  const id = `a${++seq}`;
  const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  const res = await signedPost(
    events,
    SECRET,
    slashCommand(cmd, text, slack.responseUrl(id), { user_id: user, channel_id: channel }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

async function click(actionId: string, value: string): Promise<Payload> {
  const id = `a${++seq}`;
  const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  await signedPost(events, SECRET, blockAction(actionId, value, slack.responseUrl(id)));
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

const alertPosts = (channel = CHANNEL) =>
  slack.messages(channel).filter((m) => m.metadata?.event_type === 'manzil_alert');
const deliveryIds = () => alertPosts().map((m) => (m.metadata!.event_payload as { delivery_id: string }).delivery_id);
/** Poller runs, the market moving a couple of hours before each, until `done` (at most `runs`). */
async function runUntil(done: () => boolean, runs = 10): Promise<void> {
  for (let i = 0; i < runs && !done(); i++) {
    sandbox.advance(120);
    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
  }
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-alerts-e2e-')), 'manzil.db');
  await boot();
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
  await sandbox.close();
});

describe('alerts on Slack', () => {
  it('saves from /alerts add and from the Save as alert button, posts nothing at first, then each new listing once', async () => {
    const saved = await command('add rent marina');
    expect(saved.text).toMatch(
      /^Saved as alert #1: Homes for rent in Dubai Marina\. I'll post new listings here as they appear; \d+/,
    );
    const search = await command('buy marina', 'U0ALICE', '/buy');
    const save = search.blocks!.flatMap((b) => b.elements ?? []).find((e) => e.text?.text === 'Save as alert')!;
    expect((await click(save.action_id!, save.value!)).text).toMatch(
      /^Saved as alert #2: Homes for sale in Dubai Marina/,
    );

    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
    expect(alertPosts()).toHaveLength(0);

    sandbox.advance(120);
    const report = await manzil.alerts.poll();
    expect(report.newListings).toBeGreaterThan(0);
    await manzil.alerts.drainer.drain();
    const first = alertPosts().length;
    expect(first).toBe(report.queued);
    expect(
      alertPosts().every((m) => typeof m.text === 'string' && /New listing for alert #[12]/.test(m.text as string)),
    ).toBe(true);
    await manzil.alerts.poll();
    await manzil.alerts.drainer.drain();
    expect(alertPosts()).toHaveLength(first);
    expect(new Set(deliveryIds()).size).toBe(first);
  });

  it('lets only the creator or a workspace admin pause, resume or remove an alert', async () => {
    expect((await command('pause 1', 'U0BOB')).text).toMatch(
      /Only the person who saved alert #1, or a workspace or server admin, can pause it/,
    );
    slack.setUser('U0CAROL', { is_admin: true });
    expect((await command('pause 1', 'U0CAROL')).text).toMatch(/Paused alert #1/);
    expect((await command('resume 1', 'U0ALICE')).text).toMatch(/Resumed alert #1/);
    expect((await command('list', 'U0BOB')).text).toMatch(
      /#1 · Homes for rent in Dubai Marina[\s\S]*#2 · Homes for sale in Dubai Marina/,
    );

    // Remove: Bob's alert in another channel, on the same search as #1 here, so the same runs find the same listings.
    const OTHER = 'C0OTHER';
    expect((await command('add rent marina', 'U0BOB', '/alerts', OTHER)).text).toMatch(
      /^Saved as alert #1: Homes for rent in Dubai Marina/,
    );
    await runUntil(() => alertPosts(OTHER).length > 0);
    expect(alertPosts(OTHER).length).toBeGreaterThan(0);
    expect((await command('remove 1', 'U0ALICE', '/alerts', OTHER)).text).toMatch(
      /Only the person who saved alert #1, or a workspace or server admin, can remove it/,
    );
    expect((await command('remove 1', 'U0BOB', '/alerts', OTHER)).text).toMatch(
      /^Removed alert #1 \(Homes for rent in Dubai Marina\)/,
    );
    expect((await command('list', 'U0BOB', '/alerts', OTHER)).text).toMatch(/^No alerts in this channel yet/);
    // The market moves on: alert #1 here posts what it finds, the removed one nothing more.
    const [here, there] = [alertPosts().length, alertPosts(OTHER).length];
    await runUntil(() => alertPosts().length > here);
    expect(alertPosts().length).toBeGreaterThan(here);
    expect(alertPosts(OTHER)).toHaveLength(there);
  });

  it('keeps to the per-person limit with a clear message', async () => {
    expect((await command('add rent jvc')).text).toMatch(/Saved as alert #3/);
    expect((await command('add rent jlt')).text).toMatch(/You have 3 alerts already, the most one person can have/);
  });

  it('keeps alerts across a restart', async () => {
    await manzil.stop();
    await boot();
    const list = await command('list');
    expect(list.text).toMatch(/Alerts in this channel \(3\)/);
  });
});

describe('a crash mid-post (SIGKILL), then a restart: posted exactly once', () => {
  // Only the `poll --once` processes deliver here: the serving instance above would otherwise take the dead process's
  // claim over too (its lease is 1 s), and which of the two found the post would be a race.
  beforeAll(() => manzil.stop());
  const pollOnce = () => {
    const child = spawn(process.execPath, manzilArgs('poll', '--once'), {
      env: { ...process.env, ...env(), MANZIL_FROM_SOURCE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    return { child, output: () => out };
  };

  for (const [name, carryOut] of [
    ['before Slack got the post', false],
    ['after Slack accepted it, before it answered', true],
  ] as const) {
    it(
      `killed ${name}`,
      async () => {
        sandbox.advance(60);
        const before = new Set(deliveryIds());
        const held = slack.holdNext('chat.postMessage', { carryOut });
        const run = pollOnce();
        const call = await held.arrived;
        run.child.kill('SIGKILL');
        await once(run.child, 'exit');
        const interrupted = (call.args.metadata as { event_payload: { delivery_id: string } }).event_payload
          .delivery_id;
        await new Promise((r) => setTimeout(r, 1_100)); // the dead process's claim runs out (ALERTS_DELIVERY_LEASE_S=1)

        const again = pollOnce();
        const [code] = await once(again.child, 'exit');
        expect(code).toBe(0);
        const ids = deliveryIds();
        expect(ids.filter((id) => id === interrupted)).toHaveLength(1);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.filter((id) => !before.has(id)).length).toBeGreaterThan(0);
        const summary = JSON.parse(again.output().trim().split('\n').at(-1)!) as {
          delivery: { recoveredFound: number; possibleDuplicates: number };
          outbox: { pending: number; sending: number };
        };
        expect(summary.delivery.recoveredFound).toBe(carryOut ? 1 : 0);
        expect(summary.delivery.possibleDuplicates).toBe(0);
        expect(summary.outbox.pending + summary.outbox.sending).toBe(0);
      },
      NO_HANG_MS,
    );
  }
});
