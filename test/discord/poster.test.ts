// DiscordPoster: alerts over the real discord.js REST manager to the fake Discord's POST /channels/{id}/messages.
import { REST } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiscordPoster, NONCE_WINDOW_MS, deliveryNonce } from '../../adapters/discord/poster.js';
import { PostFailure, type Reply } from '../../src/bot/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

let fake: FakeDiscord;
let rest: REST;
let poster: DiscordPoster;
let place: string;
const logged: string[] = [];

const alert = (n: number, over: Partial<Reply> = {}): Reply => ({
  text: `New listing for alert #${n}`,
  blocks: [
    { kind: 'context', text: `🔔 New listing · Alert #${n}` },
    { kind: 'card', card: { title: `Marina Gate ${n}`, url: `https://property.example.ae/${n}`, imageUrl: `https://cdn.example.ae/${n}.jpg`, fields: [{ label: 'Price', value: 'AED 1,000,000' }] } },
  ],
  ...over,
});

beforeAll(async () => {
  fake = await startFakeDiscord();
  rest = new REST({ api: fake.apiUrl, retries: 1, timeout: 2_000 }).setToken(fake.botToken);
  poster = new DiscordPoster(rest, (m, f) => logged.push(`${m} ${JSON.stringify(f)}`));
  place = `discord:${fake.guildId}:${fake.channelId}`;
});
afterAll(async () => {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations()).toEqual([]);
});

describe('DiscordPoster.post', () => {
  it('posts to the channel of the place with a short nonce from the delivery id and enforce_nonce', async () => {
    const { messageId } = await poster.post(place, alert(1), '41');
    const [posted] = fake.messages(fake.channelId).filter((m) => m.id === messageId);
    expect(posted!.nonce).toBe('m41');
    expect(posted!.body.enforce_nonce).toBe(true);
    expect(posted!.body.embeds[0].title).toBe('Marina Gate 1');
    expect(posted!.body.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows a delivery posted twice (a retry after a crash) once: Discord answers the same message', async () => {
    const first = await poster.post(place, alert(2), '42');
    const again = await poster.post(place, alert(2), '42');
    expect(again.messageId).toBe(first.messageId);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'm42')).toHaveLength(1);
  });

  it('waits out a 429 in discord.js’s queue and posts once', async () => {
    fake.rateLimitNext('POST', /^\/channels\/\d+\/messages$/, 0.2, { global: true });
    const started = Date.now();
    await poster.post(place, alert(3), '43');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'm43')).toHaveLength(1);
  });

  it('turns a 5xx that outlasts discord.js’s retries into a retryable PostFailure', async () => {
    fake.failNext('POST', /^\/channels\/\d+\/messages$/, 503, 2);
    const failure = await poster.post(place, alert(4), '44').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostFailure);
    expect((failure as PostFailure).options.permanent).toBeFalsy();
    expect((failure as PostFailure).message).toMatch(/HTTP 503/);
  });

  it('fails permanently for a channel Discord does not know, and for a place that is not Discord’s', async () => {
    const unknown = await poster.post(`discord:${fake.guildId}:999`, alert(5), '45').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PostFailure);
    expect((unknown as PostFailure).options.permanent).toBe(true);
    expect((unknown as PostFailure).message).toMatch(/10003/);
    const foreign = await poster.post('slack:T1:C1', alert(5), '45').catch((e: unknown) => e);
    expect((foreign as PostFailure).options.permanent).toBe(true);
  });

  it('posts to a DM place by its channel', async () => {
    const { messageId } = await poster.post(`discord:@me:${fake.channelId}`, alert(6), '46');
    expect(fake.messages(fake.channelId).some((m) => m.id === messageId)).toBe(true);
  });

  it('never puts the token in a failure', async () => {
    const bad = new DiscordPoster(new REST({ api: fake.apiUrl, retries: 0 }).setToken('secret-token-123'));
    const failure = await bad.post(place, alert(7), '47').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostFailure);
    expect(String((failure as Error).message)).not.toContain('secret-token-123');
    expect((failure as PostFailure).options.permanent).toBe(true);
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
  it('answers "none" while Discord still dedupes the nonce, and "cannot tell" after', async () => {
    let now = 1_000_000_000;
    const clocked = new DiscordPoster(rest, () => {}, () => now);
    const since = now - 60_000;
    expect(await clocked.findDelivered(place, '41', since)).toBeNull();
    now = since + NONCE_WINDOW_MS + 1;
    expect(await clocked.findDelivered(place, '41', since)).toBeUndefined();
    expect(await clocked.findDelivered('slack:T:C', '41', since)).toBeUndefined();
  });
});
