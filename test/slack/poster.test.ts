// SlackPoster, the ChatPoster through which alerts reach Slack: a real WebClient (built as the app builds it) against
// the fake Slack Web API. Every outcome of the table, end to end, is in test/contract/outcomes.contract.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/bot/index.js';
import { PostFailure, type LookupRequest } from '../../src/ports/index.js';
import { HISTORY_MARGIN_MS, SLACK_SETTLE_MS, SlackPoster, postingClient } from '../../adapters/slack/poster.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

let fake: FakeSlack;
let poster: SlackPoster;
const CHANNEL = 'slack:T0TEST:C0ALERTS';
const reply: Reply = {
  text: '2 new listings for "rent marina 2br"',
  blocks: [
    { kind: 'header', text: 'New in Dubai Marina' },
    {
      kind: 'card',
      card: {
        title: 'Marina Gate 2BR',
        url: 'https://example.com/property/1',
        fields: [{ label: 'Price', value: 'AED 150,000/yr' }],
        imageUrl: 'https://cdn.example.com/1.jpg',
      },
    },
  ],
};

/** The PostFailure a post threw. */
async function failure(p: Promise<unknown>): Promise<PostFailure> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PostFailure);
  return error as PostFailure;
}

/** A lookup for a delivery first and last tried at `at` (default: long enough ago for Slack to have settled). */
function lookup(
  deliveryId: string,
  at = Date.now() - SLACK_SETTLE_MS,
  now = Math.max(Date.now(), at + SLACK_SETTLE_MS),
): LookupRequest {
  return { channel: CHANNEL, deliveryId, firstAttemptAt: at, lastAttemptAt: at, uncertainSince: at, now };
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
  it('posts to the channel of the channel, tagged with the delivery id, and returns the message ts', async () => {
    const { messageId } = await poster.post(CHANNEL, reply, 'dlv-1');
    const [call] = fake.callsTo('chat.postMessage');
    expect(call!.args).toMatchObject({
      channel: 'C0ALERTS',
      text: reply.text,
      metadata: { event_type: 'manzil_alert', event_payload: { delivery_id: 'dlv-1' } },
    });
    expect(JSON.stringify(call!.args.blocks)).toMatch(/Marina Gate 2BR/);
    expect(messageId).toBe(fake.messages('C0ALERTS')[0]!.ts);
  });

  it('posts to a DM by its D… channel', async () => {
    await poster.post('slack:T0TEST:D0ALICE', reply, 'dlv-dm');
    expect(fake.messages('D0ALICE')).toHaveLength(1);
  });

  it('resends without images when Slack refuses the blocks, keeping the delivery id', async () => {
    fake.failNext('chat.postMessage', { error: 'invalid_blocks' });
    await poster.post(CHANNEL, reply, 'dlv-2');
    const calls = fake.callsTo('chat.postMessage');
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls[0]!.args.blocks)).toMatch(/"image"/);
    expect(JSON.stringify(calls[1]!.args.blocks)).not.toMatch(/"image"/);
    expect(fake.messages('C0ALERTS').map((m) => m.metadata?.event_payload)).toEqual([{ delivery_id: 'dlv-2' }]);
  });

  it('turns a 429 into a wait for Slack’s Retry-After, at once and without retrying itself', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const started = Date.now();
    const e = await failure(poster.post(CHANNEL, reply, 'dlv-3'));
    expect({ outcome: e.outcome, retryAfterMs: e.retryAfterMs }).toEqual({ outcome: 'wait', retryAfterMs: 7_000 });
    expect(Date.now() - started).toBeLessThan(5_000); // not waited out (7 s)
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('turns a 500 into maybe posted (looked for before any re-send), tried once', async () => {
    fake.failNext('chat.postMessage', { status: 500 });
    const e = await failure(poster.post(CHANNEL, reply, 'dlv-4'));
    expect(e.outcome).toBe('maybe_posted');
    expect(e.retryAfterMs).toBeUndefined();
    expect(e.message).toMatch(/500/);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it.each([
    ['channel_not_found', 'channel_unavailable'],
    ['not_in_channel', 'channel_unavailable'],
    ['is_archived', 'channel_unavailable'],
    ['invalid_auth', 'credentials_refused'],
    ['token_revoked', 'credentials_refused'],
    ['ratelimited', 'wait'],
    ['internal_error', 'maybe_posted'],
  ])('turns %s into %s, tried once', async (error, outcome) => {
    fake.failNext('chat.postMessage', { error });
    const e = await failure(poster.post(CHANNEL, reply, 'dlv-5'));
    expect(e.outcome).toBe(outcome);
    expect(e.message).toContain(error);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('never puts the token in a failure', async () => {
    const wrong = new SlackPoster(postingClient('xoxb-not-the-token-123', { apiUrl: fake.apiUrl }));
    const e = await failure(wrong.post(CHANNEL, reply, 'dlv-6'));
    expect(e.outcome).toBe('credentials_refused');
    expect(JSON.stringify({ message: e.message, stack: e.stack, outcome: e.outcome })).not.toContain(
      'xoxb-not-the-token-123',
    );
  });

  it('rejects a channel that is not Slack’s without calling Slack', async () => {
    const e = await failure(poster.post('discord:1:2', reply, 'dlv-7'));
    expect(e.outcome).toBe('rejected');
    expect(fake.calls).toEqual([]);
  });

  it('fails a post whose answer never comes after the timeout as maybe posted', async () => {
    const quick = new SlackPoster(postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 200 }));
    const held = fake.holdNext('chat.postMessage');
    const e = await failure(quick.post(CHANNEL, reply, 'dlv-8'));
    expect(e.outcome).toBe('maybe_posted');
    held.release();
    // It did land, though: this is what findDelivered is for.
    expect(await quick.findDelivered(lookup('dlv-8'))).toEqual({
      kind: 'found',
      messageId: fake.messages('C0ALERTS')[0]!.ts,
    });
  });

  it('after internal_error from a Slack that stored the message, the look finds it: nothing is sent twice', async () => {
    fake.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });
    const e = await failure(poster.post(CHANNEL, reply, 'dlv-9'));
    expect(e.outcome).toBe('maybe_posted');
    expect(await poster.findDelivered(lookup('dlv-9'))).toEqual({
      kind: 'found',
      messageId: fake.messages('C0ALERTS')[0]!.ts,
    });
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });
});

