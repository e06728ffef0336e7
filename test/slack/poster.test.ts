// SlackPoster, the ChatPoster through which alerts reach Slack: a real WebClient (built as the app builds it) against
// the fake Slack Web API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboxDrainer } from '../../src/alerts/index.js';
import { encodePayload } from '../../src/alerts/messages.js';
import { createLogger } from '../../src/log.js';
import { createAlertsRepo, openStore, type AlertsRepo } from '../../src/store/index.js';
import { PostFailure, type Reply } from '../../src/bot/index.js';
import { SlackPoster, postingClient } from '../../adapters/slack/poster.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

let fake: FakeSlack;
let poster: SlackPoster;
const PLACE = 'slack:T0TEST:C0ALERTS';
const reply: Reply = {
  text: '2 new listings for "rent marina 2br"',
  blocks: [
    { kind: 'header', text: 'New in Dubai Marina' },
    { kind: 'card', card: { title: 'Marina Gate 2BR', url: 'https://example.com/property/1', fields: [{ label: 'Price', value: 'AED 150,000/yr' }], imageUrl: 'https://cdn.example.com/1.jpg' } },
  ],
};

/** The PostFailure a post threw. */
async function failure(p: Promise<unknown>): Promise<PostFailure> {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PostFailure);
  return error as PostFailure;
}

