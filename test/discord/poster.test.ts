// DiscordPoster: alerts over the real discord.js REST manager to the fake Discord's POST /channels/{id}/messages. Every
// outcome of the table, end to end, is in test/contract/outcomes.contract.test.ts.
import { REST, Routes } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiscordPoster, NONCE_WINDOW_MS, deliveryNonce } from '../../adapters/discord/poster.js';
import type { Reply } from '../../src/bot/index.js';
import { PostFailure, type LookupRequest } from '../../src/ports/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

let fake: FakeDiscord;
let rest: REST;
let poster: DiscordPoster;
let channel: string;
const logged: string[] = [];

const alert = (n: number, over: Partial<Reply> = {}): Reply => ({
  text: `New listing for alert #${n}`,
  blocks: [
    { kind: 'context', text: `🔔 New listing · Alert #${n}` },
    {
      kind: 'card',
      card: {
        title: `Marina Gate ${n}`,
        url: `https://property.example.ae/${n}`,
        imageUrl: `https://cdn.example.ae/${n}.jpg`,
        fields: [{ label: 'Price', value: 'AED 1,000,000' }],
      },
    },
  ],
  ...over,
});

beforeAll(async () => {
  fake = await startFakeDiscord();
  rest = new REST({ api: fake.apiUrl, retries: 1, timeout: 2_000 }).setToken(fake.botToken);
  poster = new DiscordPoster(rest, (m, f) => logged.push(`${m} ${JSON.stringify(f)}`), fake.botToken);
  channel = `discord:${fake.guildId}:${fake.channelId}`;
});
afterAll(async () => {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations()).toEqual([]);
});

describe('DiscordPoster: a reply to an earlier post (issue 40)', () => {
  it('replies to the message it names, and posts plainly when that message is gone', async () => {
    const { messageId: card } = await poster.post(channel, alert(31), '31');
    const { messageId } = await poster.post(channel, alert(32, { thread: card }), '32');
    const [sent] = fake.messages(fake.channelId).filter((m) => m.id === messageId);
    expect(sent!.body.message_reference).toEqual({ message_id: card, fail_if_not_exists: false });
    expect(fake.message(messageId)).toMatchObject({ type: 19, message_reference: { message_id: card } });
    const { messageId: orphan } = await poster.post(channel, alert(33, { thread: '123456789012345678' }), '33');
    expect(fake.message(orphan)).toMatchObject({ type: 0 });
    expect(fake.message(orphan)!.message_reference).toBeUndefined();
  });

  it('is refused, as Discord refuses it, when it names a message not there and did not ask to post anyway', async () => {
    const body = { content: 'x', message_reference: { message_id: '123456789012345678' } };
    await expect(rest.post(Routes.channelMessages(fake.channelId), { body })).rejects.toMatchObject({
      status: 400,
      rawError: {
        code: 50035,
        errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE' }] } },
      },
    });
  });
});

describe('DiscordPoster.post', () => {
  it('posts to the channel of the channel with a short nonce from the delivery id and enforce_nonce', async () => {
    const { messageId } = await poster.post(channel, alert(1), '41');
    const [posted] = fake.messages(fake.channelId).filter((m) => m.id === messageId);
    expect(posted!.nonce).toBe('m41');
    expect(posted!.body.enforce_nonce).toBe(true);
    expect(posted!.body.embeds[0].title).toBe('Marina Gate 1');
    expect(posted!.body.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows a delivery posted twice (a retry after a crash) once: Discord answers the same message', async () => {
    const first = await poster.post(channel, alert(2), '42');
    const again = await poster.post(channel, alert(2), '42');
    expect(again.messageId).toBe(first.messageId);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'm42')).toHaveLength(1);
  });

  it('waits out a 429 in discord.js’s queue and posts once', async () => {
    fake.rateLimitNext('POST', /^\/channels\/\d+\/messages$/, 0.2, { global: true });
    const started = Date.now();
    await poster.post(channel, alert(3), '43');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'm43')).toHaveLength(1);
  });

  it('turns a 5xx that outlasts discord.js’s retries into maybe posted', async () => {
    fake.failNext('POST', /^\/channels\/\d+\/messages$/, 503, 2);
    const failure = await poster.post(channel, alert(4), '44').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostFailure);
    expect((failure as PostFailure).outcome).toBe('maybe_posted');
    expect((failure as PostFailure).message).toMatch(/HTTP 503/);
  });

  it('holds the channel for a channel Discord does not know, and rejects a channel that is not Discord’s', async () => {
    const unknown = await poster.post(`discord:${fake.guildId}:999`, alert(5), '45').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PostFailure);
    expect((unknown as PostFailure).outcome).toBe('channel_unavailable');
    expect((unknown as PostFailure).message).toMatch(/10003/);
    const foreign = await poster.post('slack:T1:C1', alert(5), '45').catch((e: unknown) => e);
    expect((foreign as PostFailure).outcome).toBe('rejected');
  });

  it('holds the channel on Missing Access until it is given back', async () => {
    const off = fake.failUntilOff('POST', /^\/channels\/\d+\/messages$/, 403, 50001);
    const failure = (await poster.post(channel, alert(8), '48').catch((e: unknown) => e)) as PostFailure;
    expect(failure.outcome).toBe('channel_unavailable');
    off();
    await expect(poster.post(channel, alert(8), '48')).resolves.toMatchObject({ messageId: expect.any(String) });
  });

  it('posts to a DM channel by its channel', async () => {
    const { messageId } = await poster.post(`discord:@me:${fake.channelId}`, alert(6), '46');
    expect(fake.messages(fake.channelId).some((m) => m.id === messageId)).toBe(true);
  });

  it('never puts the token in a failure', async () => {
    const bad = new DiscordPoster(new REST({ api: fake.apiUrl, retries: 0 }).setToken('secret-token-123'));
    const failure = await bad.post(channel, alert(7), '47').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostFailure);
    expect(String((failure as Error).message)).not.toContain('secret-token-123');
    expect((failure as PostFailure).outcome).toBe('credentials_refused');
  });
});

