// What the Slack adapter tells the core with every request: the channel (enough to post there later), Slack's surface
// limits and a lazy admin check. The real Bolt app started by the composition root on the embedded sandbox
// (MANZIL_SANDBOX=1), signed requests, and the fake Slack Web API. A pass-through spy on the real Bot records requests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Bot, type ActionRequest, type CommandRequest } from '../../src/bot/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'test-signing-secret-0002';
let slack: FakeSlack;
let manzil: Manzil;
let events: string;
let commands: MockInstance<Bot['handleCommand']>;
let actions: MockInstance<Bot['handleAction']>;
let seq = 0;

const slackEnv = (dbPath: string) => ({
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
});

beforeAll(async () => {
  slack = await startFakeSlack();
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-req-')), 'manzil.db');
  manzil = await startManzil({
    env: { ...slackEnv(dbPath), MANZIL_SANDBOX: '1' },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  commands = vi.spyOn(Bot.prototype, 'handleCommand');
  actions = vi.spyOn(Bot.prototype, 'handleAction');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await manzil.stop();
  await slack.close();
});
afterEach(() => {
  commands.mockClear();
  actions.mockClear();
});

type Payload = {
  text: string;
  response_type?: string;
  blocks?: { type: string; elements?: { action_id?: string; value?: string; text?: { text: string } }[] }[];
};

async function command(cmd: string, text: string, overrides: Record<string, string> = {}): Promise<Payload> {
  const id = `q${++seq}`;
  const res = await signedPost(events, SECRET, slashCommand(cmd, text, slack.responseUrl(id), overrides));
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 10_000);
  return slack.responses(id).at(-1) as Payload;
}

async function click(actionId: string, value: string, overrides: Record<string, unknown> = {}): Promise<Payload> {
  const id = `q${++seq}`;
  const res = await signedPost(events, SECRET, blockAction(actionId, value, slack.responseUrl(id), 'b1', overrides));
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 10_000);
  return slack.responses(id).at(-1) as Payload;
}

const lastCommand = (): CommandRequest => commands.mock.calls.at(-1)![0];
const lastAction = (): ActionRequest => actions.mock.calls.at(-1)![0];
const nextButton = (p: Payload) =>
  p.blocks!.flatMap((b) => b.elements ?? []).find((e) => /Next/.test(e.text?.text ?? ''))!;

describe('the channel of a request', () => {
  it('is the workspace and channel of a slash command', async () => {
    await command('/rent', 'marina 1br');
    expect(lastCommand().channel).toBe('slack:T0TEST:C0DEALS');
  });

  it('keeps a DM’s own channel id, so an alert can be posted there later', async () => {
    await command('/rent', 'marina 1br', { channel_id: 'D0ALICEDM', channel_name: 'directmessage' });
    expect(lastCommand().channel).toBe('slack:T0TEST:D0ALICEDM');
  });

  it('falls back to the enterprise of an org-wide install when no team is sent', async () => {
    await command('/rent', 'marina 1br', { team_id: '', enterprise_id: 'E0ORG' });
    expect(lastCommand().channel).toBe('slack:E0ORG:C0DEALS');
  });

  it('takes a button press’s team from the person when the payload has no team, and its DM channel', async () => {
    const search = await command('/rent', 'marina');
    await click(nextButton(search).action_id!, nextButton(search).value!, {
      team: null,
      user: { id: 'U0ALICE', team_id: 'T0ALICE' },
      channel: { id: 'D0ALICEDM' },
    });
    expect(lastAction().channel).toBe('slack:T0ALICE:D0ALICEDM');
  });

  it('refuses politely, only to the person, when nothing says which workspace it came from', async () => {
    const reply = await command('/rent', 'marina 1br', { team_id: '' });
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toMatch(/can't tell which workspace/);
    expect(commands).not.toHaveBeenCalled();
    const search = await command('/rent', 'marina');
    commands.mockClear();
    const pressed = await click(nextButton(search).action_id!, nextButton(search).value!, {
      team: null,
      user: { id: 'U0ALICE' },
    });
    expect(pressed.response_type).toBe('ephemeral');
    expect(pressed.text).toMatch(/can't tell which workspace/);
    expect(actions).not.toHaveBeenCalled();
  });
});

describe('what Slack can show', () => {
  it('comes with every command and button press: 10 cards a page, 5 buttons a card', async () => {
    const search = await command('/rent', 'marina');
    expect(lastCommand().surface).toEqual({ cardsPerPage: 10, buttonsPerCard: 5 });
    await click(nextButton(search).action_id!, nextButton(search).value!);
    expect(lastAction().surface).toEqual({ cardsPerPage: 10, buttonsPerCard: 5 });
  });
});

describe('the admin check', () => {
  it('asks Slack nothing until the bot needs to know', async () => {
    slack.reset();
    await command('/rent', 'marina 1br');
    expect(slack.callsTo('users.info')).toEqual([]);
  });

  it('is true for a workspace admin or owner, false for a member, and asks users.info once per person for a while', async () => {
    await command('/alerts', 'list', { user_id: 'U0ADMIN' });
    const admin = lastCommand().isAdmin!;
    await command('/alerts', 'list', { user_id: 'U0OWNER' });
    const owner = lastCommand().isAdmin!;
    await command('/alerts', 'list', { user_id: 'U0MEMBER' });
    const member = lastCommand().isAdmin!;
    slack.reset();
    slack.setUser('U0ADMIN', { is_admin: true });
    slack.setUser('U0OWNER', { is_owner: true });
    expect(await Promise.all([admin(), admin(), owner(), member()])).toEqual([true, true, true, false]);
    expect(await admin()).toBe(true);
    expect(
      slack
        .callsTo('users.info')
        .map((c) => c.args.user)
        .sort(),
    ).toEqual(['U0ADMIN', 'U0MEMBER', 'U0OWNER']);
  });

  it('is false, not an error, when Slack cannot answer, and asks again next time', async () => {
    await command('/alerts', 'list', { user_id: 'U0BOSS' });
    const boss = lastCommand().isAdmin!;
    slack.reset();
    slack.setUser('U0BOSS', { is_admin: true });
    slack.failNext('users.info', { status: 429, retryAfter: 30 });
    const started = Date.now();
    expect(await boss()).toBe(false);
    expect(slack.callsTo('users.info')).toHaveLength(1); // not retried
    expect(Date.now() - started).toBeLessThan(10_000); // nor waited out (30 s)
    expect(await boss()).toBe(true);
  });

  it('comes with a button press too', async () => {
    slack.setUser('U0ALICE', { is_admin: true });
    const search = await command('/rent', 'marina');
    await click(nextButton(search).action_id!, nextButton(search).value!);
    expect(await lastAction().isAdmin!()).toBe(true);
  });
});

describe('the /alerts command', () => {
  it('reaches the bot as typed', async () => {
    await command('/alerts', 'add rent marina 2br < 150k');
    expect(lastCommand().text).toBe('/alerts add rent marina 2br < 150k');
  });
});

describe('serving Slack on the sandbox', () => {
  it('is refused at start without UAE_API_KEY or MANZIL_SANDBOX=1, naming MANZIL_SANDBOX', async () => {
    const env = slackEnv(join(mkdtempSync(join(tmpdir(), 'manzil-req-')), 'manzil.db'));
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/MANZIL_SANDBOX=1/);
    await expect(startManzil({ env, host: '127.0.0.1', writeLog: () => {} })).rejects.toThrow(
      /UAE_API_KEY[\s\S]*MANZIL_SANDBOX/,
    );
    expect(() => loadConfig({ ...env, MANZIL_SANDBOX: '1' })).not.toThrow();
  });
});
