// The outcome contract: each chat platform's poster turns every way a post can fail into one of the outbox's outcomes,
// answers lookups and credential probes, end to end: the real WebClient against the fake Slack, the real discord.js
// REST manager (configured as the app configures it) against the fake Discord. Each platform brings its own ways of
// failing; every outcome kind must be among them, and every entry of its outcome table is produced as the table says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordRestOptions } from '../../adapters/discord/app.js';
import { DISCORD_DEFAULT_WAIT_MS, DISCORD_JSON_CODES } from '../../adapters/discord/outcomes.js';
import { DiscordPoster, NONCE_WINDOW_MS } from '../../adapters/discord/poster.js';
import { SLACK_DEFAULT_WAIT_MS, SLACK_ERROR_CODES } from '../../adapters/slack/outcomes.js';
import { SLACK_SETTLE_MS, SlackPoster, postingClient } from '../../adapters/slack/poster.js';
import type { Reply } from '../../src/bot/index.js';
import {
  PostFailure,
  type ChatPoster,
  type CredentialsCheck,
  type FailureOutcome,
  type LookupRequest,
  type LookupResult,
} from '../../src/ports/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { DEFAULT_SLACK_SCOPES, startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

type Poster = ChatPoster & Required<Pick<ChatPoster, 'findDelivered' | 'checkCredentials'>>;

/**
 * What a case set up: another poster to use (a client with a short timeout, one aimed at a dead port), and its undo.
 */
interface Arranged {
  poster?: Poster;
  undo?: () => void | Promise<void>;
}

interface FailureCase {
  outcome: FailureOutcome;
  how: string;
  /** For `wait`: the wait the failure must carry. */
  retryAfterMs?: number;
  /** Where to post, when not the platform's place. */
  channel?(): string;
  arrange(): Promise<Arranged> | Arranged;
  /** Checked after the failure, before the undo (what the platform holds now). */
  after?(): Promise<void> | void;
}

interface LookupCase {
  kind: LookupResult['kind'];
  how: string;
  /** Sets the platform up and says what to look for. */
  arrange(): Promise<{ request: LookupRequest } & Arranged>;
  check?(result: LookupResult): void;
}

interface CredentialsCase {
  kind: CredentialsCheck['kind'];
  how: string;
  arrange(): Promise<Arranged> | Arranged;
}

interface Platform {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  poster(): Poster;
  channel(): string;
  /** The token the poster uses. */
  secret(): string;
  failures: FailureCase[];
  lookups: LookupCase[];
  /**
   * The lookup answers this platform can give at all (Discord cannot find a message, nor fail a look it never makes).
   */
  lookupKinds: LookupResult['kind'][];
  credentials: CredentialsCase[];
}

const reply: Reply = {
  text: 'New listing for alert #7',
  blocks: [
    { kind: 'header', text: 'New in Dubai Marina' },
    {
      kind: 'card',
      card: {
        title: 'Marina Gate 2BR',
        url: 'https://example.com/property/1',
        imageUrl: 'https://cdn.example.com/1.jpg',
        fields: [{ label: 'Price', value: 'AED 150,000/yr' }],
      },
    },
  ],
};

let delivery = 0;
const nextDelivery = () => `oc${++delivery}`;

/** A loopback port nobody listens on: connections to it are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that drops every connection as soon as a request arrives: a reset mid-call. */
async function resettingServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req) => req.socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function postFailure(poster: ChatPoster, channel: string): Promise<PostFailure> {
  const error = await poster.post(channel, reply, nextDelivery()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PostFailure);
  return error as PostFailure;
}

// ---- Slack ----------------------------------------------------------------------------------------------------

