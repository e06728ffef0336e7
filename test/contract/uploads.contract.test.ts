// The uploads contract: a reply that carries a chart (an image block: a PNG made by Manzil) reaches each chat platform
// as
// ONE delivery, end to end: the real WebClient against the fake Slack (files upload v2: a private file, then the one
// message that shows it and carries the delivery id), the real discord.js REST manager (configured as the app
// configures it) against the fake Discord (the PNG as a multipart attachment in the message's own request, shown by
// its embed). On each platform: the chart arrives with its bytes; an upload the platform does not allow is posted with
// the chart's text and a note, never lost; a transient failure throws before any message is posted (the outbox sends
// the whole delivery again); a crash mid-upload, then the outbox's look and retry, leaves exactly one message.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REST } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discordRestOptions } from '../../adapters/discord/app.js';
import { CHART_NOT_ATTACHED as DISCORD_NOTE, DiscordPoster, deliveryNonce } from '../../adapters/discord/poster.js';
import { SlackPoster, postingClient } from '../../adapters/slack/poster.js';
import { CHART_NOT_ATTACHED as SLACK_NOTE } from '../../adapters/slack/upload.js';
import type { Reply } from '../../src/bot/index.js';
import {
  PostFailure,
  type ChatPoster,
  type FailureOutcome,
  type LookupRequest,
  type LookupResult,
} from '../../src/ports/index.js';
import type { ImageFile } from '../../src/views/model.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';
import { DEFAULT_SLACK_SCOPES, startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { chartImage, makePng } from '../uploads/png.js';

type Poster = ChatPoster & Required<Pick<ChatPoster, 'findDelivered'>>;

/** What a case set up: another poster to use, another reply to post, and its undo. */
interface Arranged {
  poster?: Poster;
  reply?: Reply;
  undo?: () => void | Promise<void>;
}

interface RefusalCase {
  how: string;
  arrange(): Arranged | Promise<Arranged>;
}

interface TransientCase {
  how: string;
  /** The outcomes the failure may have: `retry` or `maybe_posted` (looked for first), `wait` for a rate limit. */
  outcomes: FailureOutcome[];
  arrange(): Arranged | Promise<Arranged>;
}

/** A post that will be cut off mid-upload: the poster of the instance that crashes, and how to cut it off. */
interface Crash {
  poster: Poster;
  /** Resolves once the upload is under way. */
  arrived: Promise<void>;
  /** The instance dies: whatever it was sending is never finished by it. */
  abandon(): void;
  /**
   * What the outbox's look after the restart answers: the message was never posted (Slack), or a re-send cannot
   * duplicate it (Discord).
   */
  look: LookupResult['kind'];
  undo?: () => void | Promise<void>;
}

interface Platform {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Between tests: the platform as new (faults off). */
  reset(): void;
  poster(): Poster;
  channel(): string;
  /** Messages posted in the channel so far. */
  count(): number;
  /** The message carries the chart: the PNG's bytes, its name and alt text, the delivery id, and no note. */
  expectCarries(messageId: string, png: Buffer, image: ImageFile, deliveryId: string): Promise<void>;
  /** The message shows the chart's text fallback and the note, and carries no file. */
  expectNoted(messageId: string, image: ImageFile): void;
  refusals: RefusalCase[];
  transients: TransientCase[];
  crash(): Promise<Crash>;
  /** The platform's own cases. */
  own: { how: string; run(): Promise<void> }[];
}

const png = makePng(24, 16);
const image = chartImage(png);
const reply: Reply = {
  text: 'Weekly digest: Dubai Marina',
  blocks: [
    { kind: 'header', text: 'Dubai Marina, week of 24 Nov' },
    { kind: 'text', text: 'Sold in the last 30 days: 42, median AED 2,350,000.' },
    { kind: 'image', image },
    { kind: 'context', text: 'Source: UAE property service, transactions and price trend.' },
  ],
};
/** A chart heavier than the platform takes (noise does not deflate): about 120 KB. */
const heavyPng = makePng(200, 200, { noise: true });
const heavyReply: Reply = {
  ...reply,
  blocks: reply.blocks.map((b) => (b.kind === 'image' ? { kind: 'image', image: chartImage(heavyPng) } : b)),
};

let delivery = 0;
const nextDelivery = () => `up${++delivery}`;

async function postFailure(poster: ChatPoster, channel: string, what: Reply): Promise<PostFailure> {
  const error = await poster.post(channel, what, nextDelivery()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PostFailure);
  return error as PostFailure;
}

/** A loopback port nobody listens on: connections to it are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every piece of text a Slack message shows, its blocks' included. */
const slackText = (m: { text: unknown; blocks?: unknown }) => `${String(m.text)}\n${JSON.stringify(m.blocks ?? [])}`;

// ---- Slack ----------------------------------------------------------------------------------------------------

function slack(): Platform {
  let fake: FakeSlack;
  let poster: SlackPoster;
  const channelId = 'C0UPLOADS';
  const channel = `slack:T0TEST:${channelId}`;
  const client = (timeoutMs = 2_000) => postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs });
  /** Short waits for a file Slack is still processing, so a test does not wait seconds. */
  const make = (options: { timeoutMs?: number; uploadTimeoutMs?: number } = {}) =>
    new SlackPoster(client(options.timeoutMs), () => {}, {
      uploadTimeoutMs: options.uploadTimeoutMs ?? 2_000,
      fileReadyWaitsMs: [300, 600],
    });
  const message = (ts: string) => {
    const found = fake.messages(channelId).find((m) => m.ts === ts);
    expect(found, `no message ${ts}`).toBeDefined();
    return found!;
  };

  const platform: Platform = {
    name: 'Slack',
    async start() {
      fake = await startFakeSlack();
      poster = make();
    },
    stop: () => fake.close(),
    reset: () => fake.reset(),
    poster: () => poster,
    channel: () => channel,
    count: () => fake.messages(channelId).length,
    async expectCarries(ts, bytes, chart, deliveryId) {
      const m = message(ts);
      expect(m.metadata).toEqual({ event_type: 'manzil_alert', event_payload: { delivery_id: deliveryId } });
      const images = (m.blocks as DiscordJson[]).filter((b) => b.type === 'image');
      expect(images).toHaveLength(1);
      expect(images[0]).toEqual({
        type: 'image',
        slack_file: { id: expect.any(String) },
        alt_text: chart.alt,
        title: { type: 'plain_text', text: chart.title, emoji: true },
      });
      const upload = fake.uploads().find((u) => u.id === images[0].slack_file.id);
      // A completed upload, private (shared with no channel: only the message shows it), with the PNG's bytes.
      expect(upload).toMatchObject({
        complete: true,
        filename: chart.name,
        length: bytes.length,
        altText: chart.alt,
        title: chart.title,
      });
      expect(upload!.channelId).toBeUndefined();
      expect(upload!.bytes!.equals(bytes)).toBe(true);
      expect(slackText(m)).not.toContain(SLACK_NOTE);
      expect(
        fake
          .callsTo('files.completeUploadExternal')
          .every((c) => c.args.channel_id === undefined && c.args.channels === undefined),
      ).toBe(true);
      expect(fake.callsTo('files.upload')).toHaveLength(0);
    },
    expectNoted(ts, chart) {
      const m = message(ts);
      expect((m.blocks as DiscordJson[] | undefined)?.some((b) => b.type === 'image' && b.slack_file)).toBeFalsy();
      expect(slackText(m)).toContain(SLACK_NOTE);
      expect(slackText(m)).toContain(chart.fallback.split('\n')[0]);
      expect(m.metadata?.event_type).toBe('manzil_alert');
    },
    refusals: [
      {
        how: 'files.getUploadURLExternal answering not_allowed',
        arrange: () => (fake.failNext('files.getUploadURLExternal', { error: 'not_allowed' }), {}),
      },
      {
        how: 'a token without files:write (installed before the scope was added)',
        arrange: () => {
          fake.grantScopes(DEFAULT_SLACK_SCOPES.filter((s) => s !== 'files:write'));
          return { undo: () => fake.grantScopes(DEFAULT_SLACK_SCOPES) };
        },
      },
      {
        how: 'a file larger than Slack takes (HTTP 413 from the upload URL)',
        arrange: () => (fake.failNext('upload', { status: 413 }), { reply: heavyReply }),
      },
      {
        how: 'files.completeUploadExternal answering restricted_action',
        arrange: () => (fake.failNext('files.completeUploadExternal', { error: 'restricted_action' }), {}),
      },
      {
        how: 'a file Slack is still processing after every wait',
        arrange: () => {
          fake.fileProcessing(60_000);
          return { undo: () => fake.fileProcessing(0) };
        },
      },
    ],
    transients: [
      {
        how: 'files.getUploadURLExternal answering HTTP 500',
        outcomes: ['retry'],
        arrange: () => (fake.failNext('files.getUploadURLExternal', { status: 500 }), {}),
      },
      {
        how: 'files.getUploadURLExternal answering ratelimited',
        outcomes: ['wait'],
        arrange: () => (fake.failNext('files.getUploadURLExternal', { error: 'ratelimited' }), {}),
      },
      {
        how: 'files.getUploadURLExternal answering 429 with Retry-After',
        outcomes: ['wait'],
        arrange: () => (fake.failNext('files.getUploadURLExternal', { status: 429, retryAfter: 5 }), {}),
      },
      {
        how: 'the upload URL answering HTTP 503',
        outcomes: ['retry'],
        arrange: () => (fake.failNext('upload', { status: 503 }), {}),
      },
      {
        how: 'no answer from the upload URL before the timeout',
        outcomes: ['retry'],
        arrange: () => {
          const held = fake.holdUpload();
          return { poster: make({ uploadTimeoutMs: 200 }), undo: () => held.abandon() };
        },
      },
      {
        how: 'files.completeUploadExternal answering internal_error',
        outcomes: ['retry'],
        arrange: () => (fake.failNext('files.completeUploadExternal', { error: 'internal_error' }), {}),
      },
      {
        how: 'an outage answering 503',
        outcomes: ['retry'],
        arrange: () => {
          fake.outage(503);
          return { undo: () => fake.outage(undefined) };
        },
      },
      {
        how: 'connections refused',
        outcomes: ['retry'],
        arrange: async () => {
          await fake.refuseConnections();
          return { undo: () => fake.refuseConnections(false) };
        },
      },
    ],
    async crash() {
      const held = fake.holdUpload();
      return { poster: make(), arrived: held.arrived, abandon: () => held.abandon(), look: 'absent' };
    },
    own: [
      {
        how: 'uploads the bytes, completes the file without a channel, then posts once: in that order',
        async run() {
          await poster.post(channel, reply, nextDelivery());
          expect(fake.calls.map((c) => c.method)).toEqual([
            'files.getUploadURLExternal',
            'upload',
            'files.completeUploadExternal',
            'chat.postMessage',
          ]);
          expect(fake.callsTo('files.getUploadURLExternal')[0]!.args).toMatchObject({
            filename: image.name,
            length: String(png.length),
          });
        },
      },
      {
        how: 'a file Slack is still processing is shown once it is ready: posted again after a short wait',
        async run() {
          // Still processing when the first post comes, even on a loaded machine; ready by the second of the poster's
          // waits (300 and 600 ms here, as make() sets them).
          fake.fileProcessing(500);
          const id = nextDelivery();
          const { messageId } = await poster.post(channel, reply, id);
          expect(fake.callsTo('chat.postMessage').length).toBeGreaterThan(1);
          expect(fake.messages(channelId)).toHaveLength(1);
          await platform.expectCarries(messageId, png, image, id);
        },
      },
      {
        how: 'a crash after the message was posted: the look finds it and nothing is sent again',
        async run() {
          const held = fake.holdNext('chat.postMessage');
          const id = nextDelivery();
          const t0 = Date.now();
          const first = await make({ timeoutMs: 300 })
            .post(channel, reply, id)
            .then(
              () => undefined,
              (e: unknown) => e as PostFailure,
            );
          expect(first?.outcome).toBe('maybe_posted');
          const look = await poster.findDelivered({
            channel,
            deliveryId: id,
            firstAttemptAt: t0,
            lastAttemptAt: t0,
            uncertainSince: t0,
            now: Date.now(),
          });
          expect(look).toEqual({ kind: 'found', messageId: fake.messages(channelId)[0]!.ts });
          expect(fake.messages(channelId)).toHaveLength(1);
          expect(fake.uploads()).toHaveLength(1);
          held.release();
        },
      },
      {
        how: 'two charts: each uploaded, both shown in the one message',
        async run() {
          const second = chartImage(makePng(10, 10, { seed: 3 }), 'compare.png');
          const two: Reply = { ...reply, blocks: [...reply.blocks, { kind: 'image', image: second }] };
          const { messageId } = await poster.post(channel, two, nextDelivery());
          const m = message(messageId);
          const ids = (m.blocks as DiscordJson[]).filter((b) => b.type === 'image').map((b) => b.slack_file.id);
          expect(ids).toHaveLength(2);
          expect(ids.map((id: string) => fake.uploads().find((u) => u.id === id)?.filename)).toEqual([
            image.name,
            'compare.png',
          ]);
        },
      },
    ],
  };
  return platform;
}

