// Enterprise Grid, end to end through the real Bolt installer and signed HTTP against the fake Slack: a workspace of a
// Grid org adds Manzil (oauth.v2.access names its enterprise, and Bolt saves it under enterprise and team), its
// commands are answered, its admins may manage anyone's alert and its other members may not, its alerts and digests are
// posted to its channel with its own token, and once it removes the app its deliveries wait until it adds it again.
// An org-wide install (`is_enterprise_install`) is refused with a page that says what to do; nothing is saved.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createSlackInstallationRepo, openStore, REMOVED_REASON, sealerFrom } from '../../src/store/index.js';
import { startFakeSlack, type FakeGrid, type FakeSlack } from '../fakes/slack-api.js';
import { sign, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'grid-signing-secret-25';
const KEY = 'sk-grid-e2e-2525';
const OAUTH = { clientId: '2525.2525', clientSecret: 'grid-client-secret-25' };
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const NEVER = '0 0 1 1 *';
const GRID = { enterpriseId: 'E0GRID', team: 'T0GRID', channel: 'C0GRID' };
const CHANNEL = `slack:${GRID.team}:${GRID.channel}`;
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let dbPath: string;
const logs: string[] = [];
let seq = 0;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack({ oauth: OAUTH });
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-grid-')), 'manzil.db');
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      SLACK_CLIENT_ID: OAUTH.clientId,
      SLACK_CLIENT_SECRET: OAUTH.clientSecret,
      SLACK_STATE_SECRET: 'grid-state-secret-25',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      MANZIL_ENCRYPTION_KEY: ENCRYPTION_KEY,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'info',
      ALERTS_CRON: NEVER,
      DIGESTS_CRON: NEVER,
    },
    host: '127.0.0.1',
    writeLog: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await manzil?.stop();
  await slack?.close();
  await sandbox?.close();
});

const base = () => `http://127.0.0.1:${manzil.slackPort}`;

/**
 * Someone clicks Add to Slack, approves on Slack's page (for a workspace of an org, or the whole org), and comes back.
 */