function slack(): Platform {
  let fake: FakeSlack;
  let poster: SlackPoster;
  let resetting: { url: string; server: Server };
  const channelId = 'C0OUTCOMES';
  const channel = `slack:T0TEST:${channelId}`;
  const client = (options: { apiUrl?: string; timeoutMs?: number } = {}) =>
    postingClient('xoxb-test', { apiUrl: options.apiUrl ?? fake.apiUrl, timeoutMs: options.timeoutMs ?? 2_000 });
  /** A lookup of a delivery whose only attempt was `ago` ms before `now`. */
  const request = (deliveryId: string, ago = SLACK_SETTLE_MS, now = Date.now()): LookupRequest => ({
    channel,
    deliveryId,
    firstAttemptAt: now - ago,
    lastAttemptAt: now - ago,
    uncertainSince: now - ago,
    now,
  });
  /** Posts a delivery that Slack stores but answers `internal_error` for; resolves with its id. */
  const storedButFailed = async () => {
    const deliveryId = nextDelivery();
    fake.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });
    const failure = await poster.post(channel, reply, deliveryId).then(
      () => undefined,
      (e: unknown) => e as PostFailure,
    );
    expect(failure?.outcome).toBe('maybe_posted');
    return deliveryId;
  };

  const codes: FailureCase[] = Object.entries(SLACK_ERROR_CODES).map(([code, rule]) => ({
    outcome: rule.outcome,
    how: `the error code ${code}`,
    ...(rule.outcome === 'wait' ? { retryAfterMs: SLACK_DEFAULT_WAIT_MS } : {}),
    arrange: () => {
      // A content refusal is tried in each plainer form first: every one is refused.
      fake.failNext('chat.postMessage', { error: code }, rule.plainerMayPass ? 3 : 1);
      return {};
    },
  }));

  return {
    name: 'Slack',
    async start() {
      fake = await startFakeSlack();
      poster = new SlackPoster(client());
      resetting = await resettingServer();
    },
    async stop() {
      await fake.close();
      resetting.server.closeAllConnections();
      await new Promise((r) => resetting.server.close(r));
    },
    poster: () => poster,
    channel: () => channel,
    secret: () => 'xoxb-test',
    failures: [
      {
        outcome: 'retry',
        how: 'connections refused',
        arrange: async () => {
          await fake.refuseConnections();
          return { undo: () => fake.refuseConnections(false) };
        },
      },
      {
        outcome: 'maybe_posted',
        how: 'internal_error after Slack stored the message',
        arrange: () => {
          fake.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });
          return {};
        },
        after: () =>
          expect(fake.messages(channelId).at(-1)?.metadata?.event_payload).toEqual({ delivery_id: `oc${delivery}` }),
      },
      {
        outcome: 'maybe_posted',
        how: 'an outage answering 503',
        arrange: () => {
          fake.outage(503);
          return { undo: () => fake.outage(undefined) };
        },
      },
      {
        outcome: 'maybe_posted',
        how: 'a 500',
        arrange: () => (fake.failNext('chat.postMessage', { status: 500 }), {}),
      },
      {
        outcome: 'maybe_posted',
        how: 'a 502',
        arrange: () => (fake.failNext('chat.postMessage', { status: 502 }), {}),
      },
      {
        outcome: 'maybe_posted',
        how: 'a 504',
        arrange: () => (fake.failNext('chat.postMessage', { status: 504 }), {}),
      },
      {
        outcome: 'maybe_posted',
        how: 'no answer before the timeout',
        arrange: () => {
          const held = fake.holdNext('chat.postMessage');
          return { poster: new SlackPoster(client({ timeoutMs: 200 })), undo: () => held.release() };
        },
      },
      {
        outcome: 'maybe_posted',
        how: 'a connection reset mid-call',
        arrange: () => ({ poster: new SlackPoster(client({ apiUrl: `${resetting.url}/api/` })) }),
      },
      {
        outcome: 'wait',
        how: 'a 429 with Retry-After',
        retryAfterMs: 7_000,
        arrange: () => (fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 }), {}),
      },
      {
        outcome: 'wait',
        how: 'an outage answering 429 with Retry-After',
        retryAfterMs: 12_000,
        arrange: () => {
          fake.outage(429, { retryAfter: 12 });
          return { undo: () => fake.outage(undefined) };
        },
      },
      {
        outcome: 'retry',
        how: 'a 400 from something in between',
        arrange: () => (fake.failNext('chat.postMessage', { status: 400 }), {}),
      },
      {
        outcome: 'retry',
        how: 'a 404 from something in between',
        arrange: () => (fake.failNext('chat.postMessage', { status: 404 }), {}),
      },
      {
        outcome: 'retry',
        how: 'an error code no table knows',
        arrange: () => (fake.failNext('chat.postMessage', { error: 'brand_new_error' }), {}),
      },
      {
        outcome: 'credentials_refused',
        how: 'invalid_auth on every call',
        arrange: () => {
          fake.refuseAuth();
          return { undo: () => fake.refuseAuth(false) };
        },
      },
      {
        outcome: 'credentials_refused',
        how: 'a wrong token',
        arrange: () => ({ poster: new SlackPoster(postingClient('xoxb-wrong', { apiUrl: fake.apiUrl })) }),
      },
      {
        outcome: 'channel_unavailable',
        how: 'missing access to the channel (not_in_channel)',
        arrange: () => (fake.failNext('chat.postMessage', { error: 'not_in_channel' }), {}),
      },
      {
        outcome: 'rejected',
        how: 'blocks refused in every form',
        arrange: () => (fake.failNext('chat.postMessage', { error: 'invalid_blocks' }, 3), {}),
      },
      ...codes,
    ],
    lookupKinds: ['found', 'absent', 'cannot_tell', 'failed'],
    lookups: [
      {
        kind: 'found',
        how: 'a message Slack stored though it answered internal_error',
        arrange: async () => ({ request: request(await storedButFailed()) }),
        check: (result) => expect(result).toEqual({ kind: 'found', messageId: fake.messages(channelId).at(-1)!.ts }),
      },
      {
        kind: 'found',
        how: 'with a host clock 10 minutes fast when it posted (the window starts 15 minutes before)',
        arrange: async () => {
          const deliveryId = await storedButFailed();
          const fast = Date.now() + 10 * 60_000;
          return {
            request: {
              channel,
              deliveryId,
              firstAttemptAt: fast,
              lastAttemptAt: fast,
              uncertainSince: fast,
              now: fast + SLACK_SETTLE_MS,
            },
          };
        },
      },
      {
        kind: 'absent',
        how: 'a delivery no message carries, after the settle time',
        arrange: async () => ({ request: request(nextDelivery()) }),
      },
      {
        kind: 'cannot_tell',
        how: 'no history scope',
        arrange: async () => {
          fake.missingScope('conversations.history');
          return { request: request(nextDelivery()), undo: () => fake.missingScope('conversations.history', false) };
        },
      },
      {
        kind: 'cannot_tell',
        how: 'a local clock that went back since the attempt',
        arrange: async () => ({ request: request(nextDelivery(), -60_000) }),
      },
      {
        kind: 'failed',
        how: 'history answering 429',
        arrange: async () => {
          fake.failNext('conversations.history', { status: 429, retryAfter: 3 });
          return { request: request(nextDelivery()) };
        },
        check: (result) => expect(result).toMatchObject({ kind: 'failed', retryAfterMs: 3_000 }),
      },
      {
        kind: 'failed',
        how: 'history answering ratelimited',
        arrange: async () => {
          fake.failNext('conversations.history', { error: 'ratelimited' });
          return { request: request(nextDelivery()) };
        },
        check: (result) => expect(result).toMatchObject({ kind: 'failed', retryAfterMs: SLACK_DEFAULT_WAIT_MS }),
      },
      {
        kind: 'failed',
        how: 'an outage answering 503',
        arrange: async () => {
          fake.outage(503);
          return { request: request(nextDelivery()), undo: () => fake.outage(undefined) };
        },
      },
      {
        kind: 'failed',
        how: 'connections refused',
        arrange: async () => {
          await fake.refuseConnections();
          return { request: request(nextDelivery()), undo: () => fake.refuseConnections(false) };
        },
      },
      {
        kind: 'failed',
        how: 'no answer before the timeout',
        arrange: async () => {
          const held = fake.holdNext('conversations.history');
          return {
            request: request(nextDelivery()),
            poster: new SlackPoster(client({ timeoutMs: 200 })),
            undo: () => held.release(),
          };
        },
      },
    ],
    credentials: [
      { kind: 'ok', how: 'a working token', arrange: () => ({}) },
      {
        kind: 'refused',
        how: 'invalid_auth on every call',
        arrange: () => {
          fake.refuseAuth();
          return { undo: () => fake.refuseAuth(false) };
        },
      },
      {
        kind: 'refused',
        how: 'a token without chat:write',
        arrange: () => {
          fake.grantScopes(['commands', 'users:read']);
          return { undo: () => fake.grantScopes(DEFAULT_SLACK_SCOPES) };
        },
      },
      {
        kind: 'unreachable',
        how: 'an outage answering 503',
        arrange: () => {
          fake.outage(503);
          return { undo: () => fake.outage(undefined) };
        },
      },
      {
        kind: 'unreachable',
        how: 'connections refused',
        arrange: async () => {
          await fake.refuseConnections();
          return { undo: () => fake.refuseConnections(false) };
        },
      },
    ],
  };
}