// ---- Discord --------------------------------------------------------------------------------------------------

function discord(): Platform {
  let fake: FakeDiscord;
  let poster: DiscordPoster;
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
  const posted = (id: string) => {
    const found = fake.messages(fake.channelId).find((m) => m.id === id);
    expect(found, `no message ${id}`).toBeDefined();
    return found!;
  };
  /** All the text a Discord message shows: content, embed titles, descriptions and footers. */
  const shownText = (body: DiscordJson) =>
    [body.content, ...(body.embeds ?? []).flatMap((e: DiscordJson) => [e.title, e.description, e.footer?.text])]
      .filter(Boolean)
      .join('\n');
  const until = (off: () => void): Arranged => ({ undo: off });

  return {
    name: 'Discord',
    async start() {
      // Files of one request may weigh 64 KiB here (Discord: 10 MiB for a bot), so a heavy chart is quick to make.
      fake = await startFakeDiscord({ attachmentSizeLimit: 64 * 1024 });
      poster = new DiscordPoster(rest(), () => {}, fake.botToken);
    },
    async stop() {
      for (const r of rests) {
        r.clearHashSweeper();
        r.clearHandlerSweeper();
      }
      await fake.close();
    },
    reset: () => {},
    poster: () => poster,
    channel,
    count: () => fake.messages(fake.channelId).length,
    async expectCarries(id, bytes, chart, deliveryId) {
      const sent = posted(id);
      expect(sent.nonce).toBeDefined();
      const request = fake
        .requests()
        .findLast(
          (r) =>
            r.method === 'POST' &&
            messages.test(r.path) &&
            r.status === 200 &&
            (r.body as DiscordJson)?.nonce === sent.nonce,
        )!;
      // One multipart request: the PNG as files[0], its alt text as the attachment's description, the embed showing it.
      expect(request.files).toEqual([{ field: 'files[0]', name: chart.name, size: bytes.length }]);
      expect(sent.body.attachments).toEqual([{ id: 0, filename: chart.name, description: chart.alt }]);
      const embed = (sent.body.embeds as DiscordJson[]).find((e) => e.image);
      expect(embed).toMatchObject({ title: chart.title, image: { url: `attachment://${chart.name}` } });
      const stored = fake.message(id);
      expect(stored.attachments).toHaveLength(1);
      expect(stored.attachments[0].filename).toBe(chart.name);
      expect(fake.attachmentBytes(stored.attachments[0].id)!.equals(bytes)).toBe(true);
      expect(shownText(sent.body)).not.toContain(DISCORD_NOTE);
      expect(sent.nonce).toBe(deliveryNonce(deliveryId));
      expect(fake.violations()).toEqual([]);
    },
    expectNoted(id, chart) {
      const sent = posted(id);
      expect(fake.message(id).attachments).toEqual([]);
      expect(JSON.stringify(sent.body)).not.toContain('attachment://');
      expect(shownText(sent.body)).toContain(DISCORD_NOTE);
      expect(shownText(sent.body)).toContain(chart.fallback.split('\n')[0]);
    },
    refusals: [
      {
        how: 'a bot without Attach Files (403, Missing Permissions)',
        arrange: () => until(fake.refuseFiles(403, 50013)),
      },
      { how: 'a chart heavier than Discord takes (413, code 40005)', arrange: () => ({ reply: heavyReply }) },
      {
        how: 'a file Discord refuses as too large (400, code 50045)',
        arrange: () => until(fake.refuseFiles(400, 50045)),
      },
      {
        how: 'the form with the file refused (400, Invalid Form Body)',
        arrange: () => until(fake.refuseFiles(400, 50035)),
      },
    ],
    transients: [
      {
        how: 'a 503 that outlasts discord.js’s retries',
        outcomes: ['maybe_posted'],
        arrange: () => until(fake.failUntilOff('POST', messages, 503)),
      },
      { how: 'a 500', outcomes: ['maybe_posted'], arrange: () => until(fake.failUntilOff('POST', messages, 500)) },
      {
        how: 'connections refused',
        outcomes: ['retry'],
        arrange: async () => ({ poster: new DiscordPoster(rest(`http://127.0.0.1:${await deadPort()}/api`)) }),
      },
      {
        how: 'a 429 for longer than discord.js queues',
        outcomes: ['wait'],
        arrange: () => {
          fake.rateLimitNext('POST', messages, 30);
          return { poster: new DiscordPoster(rest()) };
        },
      },
    ],
    async crash() {
      // The request with the file is carried out (the message made) but its answer never reaches the instance.
      const held = fake.holdNext('POST', messages);
      return {
        poster: new DiscordPoster(rest(fake.apiUrl, { timeoutMs: 300, retries: 0 })),
        arrived: held.arrived,
        abandon: () => {},
        look: 'absent',
        undo: () => held.release(),
      };
    },
    own: [
      {
        how: 'an interaction’s answer (no file) keeps showing the chart’s text',
        async run() {
          const { renderDiscord } = await import('../../adapters/discord/render.js');
          const m = renderDiscord(reply);
          expect(JSON.stringify(m)).not.toContain('attachment://');
          expect(m.attachments).toBeUndefined();
          expect(shownText(m)).toContain(image.fallback.split('\n')[0]);
        },
      },
      {
        how: 'a file name Discord would change is made safe, so attachment:// still finds it',
        async run() {
          const odd: Reply = {
            ...reply,
            blocks: [{ kind: 'image', image: chartImage(png, 'Dubai Marina (2 bed) — trend.png') }],
          };
          const { messageId } = await poster.post(channel(), odd, nextDelivery());
          const sent = posted(messageId);
          const name = sent.body.attachments[0].filename as string;
          expect(name).toMatch(/^[\w.-]+\.png$/);
          expect(sent.body.embeds[0].image.url).toBe(`attachment://${name}`);
          expect(fake.message(messageId).attachments[0].filename).toBe(name);
        },
      },
    ],
  };
}

