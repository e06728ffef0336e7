// Personal alerts on Slack, end to end: the real Bolt app, signed slash commands and clicks, the sandbox's market
// clock, the fake Slack Web API. An alert saved "for me" is posted to the person's DM (conversations.open, then
// chat.postMessage there), never to the channel, and listed to its owner alone; a person who can no longer receive
// (deactivated: `user_disabled`, the DM gone: `channel_not_found`) has their alert paused with the reason, once, with
// no call to Slack repeated, and resumed by them once they can receive again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'personal-alerts-secret-01';
const KEY = 'sk-personal-alerts-key-4242';
const CHANNEL = 'C0DEALS';
const ALICE_DM = 'DU0ALICE';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let seq = 0;
const logs: string[] = [];

type Payload = {
  text: string;
  response_type?: string;
  blocks?: { type: string; elements?: { action_id?: string; value?: string; text?: { text: string } }[] }[];
};

async function command(text: string, user = 'U0ALICE', cmd = '/alerts'): Promise<Payload> {
  const id = `p${++seq}`;
  const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  const res = await signedPost(
    events,
    SECRET,
    slashCommand(cmd, text, slack.responseUrl(id), { user_id: user, channel_id: CHANNEL }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

async function click(actionId: string, value: string): Promise<Payload> {
  const id = `p${++seq}`;
  const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  await signedPost(events, SECRET, blockAction(actionId, value, slack.responseUrl(id)));
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as Payload;
}

const alertPosts = (channel: string) =>
  slack.messages(channel).filter((m) => m.metadata?.event_type === 'manzil_alert');
/** Calls that could write to Alice: opening her DM, or posting anywhere. */
const writes = () => slack.calls.filter((c) => ['conversations.open', 'chat.postMessage'].includes(c.method)).length;

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
  slack = await startFakeSlack();
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-personal-')), 'manzil.db');
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_RETRY_ATTEMPTS: '2',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'warn',
      ALERTS_DELIVERY_LEASE_S: '1',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
  });
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
  await sandbox.close();
});

describe('a personal alert on Slack', () => {
  it('is saved for its owner alone, posts to their DM only, and no one else sees it listed', async () => {
    const saved = await command('add me rent marina');
    expect(saved.response_type).not.toBe('in_channel');
    expect(saved.text).toMatch(/^Saved as your alert #1 \(to me\): Homes for rent in Dubai Marina\. I'll send new/);

    expect((await command('list', 'U0BOB')).text).toMatch(/^No alerts in this channel yet/);
    const mine = (await command('list')).text;
    expect(mine).toMatch(/and 1 of yours to your direct messages/);
    expect(mine).toMatch(/#1 · Homes for rent in Dubai Marina · instant, checked [^\n]* · to me/);
    // Bob cannot reach it either, by its number or as "his own".
    expect((await command('pause 1', 'U0BOB')).text).toMatch(/There is no alert #1 in this channel/);
    expect((await command('pause me 1', 'U0BOB')).text).toMatch(/You have no alert of your own numbered 1/);

    await runs(10, () => alertPosts(ALICE_DM).length > 0);
    expect(alertPosts(ALICE_DM).length).toBeGreaterThan(0);
    expect(alertPosts(ALICE_DM).every((m) => /New listing for alert #1/.test(String(m.text)))).toBe(true);
    expect(alertPosts(CHANNEL)).toHaveLength(0);
    expect(slack.callsTo('conversations.open').map((c) => c.args.users)).toContain('U0ALICE');
  });

  it('"Save for me" under a search saves the same kind of alert', async () => {
    const search = await command('buy marina', 'U0ALICE', '/buy');
    const save = search.blocks!.flatMap((b) => b.elements ?? []).find((e) => e.text?.text === 'Save for me')!;
    expect(save).toBeTruthy();
    expect((await click(save.action_id!, save.value!)).text).toMatch(
      /^Saved as your alert #2 \(to me\): Homes for sale in Dubai Marina/,
    );
    expect((await command('list', 'U0BOB')).text).not.toMatch(/Dubai Marina/);
  });

  it('pauses with the reason when the person cannot receive, without a loop, and resumes once they can', async () => {
    // Alice is deactivated: her DM refuses every post from now on.
    slack.setUser('U0ALICE', { dmRefused: 'user_disabled' });
    const before = alertPosts(ALICE_DM).length;
    const writesBefore = writes();
    await runs(10, () => writes() > writesBefore);
    expect(writes()).toBeGreaterThan(writesBefore);
    // One refusal is enough: the rest of her queue ends unsent and her alerts are paused, so later runs try nothing.
    const afterRefusal = writes();
    expect(afterRefusal - writesBefore).toBe(1);
    await runs(4);
    expect(writes()).toBe(afterRefusal);
    expect(alertPosts(ALICE_DM)).toHaveLength(before);

    const list = (await command('list')).text;
    expect(list).toMatch(/#1 · [^\n]*paused: I could not send you direct messages \(slack: [a-z_]+[^\n]*\)/);
    expect(list).toMatch(/`\/alerts resume me 1` once I can again/);
    expect(logs.some((l) => /personal alerts paused: the person cannot receive direct messages/.test(l))).toBe(true);
    expect(logs.filter((l) => /xoxb-/.test(l))).toEqual([]);

    // Back again: resumed by her, posts reach her DM.
    slack.setUser('U0ALICE', {});
    expect((await command('resume me 1')).text).toMatch(/^Resumed alert #1 \(Homes for rent in Dubai Marina\)/);
    expect((await command('resume me 2')).text).toMatch(/^Resumed alert #2/);
    await runs(10, () => alertPosts(ALICE_DM).length > before);
    expect(alertPosts(ALICE_DM).length).toBeGreaterThan(before);
  });
});