// ---- Discord --------------------------------------------------------------------------------------------------

/** The status Discord sends a JSON code with: 404 for unknown things, 403 for access, 400 for the rest. */
function statusOf(code: number): number {
  if (code >= 10_000 && code < 20_000) return 404;
  if ([40001, 40002, 50001, 50007, 50013, 20009].includes(code)) return 403;
  if (code === 40005) return 413;
  return 400;
}

function discord(): Platform {
  let fake: FakeDiscord;
  let poster: DiscordPoster;
  let resetting: { url: string; server: Server };
  const rests: REST[] = [];
  const messages = /^\/channels\/\d+\/messages$/;
  /** A REST manager as the app builds it (discordRestOptions), with fewer retries to keep failing cases quick. */
  const rest = (apiUrl = fake.apiUrl, options: { timeoutMs?: number; retries?: number } = {}) => {
    const r = new REST({
      ...discordRestOptions(apiUrl, options.timeoutMs ?? 2_000),
      retries: options.retries ?? 1,
    }).setToken(fake.botToken);
    rests.push(r);
    return r;
  };
  const channel = () => `discord:${fake.guildId}:${fake.channelId}`;
  const request = (ago: number, now = Date.now()): LookupRequest => ({
    channel: channel(),
    deliveryId: nextDelivery(),
    firstAttemptAt: now - ago,
    lastAttemptAt: now - ago,
    uncertainSince: now - ago,
    now,
  });
  const until = (off: () => void): Arranged => ({ undo: off });

  const codes: FailureCase[] = Object.entries(DISCORD_JSON_CODES).map(([code, rule]) => ({
    outcome: rule.outcome,
    how: `HTTP ${statusOf(Number(code))} with the JSON code ${code}`,
    ...(rule.outcome === 'wait' ? { retryAfterMs: DISCORD_DEFAULT_WAIT_MS } : {}),
    arrange: () => until(fake.failUntilOff('POST', messages, statusOf(Number(code)), Number(code))),
  }));

  return {
    name: 'Discord',
    async start() {
      fake = await startFakeDiscord();
      poster = new DiscordPoster(rest(), () => {}, fake.botToken);
      resetting = await resettingServer();
    },
    async stop() {
      for (const r of rests) {
        r.clearHashSweeper();
        r.clearHandlerSweeper();
      }
      await fake.close();
      resetting.server.closeAllConnections();
      await new Promise((r) => resetting.server.close(r));
    },
    poster: () => poster,
    channel,
    secret: () => fake.botToken,
    failures: [
      {
        outcome: 'retry',
        how: 'connections refused',
        arrange: async () => ({ poster: new DiscordPoster(rest(`http://127.0.0.1:${await deadPort()}/api`)) }),
      },
      {
        outcome: 'retry',
        how: 'a 404 without a code (no such route)',
        arrange: () => until(fake.failUntilOff('POST', messages, 404)),
      },
      {
        outcome: 'retry',
        how: 'a JSON code no table knows',
        arrange: () => until(fake.failUntilOff('POST', messages, 403, 99_999)),
      },
      {
        outcome: 'maybe_posted',
        how: 'a 503 that outlasts discord.js’s retries',
        arrange: () => until(fake.failUntilOff('POST', messages, 503)),
      },
      { outcome: 'maybe_posted', how: 'a 500', arrange: () => until(fake.failUntilOff('POST', messages, 500)) },
      {
        outcome: 'maybe_posted',
        how: 'no answer before the timeout',
        arrange: () => {
          const held = fake.holdNext('POST', messages);
          return {
            poster: new DiscordPoster(rest(fake.apiUrl, { timeoutMs: 200, retries: 0 })),
            undo: () => held.release(),
          };
        },
      },
      {
        outcome: 'maybe_posted',
        how: 'a connection reset mid-call',
        arrange: () => ({ poster: new DiscordPoster(rest(`${resetting.url}/api`, { retries: 0 })) }),
      },
      {
        outcome: 'wait',
        how: 'a 429 for longer than discord.js queues',
        retryAfterMs: 30_000,
        arrange: () => {
          fake.rateLimitNext('POST', messages, 30);
          // Its own REST manager: this one now knows the bucket is exhausted for 30 s.
          return { poster: new DiscordPoster(rest()) };
        },
      },
      {
        outcome: 'credentials_refused',
        how: 'HTTP 401 on every call (discord.js then drops the token until a probe)',
        arrange: () => until(fake.failUntilOff('*', /./, 401)),
        after: async () => {
          const before = fake.requests().length;
          expect((await postFailure(poster, channel())).outcome).toBe('credentials_refused');
          expect(fake.requests()).toHaveLength(before); // refused locally: nothing more sent while the token is dropped
        },
      },
      {
        outcome: 'channel_unavailable',
        how: 'an unknown channel',
        channel: () => `discord:${fake.guildId}:999`,
        arrange: () => ({}),
      },
      {
        outcome: 'channel_unavailable',
        how: 'Missing Access',
        arrange: () => until(fake.failUntilOff('POST', messages, 403, 50001)),
      },
      {
        outcome: 'rejected',
        how: 'a message refused in every form (Invalid Form Body)',
        arrange: () => until(fake.failUntilOff('POST', messages, 400, 50035)),
      },
      ...codes,
    ],
    lookupKinds: ['absent', 'cannot_tell'],
    lookups: [
      {
        kind: 'absent',
        how: 'within the nonce window of the last attempt',
        arrange: async () => ({ request: request(60_000) }),
      },
      { kind: 'absent', how: 'at once after the attempt', arrange: async () => ({ request: request(0) }) },
      {
        kind: 'cannot_tell',
        how: 'past the nonce window',
        arrange: async () => ({ request: request(NONCE_WINDOW_MS + 1) }),
      },
      {
        kind: 'cannot_tell',
        how: 'a local clock that went back since the attempt',
        arrange: async () => ({ request: request(-60_000) }),
      },
      {
        kind: 'cannot_tell',
        how: 'a last attempt before the first',
        arrange: async () => {
          const now = Date.now();
          return {
            request: {
              channel: channel(),
              deliveryId: nextDelivery(),
              firstAttemptAt: now - 1_000,
              lastAttemptAt: now - 2_000,
              uncertainSince: now - 2_000,
              now,
            },
          };
        },
      },
    ],
    credentials: [
      { kind: 'ok', how: 'a working token', arrange: () => ({}) },
      {
        kind: 'refused',
        how: 'HTTP 401 from GET /users/@me',
        arrange: () => until(fake.failUntilOff('GET', /^\/users\/@me$/, 401)),
      },
      {
        kind: 'unreachable',
        how: 'HTTP 503 from GET /users/@me',
        arrange: () => until(fake.failUntilOff('GET', /^\/users\/@me$/, 503)),
      },
      {
        kind: 'unreachable',
        how: 'connections refused',
        arrange: async () => ({ poster: new DiscordPoster(rest(`http://127.0.0.1:${await deadPort()}/api`)) }),
      },
    ],
  };
}

