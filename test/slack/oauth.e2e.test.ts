// Add to Slack, end to end: the real Bolt installer (/slack/install, /slack/oauth_redirect with its state cookie) and
// oauth.v2.access at the fake Slack, two workspaces answered and posted to with their own tokens, a workspace that
// removes the app (app_uninstalled) losing its token and its alerts waiting, then coming back. Tokens sealed at rest.
// And isolation: one workspace can never list, change, receive or press another's alerts or buttons.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createSlackInstallationRepo, openStore, sealerFrom } from '../../src/store/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, sign, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'oauth-signing-secret-18';
const KEY = 'sk-oauth-e2e-1818';
const OAUTH = { clientId: '1111.2222', clientSecret: 'oauth-client-secret-18' };
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let dbPath: string;
let seq = 0;

const env = (extra: Record<string, string> = {}) => ({
  UAE_API_KEY: KEY,
  UAE_API_BASE_URL: sandbox.url!,
  SLACK_CLIENT_ID: OAUTH.clientId,
  SLACK_CLIENT_SECRET: OAUTH.clientSecret,
  SLACK_STATE_SECRET: 'oauth-state-secret-18',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  MANZIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
  LOG_LEVEL: 'warn',
  ALERTS_CRON: '0 0 1 1 *',
  ...extra,
});

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack({ oauth: OAUTH });
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-oauth-')), 'manzil.db');
  manzil = await startManzil({ env: env(), host: '127.0.0.1', writeLog: () => {} });
});
afterAll(async () => {
  await manzil?.stop();
  await slack.close();
  await sandbox.close();
});

const base = () => `http://127.0.0.1:${manzil.slackPort}`;