describe.each([slack(), discord()])('uploads on $name', (platform) => {
  beforeAll(() => platform.start());
  afterAll(() => platform.stop());
  beforeEach(() => platform.reset());

  it('posts a reply with a chart as one message that carries the PNG', async () => {
    const before = platform.count();
    const id = nextDelivery();
    const { messageId } = await platform.poster().post(platform.channel(), reply, id);
    expect(platform.count()).toBe(before + 1);
    await platform.expectCarries(messageId, png, image, id);
  });

  it.each(platform.refusals)('$how: posted with the chart’s text and a note, not lost', async (c) => {
    const arranged = await c.arrange();
    const before = platform.count();
    const what = arranged.reply ?? reply;
    const { messageId } = await (arranged.poster ?? platform.poster()).post(platform.channel(), what, nextDelivery());
    await arranged.undo?.();
    expect(platform.count()).toBe(before + 1);
    platform.expectNoted(messageId, (what.blocks.find((b) => b.kind === 'image') as { image: ImageFile }).image);
  });

  it.each(platform.transients)(
    '$how: fails as $outcomes before any message, and carries the chart once posted again',
    async (c) => {
      const arranged = await c.arrange();
      const before = platform.count();
      const failure = await postFailure(
        arranged.poster ?? platform.poster(),
        platform.channel(),
        arranged.reply ?? reply,
      );
      await arranged.undo?.();
      expect(c.outcomes).toContain(failure.outcome);
      expect(platform.count()).toBe(before);
      const id = nextDelivery();
      const { messageId } = await platform.poster().post(platform.channel(), reply, id);
      expect(platform.count()).toBe(before + 1);
      await platform.expectCarries(messageId, png, image, id);
    },
  );

  it('a crash mid-upload, then the outbox’s look and retry: exactly one message, carrying the chart', async () => {
    const before = platform.count();
    const crash = await platform.crash();
    const id = nextDelivery();
    const t0 = Date.now();
    // The instance that crashes: whatever its post comes to, nobody hears it (the outbox row says "sending").
    const first = crash.poster.post(platform.channel(), reply, id).catch(() => undefined);
    await crash.arrived;
    crash.abandon();
    await first;
    // After the restart: the entry may have been posted, so it is looked for before it is sent again.
    const request: LookupRequest = {
      channel: platform.channel(),
      deliveryId: id,
      firstAttemptAt: t0,
      lastAttemptAt: t0,
      uncertainSince: t0,
      now: Date.now(),
    };
    const look = await platform.poster().findDelivered(request);
    expect(look.kind).toBe(crash.look);
    const { messageId } = await platform.poster().post(platform.channel(), reply, id);
    await crash.undo?.();
    expect(platform.count()).toBe(before + 1);
    await platform.expectCarries(messageId, png, image, id);
  });

  it.each(platform.own)('$how', async (c) => {
    await c.run();
  });
});