const OUTCOMES: FailureOutcome[] = [
  'retry',
  'maybe_posted',
  'wait',
  'channel_unavailable',
  'credentials_refused',
  'rejected',
];

describe.each([slack(), discord()])('post outcomes on $name', (platform) => {
  beforeAll(() => platform.start());
  afterAll(() => platform.stop());

  it('has a way to produce every outcome, every lookup answer it claims and every credentials answer', () => {
    expect(new Set(platform.failures.map((c) => c.outcome))).toEqual(new Set(OUTCOMES));
    expect(new Set(platform.lookups.map((c) => c.kind))).toEqual(new Set(platform.lookupKinds));
    expect(new Set(platform.credentials.map((c) => c.kind))).toEqual(new Set(['ok', 'refused', 'unreachable']));
  });

  it.each(platform.failures)(
    '$how: a post fails as $outcome, and posts again once the platform takes it',
    async (c) => {
      const arranged = await c.arrange();
      const failure = await postFailure(arranged.poster ?? platform.poster(), c.channel?.() ?? platform.channel());
      expect(failure.outcome).toBe(c.outcome);
      // discord.js adds its small offset to the wait it read.
      if (c.outcome === 'wait')
        expect(failure.retryAfterMs).toSatisfy((ms: number) => ms >= c.retryAfterMs! && ms < c.retryAfterMs! + 1_000);
      else expect(failure.retryAfterMs).toBeUndefined();
      await c.after?.();
      await arranged.undo?.();
      // As the outbox does after a pause: probe the credentials, then post.
      expect(await platform.poster().checkCredentials()).toEqual({ kind: 'ok' });
      await expect(platform.poster().post(platform.channel(), reply, nextDelivery())).resolves.toMatchObject({
        messageId: expect.any(String),
      });
    },
  );

  it.each(platform.lookups)('$how: a lookup answers $kind', async (c) => {
    const { request, poster, undo } = await c.arrange();
    const result = await (poster ?? platform.poster()).findDelivered(request);
    await undo?.();
    expect(result.kind).toBe(c.kind);
    c.check?.(result);
  });

  it.each(platform.credentials)('$how: the credentials probe answers $kind', async (c) => {
    const { poster, undo } = await c.arrange();
    const check = await (poster ?? platform.poster()).checkCredentials();
    await undo?.();
    expect(check.kind).toBe(c.kind);
  });

  it('never carries the token in a failure, a lookup or a probe', async () => {
    const texts: string[] = [];
    for (const c of platform.failures.filter(
      (f) => !f.how.startsWith('the error code') && !/JSON code \d/.test(f.how),
    )) {
      const arranged = await c.arrange();
      const failure = await postFailure(arranged.poster ?? platform.poster(), c.channel?.() ?? platform.channel());
      texts.push(failure.message, String(failure.stack));
      await arranged.undo?.();
      await platform.poster().checkCredentials();
    }
    for (const c of [...platform.lookups, ...platform.credentials]) {
      const arranged = await c.arrange();
      const answer =
        'request' in arranged
          ? await (arranged.poster ?? platform.poster()).findDelivered(arranged.request as LookupRequest)
          : await (arranged.poster ?? platform.poster()).checkCredentials();
      texts.push(JSON.stringify(answer));
      await arranged.undo?.();
    }
    expect(texts.length).toBeGreaterThan(10);
    expect(texts.join('\n')).not.toContain(platform.secret());
  });
});