/** A person of `teamId` clicks Add to Slack, approves on Slack's page, and comes back to Manzil's redirect URL. */
async function install(teamId: string): Promise<Response> {
  const start = await fetch(`${base()}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  expect(authorize.searchParams.get('client_id')).toBe(OAUTH.clientId);
  expect(authorize.searchParams.get('scope')).toMatch(/chat:write/);
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const code = slack.approve(teamId);
  return fetch(`${base()}/slack/oauth_redirect?code=${code}&state=${authorize.searchParams.get('state')}`, {
    headers: { cookie },
    redirect: 'manual',
  });
}

async function command(teamId: string, channel: string, text: string, user = 'U0ALICE') {
  const id = `o${++seq}`;
  const res = await signedPost(
    `${base()}/slack/events`,
    SECRET,
    slashCommand('/alerts', text, slack.responseUrl(id), { team_id: teamId, channel_id: channel, user_id: user }),
  );
  return {
    status: res.status,
    reply: async () => (
      await slack.waitFor(() => slack.responses(id).length > 0, 15_000),
      slack.responses(id).at(-1) as { text: string }
    ),
  };
}

/** An Events API callback, signed as Slack signs it. */
async function event(teamId: string, type: string, extra: Record<string, unknown> = {}) {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: teamId,
    api_app_id: 'A0MANZIL',
    event_id: `Ev${++seq}`,
    event_time: 1,
    event: { type, ...extra },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  return fetch(`${base()}/slack/events`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': sign(SECRET, timestamp, body),
    },
  });
}

const postsTo = (channel: string) =>
  slack
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === channel && c.status === 200 && (c.response as { ok?: boolean }).ok);

/** The market moves and the poller runs until it queues something; then everything due is delivered. */
async function newListings(): Promise<void> {
  let queued = 0;
  for (let runs = 0; runs < 10 && queued === 0; runs++) {
    sandbox.advance(120);
    queued += (await manzil.alerts.poll()).queued;
  }
  expect(queued).toBeGreaterThan(0);
  await manzil.alerts.drainer.drain();
}

describe('Add to Slack', () => {
  it('installs two workspaces through Slack’s OAuth flow, keeping each token sealed in the database', async () => {
    for (const team of ['T0ALPHA', 'T0BETA']) {
      const done = await install(team);
      expect(done.status).toBe(200);
      expect(await done.text()).toMatch(/Thank you|success|installed/i);
    }
    expect(slack.callsTo('oauth.v2.access')).toHaveLength(2);
    const store = openStore(dbPath);
    try {
      const repo = createSlackInstallationRepo(store, sealerFrom({ key: ENCRYPTION_KEY, previous: [] }));
      expect((await repo.list()).map((r) => r.teamId).sort()).toEqual(['T0ALPHA', 'T0BETA']);
    } finally {
      store.close();
    }
    // Neither token is anywhere in the database file (nor in its write-ahead log).
    const bytes = ['', '-wal'].map((s) => {
      try {
        return readFileSync(dbPath + s).toString('latin1');
      } catch {
        return '';
      }
    });
    for (const team of ['T0ALPHA', 'T0BETA']) for (const b of bytes) expect(b).not.toContain(slack.tokenOf(team)!);
  });

  it('refuses a state it did not give out: no installation is made', async () => {
    const code = slack.approve('T0FORGED');
    const res = await fetch(`${base()}/slack/oauth_redirect?code=${code}&state=forged`, { redirect: 'manual' });
    expect(res.status).not.toBe(200);
    expect(slack.callsTo('oauth.v2.access')).toHaveLength(2);
  });

  it('answers each workspace, and asks Slack about its people with that workspace’s own token', async () => {
    const alpha = await command('T0ALPHA', 'C0ALPHA', 'add rent marina');
    expect(alpha.status).toBe(200);
    expect((await alpha.reply()).text).toMatch(/Saved as alert #1/);
    const beta = await command('T0BETA', 'C0BETA', 'add rent marina', 'U0BOB');
    expect((await beta.reply()).text).toMatch(/Saved as alert #1/);
    // Someone else in Beta pauses Bob's alert: an admin check, asked with Beta's token.
    slack.setUser('U0CAROL', { is_admin: true });
    const pause = await command('T0BETA', 'C0BETA', 'pause 1', 'U0CAROL');
    expect((await pause.reply()).text).toMatch(/Paused alert #1/);
    expect(slack.callsTo('users.info').map((c) => c.token)).toEqual([slack.tokenOf('T0BETA')]);
    expect((await (await command('T0BETA', 'C0BETA', 'resume 1', 'U0BOB')).reply()).text).toMatch(/Resumed alert #1/);
  });

  it('posts each workspace’s alerts with its own token', async () => {
    await newListings();
    for (const [team, channel] of [
      ['T0ALPHA', 'C0ALPHA'],
      ['T0BETA', 'C0BETA'],
    ] as const) {
      const posts = postsTo(channel);
      expect(posts.length).toBeGreaterThan(0);
      expect(new Set(posts.map((c) => c.token))).toEqual(new Set([slack.tokenOf(team)]));
    }
  });

  it('a workspace that removes the app loses its token; its alerts wait while the other’s go on; added again, they resume', async () => {
    slack.revokeWorkspace('T0BETA');
    expect((await event('T0BETA', 'app_uninstalled')).status).toBe(200);
    const store = openStore(dbPath);
    try {
      const installed = await createSlackInstallationRepo(
        store,
        sealerFrom({ key: ENCRYPTION_KEY, previous: [] }),
      ).list();
      expect(installed.map((r) => r.teamId)).toEqual(['T0ALPHA']);
    } finally {
      store.close();
    }
    const [alphaBefore, betaBefore] = [
      postsTo('C0ALPHA').length,
      slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'C0BETA').length,
    ];
    await newListings();
    expect(postsTo('C0ALPHA').length).toBeGreaterThan(alphaBefore);
    // Beta's alert was not even checked: nothing queued for it, nothing tried.
    expect(slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'C0BETA')).toHaveLength(betaBefore);
    expect(
      (await manzil.alerts.outbox.list({ channel: 'slack:T0BETA:C0BETA' })).filter((r) => r.state === 'pending'),
    ).toHaveLength(0);

    // Beta adds Manzil again: its alert goes on, posted with its new token.
    expect((await install('T0BETA')).status).toBe(200);
    await newListings();
    const after = postsTo('C0BETA').slice(betaBefore);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after.map((c) => c.token))).toEqual(new Set([slack.tokenOf('T0BETA')]));
  });

  it('a command from a workspace that never added the app is not answered, nor run with anyone else’s token', async () => {
    const id = `o${++seq}`;
    const calls = slack.calls.length;
    await signedPost(
      `${base()}/slack/events`,
      SECRET,
      slashCommand('/alerts', 'list', slack.responseUrl(id), { team_id: 'T0STRANGER', channel_id: 'C0ALPHA' }),
    );
    // Bolt's authorization finds no installation for it and drops the request before any listener runs. The same
    // command from Alpha, sent after it, is answered (calling nothing on Slack): had the stranger's run, it would be
    // too.
    expect((await (await command('T0ALPHA', 'C0ALPHA', 'list')).reply()).text).toMatch(/alerts in this channel/i);
    expect(slack.responses(id)).toEqual([]);
    expect(slack.calls.slice(calls)).toEqual([]);
  });
});

/** A button press from `team` in `channel`, with the value (token) of a button Manzil made. */
async function press(team: string, channel: string, action: string, value: string, user = 'U0ALICE') {
  const id = `o${++seq}`;
  const payload = blockAction(`manzil:${action}:0`, value, slack.responseUrl(id), 'b1', {
    user: { id: user, username: user, team_id: team },
    team: { id: team, domain: team.toLowerCase() },
    channel: { id: channel, name: channel },
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: channel },
  });
  await signedPost(`${base()}/slack/events`, SECRET, payload);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as { text: string };
}

/** The value of the first button of an action named `action` in an alert card posted to `channel`. */
const buttonOf = (channel: string, action: string): string | undefined => {
  for (const call of postsTo(channel)) {
    for (const block of (call.args.blocks ?? []) as {
      type: string;
      elements?: { action_id?: string; value?: string }[];
    }[]) {
      const found = block.elements?.find((e) => e.action_id?.startsWith(`manzil:${action}:`));
      if (found?.value) return found.value;
    }
  }
  return undefined;
};

describe('isolation between workspaces', () => {
  it('the same channel id in two workspaces keeps two separate sets of alerts: numbers, lists and changes stay in their own', async () => {
    expect((await (await command('T0ALPHA', 'C0SAME', 'add buy marina')).reply()).text).toMatch(/Saved as alert #1/);
    expect((await (await command('T0BETA', 'C0SAME', 'add rent jvc', 'U0BOB')).reply()).text).toMatch(
      /Saved as alert #1/,
    );
    const betaList = (await (await command('T0BETA', 'C0SAME', 'list', 'U0BOB')).reply()).text;
    expect(betaList).toMatch(/JVC|Jumeirah Village/i);
    expect(betaList).not.toMatch(/for sale in Dubai Marina/i);
    // Beta removing "#1" removes its own, never Alpha's.
    expect((await (await command('T0BETA', 'C0SAME', 'remove 1', 'U0BOB')).reply()).text).toMatch(/Removed alert #1/);
    expect((await (await command('T0ALPHA', 'C0SAME', 'list')).reply()).text).toMatch(/#1 · .*Dubai Marina/);
  });

  it('a button of one workspace’s message, pressed from another workspace’s channel, does nothing there', async () => {
    const details = buttonOf('C0ALPHA', 'details');
    expect(details).toBeDefined();
    // Pressed where it was posted: it works.
    expect((await press('T0ALPHA', 'C0ALPHA', 'details', details!)).text).not.toMatch(/no longer works|expired/i);
    // The same value, crafted into a press from Beta's channel: as for a button that no longer works.
    const calls = slack.calls.length;
    const crafted = await press('T0BETA', 'C0BETA', 'details', details!, 'U0BOB');
    expect(crafted.text).toMatch(/no longer works|expired|Run the command again/i);
    expect(slack.calls.slice(calls).filter((c) => c.method !== 'users.info')).toEqual([]);
  });
});

describe('Add to Slack with the delivery thread (as manzil start runs it)', () => {
  it('posts each workspace’s alerts from the thread with that workspace’s token, read from the sealed store', async () => {
    await manzil.stop();
    manzil = await startManzil({ env: env(), host: '127.0.0.1', writeLog: () => {}, deliveryThread: true });
    expect(manzil.deliveryThread).toBe(true);
    const before = { alpha: postsTo('C0ALPHA').length, beta: postsTo('C0BETA').length };
    const settled = async () =>
      (await manzil.alerts.outbox.stats()).pending + (await manzil.alerts.outbox.stats()).sending === 0;
    // The market moves until both workspaces' alerts have had something new, posted by the thread (nobody drains here).
    for (
      let runs = 0;
      runs < 10 && (postsTo('C0ALPHA').length === before.alpha || postsTo('C0BETA').length === before.beta);
      runs++
    ) {
      sandbox.advance(120);
      if ((await manzil.alerts.poll()).queued > 0) await slack.waitFor(settled, 15_000);
    }
    for (const [team, channel, was] of [
      ['T0ALPHA', 'C0ALPHA', before.alpha],
      ['T0BETA', 'C0BETA', before.beta],
    ] as const) {
      const posts = postsTo(channel).slice(was);
      expect(posts.length).toBeGreaterThan(0);
      expect(new Set(posts.map((c) => c.token))).toEqual(new Set([slack.tokenOf(team)]));
      // Each card carries its buttons, made in the thread from stored state alone (no Bot there).
      const actions = posts.flatMap((c) =>
        ((c.args.blocks ?? []) as { elements?: { action_id?: string }[] }[]).flatMap((b) =>
          (b.elements ?? []).map((e) => e.action_id ?? ''),
        ),
      );
      expect(
        actions.some((a) => a.startsWith('manzil:details:')),
        channel,
      ).toBe(true);
    }
  }, 120_000);
});
