// Alerts saved by an earlier version asking for what no listing can be ("up to AED Infinity a year", 9.99e+25) are
// paused when Manzil starts, each with one message in its channel: across two starts, on Slack, from a real SQLite
// file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeSavedQuery, paramsKey, type SavedQuery } from '../../src/alerts/saved-query.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { summarize } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createAlertsRepo, openStore, serviceKey } from '../../src/store/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'impossible-signing-secret-01';
const KEY = 'sk-impossible-key-4242';
const CHANNEL_ID = 'C0IMPOSSIBLE';
const CHANNEL = `slack:T0TEST:${CHANNEL_ID}`;
let sandbox: Sandbox;
let slack: FakeSlack;
let dir: string;
let seq = 0;
const running: Manzil[] = [];

const boot = async (dbPath: string) => {
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
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  running.push(manzil);
  return manzil;
};

/** A slash command in the channel, and the reply it gets. */
async function command(manzil: Manzil, name: string, text: string): Promise<string> {
  const id = `p${++seq}`;
  await signedPost(
    `http://127.0.0.1:${manzil.slackPort}/slack/events`,
    SECRET,
    slashCommand(name, text, slack.responseUrl(id), { channel_id: CHANNEL_ID }),
  );
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return JSON.stringify(slack.responses(id).at(-1));
}

/** Saves an alert as an earlier version did, before amounts were bounded: the parameters as its parser wrote them. */
async function saveAsBefore(
  dbPath: string,
  params: Record<string, string>,
  operation: 'search-rent' | 'search-buy',
): Promise<void> {
  const store = openStore(dbPath);
  try {
    const saved: SavedQuery = {
      query: { operation, params, location: 'marina', unknownWords: [] },
      location: { id: 1, name: 'Dubai Marina' },
    };
    const created = await createAlertsRepo(store).create(
      {
        service: serviceKey(sandbox.url!),
        channel: CHANNEL,
        owner: 'U0ALICE', // the person of slashCommand(), as the Slack adapter names them
        text: `${operation === 'search-rent' ? 'rent' : 'buy'} marina under 999…`,
        query: encodeSavedQuery(saved),
        operation,
        paramsKey: paramsKey(saved),
        summary: summarize(saved.query, 'Dubai Marina'),
      },
      { perChannel: 25, perOwner: 10 },
    );
    expect(created.ok).toBe(true);
  } finally {
    store.close();
  }
}

const pausedNotices = () => slack.messages(CHANNEL_ID).filter((m) => /is paused: it asks for/.test(String(m.text)));

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  slack = await startFakeSlack();
  dir = mkdtempSync(join(tmpdir(), 'manzil-impossible-'));
});
afterEach(async () => {
  for (const m of running.splice(0)) await m.stop();
  slack.reset();
});
afterAll(async () => {
  await slack.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('alerts saved with amounts no listing can have', () => {
  it('are paused at start with exactly one message each in their channel, across two starts; other alerts run', async () => {
    const dbPath = join(dir, 'manzil.db');
    await saveAsBefore(dbPath, { price_max: 'Infinity' }, 'search-rent'); // 400 nines
    await saveAsBefore(dbPath, { bedrooms: '2', price_max: '9.999999999999999e+25' }, 'search-buy'); // 26 nines

    const first = await boot(dbPath);
    await slack.waitFor(() => pausedNotices().length >= 2, 15_000);
    const texts = pausedNotices().map((m) => m.text);
    expect(texts).toEqual([
      expect.stringMatching(
        /^⏸️ Alert #1 \(.*Dubai Marina.*\) is paused: it asks for a price above AED 10 billion, which no listing has.*`\/alerts remove 1`\.$/,
      ),
      expect.stringMatching(
        /^⏸️ Alert #2 \(.*Dubai Marina.*\) is paused: it asks for a price above AED 10 billion, which no listing has.*`\/alerts remove 2`\.$/,
      ),
    ]);
    const rows = await first.alerts.repo.listByChannel(CHANNEL);
    expect(rows.map((r) => r.paused)).toEqual([true, true]);
    // And why, on the standing order itself.
    expect(rows.every((r) => /^asks for what no listing can be: .*AED 10 billion/.test(r.pausedReason ?? ''))).toBe(
      true,
    );

    // An ordinary alert saved now runs; the paused ones are not run, so they gather no error.
    expect(await command(first, '/alerts', 'add rent marina 2br')).toMatch(/Saved as alert #3/);
    await first.alerts.poll();
    const list = await command(first, '/alerts', 'list');
    expect(list).toMatch(/#1 · [^"]* · paused: it asks for a price above AED 10 billion, which no listing has · /);
    expect(list).toMatch(/#3 · [^"]* · instant, checked every 15 minutes · last checked/);
    expect(list).not.toMatch(/failing/);
    // Resuming one would only fail on every run: refused, with what to do instead.
    expect(await command(first, '/alerts', 'resume 1')).toMatch(
      /Alert #1 can't run: it asks for a price above AED 10 billion, which no listing has\. Save the search again/,
    );
    expect((await first.alerts.repo.byNumber(CHANNEL, 1))!.paused).toBe(true);
    await first.stop();

    // The second start queues nothing: the pause is the record.
    const second = await boot(dbPath);
    const stats = await second.alerts.outbox.stats();
    expect(stats.pending + stats.sending).toBe(0);
    const notices = (await second.alerts.outbox.list()).filter((e) => e.kind === 'impossible');
    expect(notices.map((e) => [e.dedupeKey, e.state])).toEqual([
      [`${rows[0]!.id}:impossible`, 'delivered'],
      [`${rows[1]!.id}:impossible`, 'delivered'],
    ]);
    expect((await second.alerts.repo.listByChannel(CHANNEL)).map((r) => [r.number, r.paused])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(pausedNotices()).toHaveLength(2); // the two of the first start, and nothing since
  }, 60_000);
});