describe('SlackPoster.findDelivered', () => {
  it('finds the message carrying the delivery id after a post whose answer was lost', async () => {
    const since = Date.now() - 1_000;
    await poster.post(CHANNEL, reply, 'dlv-a');
    const held = fake.holdNext('chat.postMessage');
    const lost = poster.post(CHANNEL, reply, 'dlv-b');
    await held.arrived;
    const found = await poster.findDelivered(lookup('dlv-b', since));
    expect(found).toEqual({ kind: 'found', messageId: fake.messages('C0ALERTS')[1]!.ts });
    held.release();
    expect((await lost).messageId).toBe(fake.messages('C0ALERTS')[1]!.ts);
    expect(await poster.findDelivered(lookup('dlv-a', since))).toEqual({
      kind: 'found',
      messageId: fake.messages('C0ALERTS')[0]!.ts,
    });
    const [history] = fake.callsTo('conversations.history');
    expect(history!.args).toMatchObject({
      channel: 'C0ALERTS',
      include_all_metadata: 'true',
      oldest: ((since - HISTORY_MARGIN_MS) / 1000).toFixed(6),
    });
  });

  it('answers absent when no message carries the delivery id, and looks from 15 minutes before the first attempt', async () => {
    await poster.post(CHANNEL, reply, 'dlv-c');
    expect(await poster.findDelivered(lookup('dlv-other'))).toEqual({ kind: 'absent' });
    const ts = fake.messages('C0ALERTS')[0]!.ts;
    const oldest = Math.round(Number(ts) * 1000) + 1;
    expect(await poster.findDelivered(lookup('dlv-c', oldest + HISTORY_MARGIN_MS))).toEqual({ kind: 'absent' });
    expect(fake.callsTo('conversations.history').at(-1)!.args.oldest).toBe((oldest / 1000).toFixed(6));
    // A host clock up to 15 minutes fast when it tried still finds it.
    expect(await poster.findDelivered(lookup('dlv-c', oldest + HISTORY_MARGIN_MS - 2_000))).toMatchObject({
      kind: 'found',
    });
  });

  it('cannot tell when the local clock disagrees with the delivery’s times, and asks Slack nothing', async () => {
    const now = Date.now();
    expect(
      await poster.findDelivered({
        channel: CHANNEL,
        deliveryId: 'dlv-x',
        firstAttemptAt: now - 1_000,
        lastAttemptAt: now + 60_000,
        uncertainSince: now - 1_000,
        now,
      }),
    ).toMatchObject({ kind: 'cannot_tell' });
    expect(
      await poster.findDelivered({
        channel: CHANNEL,
        deliveryId: 'dlv-x',
        firstAttemptAt: now,
        lastAttemptAt: now - 1_000,
        uncertainSince: now,
        now,
      }),
    ).toMatchObject({
      kind: 'cannot_tell',
    });
    expect(fake.callsTo('conversations.history')).toEqual([]);
  });

  it('reads past the first page of history', async () => {
    await poster.post(CHANNEL, reply, 'dlv-old');
    const plain = postingClient('xoxb-test', { apiUrl: fake.apiUrl });
    for (let i = 0; i < 205; i++) await plain.chat.postMessage({ channel: 'C0ALERTS', text: `chatter ${i}` });
    expect(await poster.findDelivered(lookup('dlv-old'))).toEqual({
      kind: 'found',
      messageId: fake.messages('C0ALERTS')[0]!.ts,
    });
    expect(fake.callsTo('conversations.history')).toHaveLength(2);
  });

  it('cannot tell when the app lacks the history scope; a look that failed (500, 429) is asked again, then finds it', async () => {
    await poster.post(CHANNEL, reply, 'dlv-d');
    fake.missingScope('conversations.history');
    expect(await poster.findDelivered(lookup('dlv-d'))).toMatchObject({
      kind: 'cannot_tell',
      reason: expect.stringMatching(/missing_scope/),
    });
    fake.missingScope('conversations.history', false);
    fake.failNext('conversations.history', { status: 500 });
    expect(await poster.findDelivered(lookup('dlv-d'))).toMatchObject({ kind: 'failed' });
    fake.failNext('conversations.history', { status: 429, retryAfter: 4 }, 3);
    for (let i = 0; i < 3; i++)
      expect(await poster.findDelivered(lookup('dlv-d'))).toMatchObject({ kind: 'failed', retryAfterMs: 4_000 });
    expect(await poster.findDelivered(lookup('dlv-d'))).toEqual({
      kind: 'found',
      messageId: fake.messages('C0ALERTS')[0]!.ts,
    });
  });

  // 2,100 posts through the Web API client: about 9 s on a busy host, more while the suite runs beside it.
  it('cannot tell when there is more history since the first attempt than it reads', { timeout: 60_000 }, async () => {
    const plain = postingClient('xoxb-test', { apiUrl: fake.apiUrl });
    await poster.post(CHANNEL, reply, 'dlv-buried');
    for (let batch = 0; batch < 21; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          plain.chat.postMessage({ channel: 'C0ALERTS', text: `chatter ${batch}.${i}` }),
        ),
      );
    }
    expect(await poster.findDelivered(lookup('dlv-buried'))).toMatchObject({
      kind: 'cannot_tell',
      reason: expect.stringMatching(/more history/),
    });
  });
});