beforeAll(async () => {
  fake = await startFakeSlack();
  poster = new SlackPoster(postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 2_000 }));
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe('SlackPoster.post', () => {
  it('posts to the channel of the place, tagged with the delivery id, and returns the message ts', async () => {
    const { messageId } = await poster.post(PLACE, reply, 'dlv-1');
    const [call] = fake.callsTo('chat.postMessage');
    expect(call!.args).toMatchObject({ channel: 'C0ALERTS', text: reply.text, metadata: { event_type: 'manzil_alert', event_payload: { delivery_id: 'dlv-1' } } });
    expect(JSON.stringify(call!.args.blocks)).toMatch(/Marina Gate 2BR/);
    expect(messageId).toBe(fake.messages('C0ALERTS')[0]!.ts);
  });

  it('posts to a DM by its D… channel', async () => {
    await poster.post('slack:T0TEST:D0ALICE', reply, 'dlv-dm');
    expect(fake.messages('D0ALICE')).toHaveLength(1);
  });

  it('resends without images when Slack refuses the blocks, keeping the delivery id', async () => {
    fake.failNext('chat.postMessage', { error: 'invalid_blocks' });
    await poster.post(PLACE, reply, 'dlv-2');
    const calls = fake.callsTo('chat.postMessage');
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls[0]!.args.blocks)).toMatch(/"image"/);
    expect(JSON.stringify(calls[1]!.args.blocks)).not.toMatch(/"image"/);
    expect(fake.messages('C0ALERTS').map((m) => m.metadata?.event_payload)).toEqual([{ delivery_id: 'dlv-2' }]);
  });

  it('turns a 429 into a PostFailure with Slack’s Retry-After, at once and without retrying itself', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const started = Date.now();
    const e = await failure(poster.post(PLACE, reply, 'dlv-3'));
    expect(e.options).toEqual({ retryAfterMs: 7_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('turns a 500 into a retryable PostFailure, tried once', async () => {
    fake.failNext('chat.postMessage', { status: 500 });
    const e = await failure(poster.post(PLACE, reply, 'dlv-4'));
    expect(e.options.permanent).toBeFalsy();
    expect(e.options.retryAfterMs).toBeUndefined();
    expect(e.message).toMatch(/500/);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it.each(['channel_not_found', 'not_in_channel', 'is_archived', 'invalid_auth'])('turns %s into a permanent PostFailure, tried once', async (error) => {
    fake.failNext('chat.postMessage', { error });
    const e = await failure(poster.post(PLACE, reply, 'dlv-5'));
    expect(e.options.permanent).toBe(true);
    expect(e.message).toContain(error);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('never puts the token in a failure', async () => {
    const wrong = new SlackPoster(postingClient('xoxb-not-the-token-123', { apiUrl: fake.apiUrl }));
    const e = await failure(wrong.post(PLACE, reply, 'dlv-6'));
    expect(e.options.permanent).toBe(true);
    expect(JSON.stringify({ message: e.message, stack: e.stack, options: e.options })).not.toContain('xoxb-not-the-token-123');
  });

  it('refuses a place that is not Slack’s, permanently, without calling Slack', async () => {
    const e = await failure(poster.post('discord:1:2', reply, 'dlv-7'));
    expect(e.options.permanent).toBe(true);
    expect(fake.calls).toEqual([]);
  });

  it('fails a post whose answer never comes after the timeout, retryably', async () => {
    const quick = new SlackPoster(postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 200 }));
    const held = fake.holdNext('chat.postMessage');
    const e = await failure(quick.post(PLACE, reply, 'dlv-8'));
    expect(e.options.permanent).toBeFalsy();
    held.release();
    // It did land, though: this is what findDelivered is for.
    expect(await quick.findDelivered(PLACE, 'dlv-8', 0)).toBe(fake.messages('C0ALERTS')[0]!.ts);
  });
});

describe('SlackPoster.findDelivered', () => {
  it('finds the message carrying the delivery id after a post whose answer was lost', async () => {
    const since = Date.now() - 1_000;
    await poster.post(PLACE, reply, 'dlv-a');
    const held = fake.holdNext('chat.postMessage');
    const lost = poster.post(PLACE, reply, 'dlv-b');
    await held.arrived;
    const found = await poster.findDelivered(PLACE, 'dlv-b', 0);
    expect(found).toBe(fake.messages('C0ALERTS')[1]!.ts);
    held.release();
    expect((await lost).messageId).toBe(found);
    expect(await poster.findDelivered(PLACE, 'dlv-a', since)).toBe(fake.messages('C0ALERTS')[0]!.ts);
    const [history] = fake.callsTo('conversations.history');
    expect(history!.args).toMatchObject({ channel: 'C0ALERTS', include_all_metadata: 'true', oldest: '0.000000' });
  });

  it('answers null when no message carries the delivery id, and looks only after sinceMs', async () => {
    await poster.post(PLACE, reply, 'dlv-c');
    expect(await poster.findDelivered(PLACE, 'dlv-other', 0)).toBeNull();
    const ts = fake.messages('C0ALERTS')[0]!.ts;
    const after = Math.round(Number(ts) * 1000) + 1;
    expect(await poster.findDelivered(PLACE, 'dlv-c', after)).toBeNull();
    expect(fake.callsTo('conversations.history').at(-1)!.args.oldest).toBe((after / 1000).toFixed(6));
  });

  it('reads past the first page of history', async () => {
    await poster.post(PLACE, reply, 'dlv-old');
    const plain = postingClient('xoxb-test', { apiUrl: fake.apiUrl });
    for (let i = 0; i < 205; i++) await plain.chat.postMessage({ channel: 'C0ALERTS', text: `chatter ${i}` });
    expect(await poster.findDelivered(PLACE, 'dlv-old', 0)).toBe(fake.messages('C0ALERTS')[0]!.ts);
    expect(fake.callsTo('conversations.history')).toHaveLength(2);
  });

  it('answers undefined (cannot tell) when the app lacks the history scope or Slack fails', async () => {
    await poster.post(PLACE, reply, 'dlv-d');
    fake.missingScope('conversations.history');
    expect(await poster.findDelivered(PLACE, 'dlv-d', 0)).toBeUndefined();
    fake.missingScope('conversations.history', false);
    fake.failNext('conversations.history', { status: 500 });
    expect(await poster.findDelivered(PLACE, 'dlv-d', 0)).toBeUndefined();
    expect(await poster.findDelivered(PLACE, 'dlv-d', 0)).toBe(fake.messages('C0ALERTS')[0]!.ts);
  });
});

// Through the outbox drainer: a real SQLite file, the real SlackPoster and the fake Slack.
describe('SlackPoster under the outbox drainer', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const logger = createLogger({ level: 'error', write: () => {} });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  function outboxRepo() {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-poster-outbox-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'alerts.db'));
    return { store, repo: createAlertsRepo(store) };
  }
  /** `n` messages queued for a channel; their delivery ids in order. */
  function queue(repo: AlertsRepo, channel: string, n: number): string[] {
    for (let i = 0; i < n; i++) {
      const search = { id: i + 1, number: i + 1, summary: `Homes in ${channel} #${i}` };
      repo.enqueue({ searchId: null, place: `slack:T0TEST:${channel}`, kind: 'recovered', dedupeKey: `${channel}:${i}`, payload: encodePayload({ v: 1, kind: 'recovered', search }) });
    }
    return repo.outbox({ place: `slack:T0TEST:${channel}` }).map((r) => String(r.id));
  }
  const tagged = (channel: string) => fake.messages(channel).map((m) => (m.metadata?.event_payload as { delivery_id: string }).delivery_id);
  const drainer = (repo: AlertsRepo, slack: SlackPoster) =>
    new OutboxDrainer({ repo, posters: [slack], logger, options: { maxAttempts: 5, perPlaceIntervalMs: 0, baseBackoffMs: 100, maxBackoffMs: 100, leaseMs: 5_000 } });

  it('a post that timed out after Slack took it is found in the history before any retry: one message, delivered, no duplicate', async () => {
    const { store, repo } = outboxRepo();
    const [id] = queue(repo, 'C0TIMEOUT', 1);
    const impatient = new SlackPoster(postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 300 }));
    const held = fake.holdNext('chat.postMessage'); // Slack posts it; its answer never comes
    const d = drainer(repo, impatient);
    expect(await d.drain()).toMatchObject({ delivered: 0, retried: 1 });
    expect(repo.outbox()[0]).toMatchObject({ state: 'pending', maybeDelivered: true });
    await sleep(150); // the backoff
    expect(await d.drain()).toMatchObject({ delivered: 0, recoveredFound: 1, possibleDuplicates: 0 });
    expect(tagged('C0TIMEOUT')).toEqual([id]);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(repo.outbox()[0]).toMatchObject({ state: 'delivered', messageId: fake.messages('C0TIMEOUT')[0]!.ts, possibleDuplicate: false, maybeDelivered: false });
    expect(repo.stats()).toMatchObject({ delivered: 1, pending: 0, sending: 0, possibleDuplicates: 0 });
    held.release();
    store.close();
  });

  it('without the history scope, the retry of a timed-out post is sent and counted as a possible duplicate', async () => {
    const { store, repo } = outboxRepo();
    queue(repo, 'C0NOSCOPE', 1);
    const impatient = new SlackPoster(postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 300 }));
    const held = fake.holdNext('chat.postMessage');
    fake.missingScope('conversations.history');
    const d = drainer(repo, impatient);
    await d.drain();
    await sleep(150);
    expect(await d.drain()).toMatchObject({ delivered: 1, possibleDuplicates: 1 });
    expect(fake.messages('C0NOSCOPE')).toHaveLength(2);
    expect(repo.stats()).toMatchObject({ delivered: 1, possibleDuplicates: 1 });
    fake.missingScope('conversations.history', false);
    held.release();
    store.close();
  });

  it('a 429 with Retry-After holds the whole channel until it has passed, then posts its queue in order; other channels go on', async () => {
    const { store, repo } = outboxRepo();
    const ids = queue(repo, 'C0LIMITED', 3);
    const [other] = queue(repo, 'C0OTHER', 1);
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const d = drainer(repo, poster);
    const refusedAt = Date.now();
    await d.drain();
    // The refused channel waits, the rest of its queue included; the other channel is not held.
    expect(tagged('C0LIMITED')).toEqual([]);
    expect(tagged('C0OTHER')).toEqual([other]);
    expect(repo.outbox({ place: 'slack:T0TEST:C0LIMITED' }).every((r) => r.state === 'pending' && r.nextAttemptAt >= refusedAt + 1_000)).toBe(true);
    await sleep(1_050);
    await d.drain();
    expect(tagged('C0LIMITED')).toEqual(ids);
    const posts = fake.callsTo('chat.postMessage').filter((c) => c.args.channel === 'C0LIMITED');
    expect(posts).toHaveLength(4); // the refused one and three posts after Retry-After
    expect(repo.stats()).toMatchObject({ delivered: 4, pending: 0, sending: 0, failed: 0, possibleDuplicates: 0 });
    store.close();
  });
});
