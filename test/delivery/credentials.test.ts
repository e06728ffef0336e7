// Issue 15, acceptance: a platform refusing our credentials pauses the platform as a whole, not each message. Slack
// answers `invalid_auth` to every call for 10 minutes of the delivery clock, then accepts the token again without a
// restart; Discord answers 401 for a while, then is fixed. Manzil is served by the composition root (the real Bolt app,
// the real discord.js logged in to the fake Discord), so /healthz and /metrics are read over HTTP as an operator would.
// The paused platform is probed on real timers (its first probe 5 s after the pause, then 10 s later: startManzil
// offers no way to make that shorter), which sets how long these tests take.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import {
  FakeClock,
  MINUTE,
  alertPosts,
  bootSlack,
  deliveryIdOf,
  queueNewListings,
  saveAlerts,
  settled,
  slackChannel,
  type Booted,
} from './helpers.js';

const PAUSED = /^chat platform refused our credentials/;
const RESUMED = /^chat platform accepts our credentials again/;

let slack: FakeSlack | undefined;
let discord: FakeDiscord | undefined;
let manzil: Manzil | undefined;
afterEach(async () => {
  await manzil?.stop();
  await slack?.close();
  await discord?.close();
  manzil = slack = discord = undefined;
});

async function health(port: number): Promise<{
  status: number;
  body: { status: string; checks: { platforms: { ok: boolean; paused: { platform: string; reason: string }[] } } };
}> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: (await res.json()) as never };
}

async function pausedGauge(port: number, platform: string): Promise<string | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return new RegExp(`^manzil_platform_paused\\{platform="${platform}"\\} (\\d+)$`, 'm').exec(text)?.[1];
}

const channelPosts = (fake: FakeSlack, channels: readonly string[]) => channels.flatMap((c) => alertPosts(fake, c));
const lines = (logs: Booted['logs'], msg: RegExp, platform: string) =>
  logs.filter((l) => msg.test(l.msg) && l.platform === platform);

describe('Slack answering invalid_auth for 10 minutes, then accepting the token again without a restart', () => {
  it('pauses Slack as a whole (healthz, metrics, one log line), loses nothing, then resumes on its own and posts each alert once', async () => {
    const clock = new FakeClock(0);
    slack = await startFakeSlack({ clock: clock.now });
    // The detailed /healthz and /metrics on the ops server (OPS_PORT): Slack's public port answers only liveness.
    const booted = await bootSlack(slack, clock, { serve: true, env: { OPS_PORT: '0' } });
    manzil = booted.manzil;
    const port = manzil.opsPort!;
    const channels = ['C0TOKEN1', 'C0TOKEN2'];
    await saveAlerts(manzil, channels.map(slackChannel));
    expect(await health(port)).toMatchObject({
      status: 200,
      body: { checks: { platforms: { ok: true, paused: [] } } },
    });

    slack.refuseAuth(true);
    let queued = await queueNewListings(manzil); // wakes the background drainer: its first post is refused
    await slack.waitFor(() => manzil!.alerts.drainer.gate.isPaused('slack'), 10_000);
    const postsAtPause = slack.callsTo('chat.postMessage').length;
    const probesAtPause = slack.callsTo('auth.test').length;

    const paused = await health(port);
    expect(paused.status).toBe(503);
    expect(paused.body.checks.platforms).toMatchObject({
      ok: false,
      paused: [{ platform: 'slack', reason: expect.stringMatching(/invalid_auth/) }],
    });
    expect(await pausedGauge(port, 'slack')).toBe('1');
    expect(manzil.alerts.drainer.gate.status()).toEqual([expect.objectContaining({ platform: 'slack', paused: true })]);

    // Ten minutes of the delivery clock: more alerts are queued, passes run, and nothing is tried on Slack.
    for (let minute = 1; minute <= 10; minute++) {
      clock.advance(MINUTE);
      if (minute === 5) queued += await queueNewListings(manzil);
      await manzil.alerts.drainer.drain();
    }
    // The probe (auth.test) is refused too, and the platform stays paused.
    await slack.waitFor(() => slack!.callsTo('auth.test').length > probesAtPause, 10_000);
    expect(
      slack
        .callsTo('auth.test')
        .slice(probesAtPause)
        .every((c) => (c.response as { error?: string }).error === 'invalid_auth'),
    ).toBe(true);
    expect(manzil.alerts.drainer.gate.isPaused('slack')).toBe(true);
    const attemptsDuringPause = slack.callsTo('chat.postMessage');
    expect(attemptsDuringPause).toHaveLength(postsAtPause);
    expect(attemptsDuringPause.length).toBeGreaterThan(0);
    expect(attemptsDuringPause.length).toBeLessThanOrEqual(3);
    expect(channelPosts(slack, channels)).toEqual([]);
    expect(await manzil.alerts.outbox.stats()).toMatchObject({ failed: 0, delivered: 0 });

    // The token works again: the next probe sees it, Slack resumes, and the queue is delivered with no restart.
    slack.refuseAuth(false);
    await slack.waitFor(() => channelPosts(slack!, channels).length >= queued && settled(manzil!), 30_000);
    const posts = channelPosts(slack, channels);
    const ids = posts.map(deliveryIdOf);
    expect(new Set(ids).size).toBe(ids.length);
    expect(posts).toHaveLength(queued);
    expect(await manzil.alerts.outbox.stats()).toMatchObject({ delivered: queued, failed: 0, possibleDuplicates: 0 });
    // Pausing spent no attempt of any alert.
    expect((await manzil.alerts.outbox.list()).map((r) => r.attempts)).toEqual(
      (await manzil.alerts.outbox.list()).map(() => 0),
    );

    expect(await health(port)).toMatchObject({
      status: 200,
      body: { checks: { platforms: { ok: true, paused: [] } } },
    });
    expect(await pausedGauge(port, 'slack')).toBe('0');
    expect(lines(booted.logs, PAUSED, 'slack')).toHaveLength(1);
    expect(lines(booted.logs, PAUSED, 'slack')[0]!.level).toBe('error');
    expect(lines(booted.logs, RESUMED, 'slack')).toHaveLength(1);
  }, 60_000);
});

