// A stop waits for a Slack answer to be delivered, not only computed: the real Bolt app started by the composition
// root on the embedded sandbox (MANZIL_SANDBOX=1), a signed slash command, a slow upstream (sandbox latency) and a
// slow response_url (the fake Slack holds its answer). The stop begins while the command is in flight.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESTARTING_TEXT } from '../../src/lifecycle.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'test-signing-secret-shutdown';
let slack: FakeSlack;
let manzil: Manzil;
const logs: string[] = [];

beforeAll(async () => {
  slack = await startFakeSlack();
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-slack-stop-')), 'manzil.db');
  manzil = await startManzil({
    env: {
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      MANZIL_SANDBOX: '1',
      SHUTDOWN_TIMEOUT_S: '10',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
  });
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
});

describe('Slack on the sandbox', () => {
  it('warns that Slack is served sample data', () => {
    const line = logs
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .find((e) => /using the embedded sandbox/.test(e.msg));
    expect(line?.level).toBe('warn');
  });
});

describe('a stop with a Slack command in flight', () => {
  it('waits until the answer has reached the response_url, then completes', async () => {
    const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
    manzil.sandbox!.addFault({ latencyMs: 600, count: 1, path: '/search-rent' }); // the upstream is slow
    const answer = slack.holdNext('response_url'); // and so is Slack, taking the answer

    const res = await signedPost(events, SECRET, slashCommand('/rent', 'marina 2br', slack.responseUrl('slow')));
    expect(res.status).toBe(200); // acked at once
    await vi.waitUntil(() => manzil.sandbox!.requests().some((r) => r.path === '/search-rent'), {
      timeout: 10_000,
      interval: 10,
    }); // the upstream call is under way
    let stoppedAt = 0;
    const stopped = manzil.shutdown('SIGTERM').then(() => (stoppedAt = Date.now()));

    await answer.arrived;
    expect(slack.responses('slow')).toHaveLength(1);
    expect((slack.responses('slow')[0] as { text: string }).text).toMatch(/Dubai Marina/);
    // A command that arrives now is refused politely, and that answer is delivered too.
    const late = await signedPost(events, SECRET, slashCommand('/buy', 'downtown', slack.responseUrl('late')));
    expect(late.status).toBe(200);
    await slack.waitFor(() => slack.responses('late').length > 0, 5_000);
    // Slack is still taking the answer: the command is still counted in flight, so the stop's first step (waiting for
    // the requests in flight) cannot have ended, and the stop is still waiting.
    expect(manzil.lifecycle.inFlight.size).toBe(1);
    expect(stoppedAt).toBe(0);
    const releasedAt = Date.now();
    answer.release();
    await stopped;
    expect(stoppedAt).toBeGreaterThanOrEqual(releasedAt);
    expect(slack.responses('late').map((p) => (p as { text: string }).text)).toEqual([RESTARTING_TEXT]);
  });
});