describe('SlackPoster: a reply in a thread (issue 40)', () => {
  it('posts into the thread, not again in the channel, and the channel’s history does not list it', async () => {
    const { messageId: card } = await poster.post(CHANNEL, reply, 'dlv-card');
    const { messageId } = await poster.post(CHANNEL, { ...reply, thread: card }, 'dlv-drop');
    const [, call] = fake.callsTo('chat.postMessage');
    expect(call!.args).toMatchObject({ thread_ts: card, reply_broadcast: 'false' });
    expect(fake.messages('C0ALERTS').map((m) => [m.ts, m.thread_ts])).toEqual([
      [card, undefined],
      [messageId, card],
    ]);
    expect(await poster.findDelivered({ ...lookup('dlv-drop'), thread: card })).toEqual({ kind: 'found', messageId });
    expect(await poster.findDelivered(lookup('dlv-card'))).toEqual({ kind: 'found', messageId: card });
    const history = fake.callsTo('conversations.history').at(-1)!;
    expect((history.response as { messages: { ts: string }[] }).messages.map((m) => m.ts)).toEqual([card]);
  });

  it('posts in the channel when the card it replies to is gone (thread_not_found)', async () => {
    const { messageId } = await poster.post(CHANNEL, { ...reply, thread: '1700000000.000001' }, 'dlv-orphan');
    const calls = fake.callsTo('chat.postMessage');
    expect(calls.map((c) => c.args.thread_ts)).toEqual(['1700000000.000001', undefined]);
    expect(fake.messages('C0ALERTS')).toEqual([expect.objectContaining({ ts: messageId })]);
    expect(fake.messages('C0ALERTS')[0]!.thread_ts).toBeUndefined();
  });

  it('looks for a reply whose answer was lost in its thread, where it is, and sends nothing twice', async () => {
    const { messageId: card } = await poster.post(CHANNEL, reply, 'dlv-card2');
    fake.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });
    const e = await failure(poster.post(CHANNEL, { ...reply, thread: card }, 'dlv-drop2'));
    expect(e.outcome).toBe('maybe_posted');
    const landed = fake.messages('C0ALERTS')[1]!;
    expect(landed.thread_ts).toBe(card);
    expect(await poster.findDelivered({ ...lookup('dlv-drop2'), thread: card })).toEqual({
      kind: 'found',
      messageId: landed.ts,
    });
    expect(fake.callsTo('conversations.replies')[0]!.args).toMatchObject({ channel: 'C0ALERTS', ts: card });
    // Not looked for in its thread, the channel's history would say it is not there.
    expect(await poster.findDelivered(lookup('dlv-drop2'))).toEqual({ kind: 'absent' });
  });
});

describe('SlackPoster.checkCredentials', () => {
  it('is ok with a working token, refused while Slack refuses it (or it lacks chat:write), unreachable in an outage', async () => {
    expect(await poster.checkCredentials()).toEqual({ kind: 'ok' });
    fake.refuseAuth();
    expect(await poster.checkCredentials()).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/invalid_auth/),
    });
    fake.refuseAuth(false);
    fake.grantScopes(['commands']);
    expect(await poster.checkCredentials()).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/chat:write/),
    });
    fake.grantScopes(undefined); // no X-OAuth-Scopes header: nothing to check
    expect(await poster.checkCredentials()).toEqual({ kind: 'ok' });
    fake.outage(503);
    expect(await poster.checkCredentials()).toMatchObject({ kind: 'unreachable' });
    fake.outage(undefined);
    expect(fake.callsTo('auth.test')).toHaveLength(5);
  });
  it('settles for 2 minutes before a lookup is trusted', () => {
    expect(poster.settleMs).toBe(2 * 60_000);
  });
});
