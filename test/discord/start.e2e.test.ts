// `manzil start` with Discord configured: a real process with no stdin (as under a service manager) keeps serving
// Discord instead of running the terminal chat; and with Slack and Discord both configured, one process serves both.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil } from '../../src/app/index.js';
import { shownText, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';
import { manzilArgs } from '../support/child.js';

/** Where the signed Slack requests of test/fakes/slack-sign.ts come from. */
const SLACK_CHANNEL = 'C0DEALS';
let fake: FakeDiscord;
const tempDb = () => join(mkdtempSync(join(tmpdir(), 'manzil-discord-start-')), 'manzil.db');

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

const answered = async (token: string) =>
  fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);

describe('manzil start with only Discord configured', () => {
  it('keeps serving with no stdin, answers a command, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, manzilArgs('start'), {
      env: {
        ...process.env,
        MANZIL_FROM_SOURCE: '1',
        MANZIL_SANDBOX: '1',
        UAE_API_KEY: '',
        SLACK_BOT_TOKEN: '',
        SLACK_SIGNING_SECRET: '',
        DISCORD_TOKEN: fake.botToken,
        DISCORD_API_URL: fake.apiUrl,
        MANZIL_DB_PATH: tempDb(),
        PORT: '0',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      await fake.waitFor(() => /connected to the gateway/.test(out), 20_000);
      // Still there after stdin's end, which would have ended a terminal chat.
      expect(child.exitCode).toBeNull();
      expect(out).not.toMatch(/Manzil terminal chat/);
      const { token } = await fake.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina' }], {
        channelId: fake.channelId,
      });
      await answered(token);
      expect(shownText(fake.original(token))).toMatch(/for rent in Dubai Marina/);
      expect(JSON.stringify(fake.original(token))).toMatch(/Sample data from the local sandbox/);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(out).not.toContain(fake.botToken);
    expect(fake.violations()).toEqual([]);
  }, 120_000);
});

describe('Slack and Discord configured together', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  afterAll(() => slack.close());

  it('serves both from one process, and delivers an alert saved on each platform there, each listing once', async () => {
    const secret = 'both-signing-secret-0001';
    const logs: string[] = [];
    const manzil = await startManzil({
      env: {
        MANZIL_SANDBOX: '1',
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_SIGNING_SECRET: secret,
        SLACK_API_URL: slack.apiUrl,
        DISCORD_TOKEN: fake.botToken,
        DISCORD_API_URL: fake.apiUrl,
        PORT: '0',
        MANZIL_DB_PATH: tempDb(),
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      host: '127.0.0.1',
      writeLog: (l) => logs.push(l),
    });
    try {
      expect(manzil.slack).toBeDefined();
      expect(manzil.discord).toBeDefined();
      const res = await signedPost(
        `http://127.0.0.1:${manzil.slackPort}/slack/events`,
        secret,
        slashCommand('/buy', 'marina', slack.responseUrl('both')),
      );
      expect(res.status).toBe(200);
      await slack.waitFor(() => slack.responses('both').length > 0, 15_000);
      const { token } = await fake.slashCommand('buy', [{ name: 'query', type: 3, value: 'marina' }]);
      await answered(token);
      expect(shownText(fake.original(token))).toMatch(/for sale in Dubai Marina/);
      // The operator's log line names the platforms alerts are delivered to.
      const scheduled = logs
        .map((l) => JSON.parse(l) as { msg: string; platforms?: string[] })
        .find((l) => l.msg === 'alerts: poller scheduled');
      expect(scheduled?.platforms).toEqual(['slack', 'discord']);

      // The same search saved as an alert on each platform: new listings reach both, once each.
      const saveOnSlack = await signedPost(
        `http://127.0.0.1:${manzil.slackPort}/slack/events`,
        secret,
        slashCommand('/alerts', 'add rent marina', slack.responseUrl('save')),
      );
      expect(saveOnSlack.status).toBe(200);
      await slack.waitFor(() => slack.responses('save').length > 0, 15_000);
      expect(JSON.stringify(slack.responses('save'))).toMatch(/Saved as alert #\d+: Homes for rent in Dubai Marina/);
      const saveOnDiscord = await fake.slashCommand('alerts', [
        { name: 'add', type: 1, options: [{ name: 'query', type: 3, value: 'rent marina' }] },
      ]);
      await answered(saveOnDiscord.token);
      expect(JSON.stringify(fake.original(saveOnDiscord.token))).toMatch(
        /Saved as alert #\d+: Homes for rent in Dubai Marina/,
      );

      const slackAlerts = () => slack.messages(SLACK_CHANNEL).filter((m) => m.metadata?.event_type === 'manzil_alert');
      const settled = async () =>
        (await manzil.alerts.outbox.stats()).pending + (await manzil.alerts.outbox.stats()).sending === 0;
      await manzil.alerts.poll(); // what is listed now is not news
      await manzil.alerts.drainer.drain();
      const before = { slack: slackAlerts().length, discord: fake.messages(fake.channelId).length };
      manzil.sandbox!.advance(60);
      const report = await manzil.alerts.poll();
      await manzil.alerts.drainer.drain();
      await fake.waitFor(settled, 15_000);
      const onSlack = slackAlerts().slice(before.slack);
      const onDiscord = fake.messages(fake.channelId).slice(before.discord);
      expect(onSlack.length).toBeGreaterThan(0);
      expect(onDiscord.length).toBe(onSlack.length); // the same search: the same new listings on each
      expect(onSlack.length + onDiscord.length).toBe(report.queued);
      // Once each: no listing twice on a platform.
      const listings = (texts: string[]) => texts.map((t) => /property\/(\d+)/.exec(t)?.[1]);
      const slackListings = listings(onSlack.map((m) => JSON.stringify(m.blocks ?? m.text)));
      const discordListings = listings(onDiscord.map((m) => JSON.stringify(m.body)));
      expect([...slackListings, ...discordListings].every(Boolean)).toBe(true);
      expect(new Set(slackListings).size).toBe(onSlack.length);
      expect(new Set(discordListings).size).toBe(onDiscord.length);
      expect(new Set(onDiscord.map((m) => m.nonce)).size).toBe(onDiscord.length);
      await manzil.alerts.poll(); // nothing new since: nothing more
      await manzil.alerts.drainer.drain();
      expect(slackAlerts().slice(before.slack)).toHaveLength(onSlack.length);
      expect(fake.messages(fake.channelId).slice(before.discord)).toHaveLength(onDiscord.length);
      expect(fake.violations()).toEqual([]);
    } finally {
      await manzil.stop();
    }
  }, 120_000);
});