describe('deliveryNonce', () => {
  it('is `m` and the id, or a hash of at most 25 characters for a long id', () => {
    expect(deliveryNonce('12345')).toBe('m12345');
    const long = deliveryNonce('x'.repeat(60));
    expect(long.length).toBeLessThanOrEqual(25);
    expect(long).toBe(deliveryNonce('x'.repeat(60)));
    expect(long).not.toBe(deliveryNonce('y'.repeat(60)));
  });
});

describe('DiscordPoster.findDelivered', () => {
  const lookup = (lastAttemptAt: number, now: number, over: Partial<LookupRequest> = {}): LookupRequest => ({
    channel,
    deliveryId: '41',
    firstAttemptAt: lastAttemptAt - 1_000,
    lastAttemptAt,
    uncertainSince: lastAttemptAt,
    now,
    ...over,
  });

  it('answers "absent" while Discord still dedupes the nonce, and "cannot tell" after; it needs no settling', async () => {
    const now = 1_000_000_000;
    expect(poster.settleMs).toBe(0);
    expect(await poster.findDelivered(lookup(now - 60_000, now))).toEqual({ kind: 'absent' });
    expect(await poster.findDelivered(lookup(now - NONCE_WINDOW_MS - 1, now))).toMatchObject({
      kind: 'cannot_tell',
      reason: expect.stringMatching(/nonce window/),
    });
    expect(await poster.findDelivered(lookup(now - 60_000, now, { channel: 'slack:T:C' }))).toMatchObject({
      kind: 'cannot_tell',
    });
    // The window counts from the earliest attempt that may have posted, not the last one: a refused connection after a
    // timed-out post does not restart it.
    expect(
      await poster.findDelivered(
        lookup(now - 10_000, now, { firstAttemptAt: now - 10 * 60_000, uncertainSince: now - NONCE_WINDOW_MS - 1 }),
      ),
    ).toMatchObject({
      kind: 'cannot_tell',
    });
  });

  it('cannot tell when the local clock disagrees with the delivery’s times', async () => {
    const now = 1_000_000_000;
    expect(await poster.findDelivered(lookup(now + 5_000, now))).toMatchObject({
      kind: 'cannot_tell',
      reason: expect.stringMatching(/clock/),
    });
    expect(await poster.findDelivered(lookup(now - 5_000, now, { firstAttemptAt: now - 1_000 }))).toMatchObject({
      kind: 'cannot_tell',
    });
  });

  it('a re-send within the window after an answer was lost shows the message once', async () => {
    const held = fake.holdNext('POST', /^\/channels\/\d+\/messages$/);
    const quick = new DiscordPoster(new REST({ api: fake.apiUrl, retries: 0, timeout: 200 }).setToken(fake.botToken));
    const at = Date.now();
    const failure = (await quick.post(channel, alert(9), '49').catch((e: unknown) => e)) as PostFailure;
    expect(failure.outcome).toBe('maybe_posted');
    expect(await quick.findDelivered(lookup(at, Date.now(), { deliveryId: '49' }))).toEqual({ kind: 'absent' });
    const again = await poster.post(channel, alert(9), '49');
    held.release();
    expect(
      fake
        .messages(fake.channelId)
        .filter((m) => m.nonce === 'm49')
        .map((m) => m.id),
    ).toEqual([again.messageId]);
  });
});

describe('DiscordPoster.checkCredentials', () => {
  it('is ok with a working token, refused on a 401, unreachable on a 5xx', async () => {
    expect(await poster.checkCredentials()).toEqual({ kind: 'ok' });
    const off = fake.failUntilOff('GET', /^\/users\/@me$/, 503);
    expect(await poster.checkCredentials()).toMatchObject({ kind: 'unreachable' });
    off();
    const refusing = new DiscordPoster(new REST({ api: fake.apiUrl, retries: 0 }).setToken('not-the-token'));
    expect(await refusing.checkCredentials()).toMatchObject({ kind: 'refused' });
  });

  it('after a 401, posts fail as credentials refused without calling Discord, until a probe with the token succeeds', async () => {
    const own = new REST({ api: fake.apiUrl, retries: 0 }).setToken(fake.botToken);
    const probing = new DiscordPoster(own, () => {}, fake.botToken);
    const off = fake.failUntilOff('*', /./, 401);
    expect(((await probing.post(channel, alert(10), '50').catch((e: unknown) => e)) as PostFailure).outcome).toBe(
      'credentials_refused',
    );
    const sent = fake.requests().length;
    // discord.js dropped the token: refused locally, nothing more reaches Discord.
    expect(((await probing.post(channel, alert(10), '50').catch((e: unknown) => e)) as PostFailure).outcome).toBe(
      'credentials_refused',
    );
    expect(fake.requests()).toHaveLength(sent);
    expect(await probing.checkCredentials()).toMatchObject({ kind: 'refused' });
    off();
    expect(await probing.checkCredentials()).toEqual({ kind: 'ok' });
    await expect(probing.post(channel, alert(10), '50')).resolves.toMatchObject({ messageId: expect.any(String) });
    own.clearHashSweeper();
    own.clearHandlerSweeper();
  });
});