describe('Discord answering 401 for a while, then fixed', () => {
  it('pauses Discord (healthz, metrics, one log line), then resumes on its own and posts each alert once', async () => {
    const clock = new FakeClock(0);
    discord = await startFakeDiscord();
    const logs: Booted['logs'] = [];
    manzil = await startManzil({
      env: {
        MANZIL_SANDBOX: '1',
        DISCORD_TOKEN: discord.botToken,
        DISCORD_API_URL: discord.apiUrl,
        PORT: '0',
        LOG_LEVEL: 'info',
        MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-delivery-')), 'manzil.db'),
      },
      host: '127.0.0.1',
      clock: clock.now,
      writeLog: (line) => logs.push(JSON.parse(line) as Booted['logs'][number]),
    });
    const port = manzil.opsPort!;
    const channel = `discord:${discord.guildId}:${discord.channelId}`;
    await saveAlerts(manzil, [channel]);
    const channelMessages = /^\/channels\/\d+\/messages$/;
    const postsTo = () => discord!.requests().filter((r) => r.method === 'POST' && channelMessages.test(r.path));

    const fixed = discord.failUntilOff('*', /./, 401); // every REST call, GET /users/@me included
    let queued = await queueNewListings(manzil);
    await discord.waitFor(() => manzil!.alerts.drainer.gate.isPaused('discord'), 10_000);
    const refusedPosts = postsTo().length;
    expect((await health(port)).body.checks.platforms).toMatchObject({ ok: false, paused: [{ platform: 'discord' }] });
    expect(await pausedGauge(port, 'discord')).toBe('1');

    for (let minute = 1; minute <= 10; minute++) {
      clock.advance(MINUTE);
      if (minute === 5) queued += await queueNewListings(manzil);
      await manzil.alerts.drainer.drain();
    }
    // Probed (and refused) at least once while paused; no post tried meanwhile.
    await discord.waitFor(
      () => discord!.requests().some((r) => r.method === 'GET' && r.path === '/users/@me' && r.status === 401),
      10_000,
    );
    expect(postsTo()).toHaveLength(refusedPosts);
    expect(refusedPosts).toBeGreaterThan(0);
    expect(refusedPosts).toBeLessThanOrEqual(3);
    expect(discord.messages(discord.channelId)).toEqual([]);

    fixed();
    await discord.waitFor(() => discord!.messages(discord!.channelId).length >= queued && settled(manzil!), 30_000);
    const messages = discord.messages(discord.channelId);
    expect(messages).toHaveLength(queued);
    expect(new Set(messages.map((m) => m.nonce)).size).toBe(queued);
    expect(await manzil.alerts.outbox.stats()).toMatchObject({ delivered: queued, failed: 0, possibleDuplicates: 0 });
    expect((await manzil.alerts.outbox.list()).every((r) => r.attempts === 0)).toBe(true);
    expect((await health(port)).body.checks.platforms).toMatchObject({ ok: true, paused: [] });
    expect(await pausedGauge(port, 'discord')).toBe('0');
    expect(lines(logs, PAUSED, 'discord')).toHaveLength(1);
    expect(lines(logs, RESUMED, 'discord')).toHaveLength(1);
  }, 60_000);
});