async function install(teamId: string, grid: FakeGrid): Promise<Response> {
  const start = await fetch(`${base()}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const state = new URL(start.headers.get('location')!).searchParams.get('state');
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const code = slack.approve(teamId, `Workspace ${teamId}`, 'U0INSTALLER', grid);
  return fetch(`${base()}/slack/oauth_redirect?code=${code}&state=${state}`, {
    headers: { cookie },
    redirect: 'manual',
  });
}

const installed = async () => {
  const store = openStore(dbPath);
  try {
    return (await createSlackInstallationRepo(store, sealerFrom({ key: ENCRYPTION_KEY, previous: [] })).list()).map(
      (r) => ({ teamId: r.teamId, enterpriseId: r.enterpriseId }),
    );
  } finally {
    store.close();
  }
};

/** A slash command typed in the Grid workspace's channel, as Slack posts it from a workspace of an org. */
async function command(slash: string, text: string, user = 'U0ALICE', origin: Record<string, string> = {}) {
  const id = `g${++seq}`;
  const form = slashCommand(slash, text, slack.responseUrl(id), {
    team_id: GRID.team,
    enterprise_id: GRID.enterpriseId,
    is_enterprise_install: 'false',
    channel_id: GRID.channel,
    user_id: user,
    ...origin,
  });
  const res = await signedPost(`${base()}/slack/events`, SECRET, form);
  expect(res.status).toBe(200);
  return id;
}

/** The answer the person saw at the command's response_url. */
async function answer(slash: string, text: string, user = 'U0ALICE'): Promise<{ text: string }> {
  const id = await command(slash, text, user);
  // Wide: a wall-clock bound here only says "no hang" on a loaded machine.
  await slack.waitFor(() => slack.responses(id).length > 0, 30_000);
  return slack.responses(id).at(-1) as { text: string };
}

/** An Events API callback from the Grid workspace, as Slack sends it (with its authorizations), signed. */
async function event(type: string) {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: GRID.team,
    enterprise_id: GRID.enterpriseId,
    api_app_id: 'A0MANZIL',
    event_id: `Ev${++seq}`,
    event_time: 1,
    authorizations: [
      {
        enterprise_id: GRID.enterpriseId,
        team_id: GRID.team,
        user_id: 'U0BOT',
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    event: { type },
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

/** chat.postMessage calls Slack accepted in the Grid channel (`tried`: every call, refused ones included). */
const postsHere = (tried = false) =>
  slack
    .callsTo('chat.postMessage')
    .filter(
      (c) => c.args.channel === GRID.channel && (tried || (c.status === 200 && (c.response as { ok?: boolean }).ok)),
    );
const alertPosts = () => postsHere().filter((c) => !/^Market digest/.test(String(c.args.text)));

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

describe('a workspace of an Enterprise Grid org', () => {
  it('adds Manzil through Slack’s OAuth flow, is answered, and its admins may manage anyone’s alert while its other members may not', async () => {
    const done = await install(GRID.team, { enterpriseId: GRID.enterpriseId });
    expect(done.status).toBe(200);
    expect(await done.text()).toMatch(/Thank you/);
    // Kept as Bolt saves it: under its enterprise and its team.
    expect(await installed()).toEqual([{ teamId: GRID.team, enterpriseId: GRID.enterpriseId }]);
    expect((await answer('/alerts', 'add rent marina')).text).toMatch(/Saved as alert #1/);
    slack.setUser('U0CAROL', { is_admin: true, team_id: GRID.team });
    expect((await answer('/alerts', 'pause 1', 'U0BOB')).text).toMatch(
      /Only the person who saved alert #1, or a workspace or server admin/,
    );
    expect((await answer('/alerts', 'pause 1', 'U0CAROL')).text).toMatch(/Paused alert #1/);
    expect((await answer('/alerts', 'resume 1')).text).toMatch(/Resumed alert #1/);
    const asked = slack.callsTo('users.info');
    expect(asked.map((c) => c.args.user).sort()).toEqual(['U0BOB', 'U0CAROL']);
    expect(new Set(asked.map((c) => c.token))).toEqual(new Set([slack.tokenOf(GRID.team)]));
  }, 120_000);

  it('gets its alert’s new listings in its channel, posted with its own token', async () => {
    await newListings();
    expect(alertPosts().length).toBeGreaterThan(0);
    expect(new Set(postsHere(true).map((c) => c.token))).toEqual(new Set([slack.tokenOf(GRID.team)]));
    expect(await manzil.alerts.outbox.heldChannel(CHANNEL)).toBeUndefined();
  }, 120_000);

  it('gets a digest in its channel, its chart uploaded and shown, with its own token', async () => {
    expect((await answer('/digest', 'now dubai marina')).text).toMatch(/Composing the digest of Dubai Marina/);
    const digests = () => postsHere().filter((c) => /^Market digest: Dubai Marina/.test(String(c.args.text)));
    await slack.waitFor(() => digests().length > 0, 40_000);
    const [digest] = digests();
    expect(digest!.token).toBe(slack.tokenOf(GRID.team));
    const shown = ((digest!.args.blocks ?? []) as { type: string; slack_file?: { id: string } }[]).filter(
      (b) => b.type === 'image',
    );
    expect(shown).toHaveLength(1);
    const upload = slack.callsTo('files.completeUploadExternal').at(-1)!;
    expect(upload.token).toBe(slack.tokenOf(GRID.team));
  }, 120_000);

  it('removes the app: its alerts wait, nothing is tried; added again, they go on with the new token', async () => {
    slack.revokeWorkspace(GRID.team);
    expect((await event('app_uninstalled')).status).toBe(200);
    await slack.waitFor(async () => (await installed()).length === 0, 30_000);
    expect((await manzil.alerts.outbox.heldChannel(CHANNEL))?.reason).toBe(REMOVED_REASON);

    const tried = postsHere(true).length;
    for (let runs = 0; runs < 5; runs++) {
      sandbox.advance(120);
      expect((await manzil.alerts.poll()).queued).toBe(0);
    }
    await manzil.alerts.drainer.drain();
    expect(postsHere(true)).toHaveLength(tried);

    expect((await install(GRID.team, { enterpriseId: GRID.enterpriseId })).status).toBe(200);
    expect(await manzil.alerts.outbox.heldChannel(CHANNEL)).toBeUndefined();
    await newListings();
    const after = postsHere(true).slice(tried);
    expect(after.filter((c) => (c.response as { ok?: boolean }).ok).length).toBeGreaterThan(0);
    expect(new Set(after.map((c) => c.token))).toEqual(new Set([slack.tokenOf(GRID.team)]));
  }, 120_000);
});

describe('an org-wide install', () => {
  it('is refused with a page saying to add Manzil to each workspace; its token is revoked and nothing is saved', async () => {
    const before = await installed();
    const done = await install('T0ORGWS', { enterpriseId: 'E0ORG', orgWide: true });
    expect(done.status).toBe(403);
    const page = await done.text();
    expect(page).toMatch(/one workspace at a time/);
    expect(page).toMatch(/Nothing was installed/);
    expect(page).toContain('href="/slack/install"');
    expect(await installed()).toEqual(before);
    // Its token no longer works at Slack: revoked with itself.
    const revoke = slack.callsTo('auth.revoke');
    expect(revoke).toHaveLength(1);
    expect(revoke[0]!.token).toMatch(/^xoxb-E0ORG-/);
    expect(slack.tokenOf('E0ORG')).toBeUndefined();
    // The operator's log says what happened, naming the org and never the token.
    expect(logs.some((l) => l.includes('refused an org-wide') && l.includes('E0ORG'))).toBe(true);
    expect(logs.join('\n')).not.toContain(revoke[0]!.token!);

    // A command from a workspace of that org, sent as an org-wide install's, is not answered: there is no installation.
    const id = await command('/alerts', 'list', 'U0ORGADMIN', {
      team_id: 'T0ORGWS',
      enterprise_id: 'E0ORG',
      is_enterprise_install: 'true',
      channel_id: 'C0ORG',
    });
    expect((await answer('/alerts', 'list')).text).toMatch(/alerts in this channel/i);
    expect(slack.responses(id)).toEqual([]);
  }, 120_000);
});
