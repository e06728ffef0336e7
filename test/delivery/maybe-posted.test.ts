// Issue 15, acceptance: "maybe posted" means look first, and only when a look can answer. Through the real Slack
// poster against the fake Slack, on the delivery core's clock: Slack stores a message and answers `internal_error`;
// and a post cut off mid-way (its answer never comes, its claim runs out) is looked for while the history answers 429
// three times. Each time the channel shows the alert exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import type { Manzil } from '../../src/app/index.js';
import type { DrainReport } from '../../src/outbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import {
  FakeClock,
  MINUTE,
  alertPosts,
  bootSlack,
  deliveryIdOf,
  driveByHand,
  queueNewListings,
  saveAlerts,
  slackChannel,
} from './helpers.js';

const CHANNEL = 'C0MAYBE';
/** ALERTS_DELIVERY_LEASE_S by default. */
const LEASE_MS = 60_000;

let slack: FakeSlack | undefined;
let manzil: Manzil | undefined;
afterEach(async () => {
  await manzil?.stop();
  await slack?.close();
  manzil = undefined;
  slack = undefined;
});

/** Manzil with one alert in CHANNEL and new listings queued for it: how many. */
async function withQueuedAlerts(clock: FakeClock): Promise<number> {
  slack = await startFakeSlack({ clock: clock.now });
  manzil = (await bootSlack(slack, clock)).manzil;
  driveByHand(manzil);
  await saveAlerts(manzil, [slackChannel(CHANNEL)]);
  const queued = await queueNewListings(manzil);
  expect(queued).toBeGreaterThan(0);
  return queued;
}

const sum = (reports: DrainReport[], key: keyof DrainReport) => reports.reduce((n, r) => n + r[key], 0);
const postsOf = (deliveryId: string) => alertPosts(slack!, CHANNEL).filter((m) => deliveryIdOf(m) === deliveryId);

describe('Slack answering internal_error after it stored the message', () => {
  it('looks for it once Slack has had time to store it, finds it, and never posts it again', async () => {
    const clock = new FakeClock();
    const queued = await withQueuedAlerts(clock);
    slack!.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });

    const first = await manzil!.alerts.drainer.drain();
    expect(first).toMatchObject({ delivered: queued - 1, retried: 1 });
    const [failed] = slack!.callsTo('chat.postMessage');
    expect(failed!.response).toMatchObject({ ok: false, error: 'internal_error' });
    const id = deliveryIdOf(failed!);
    expect(postsOf(id)).toHaveLength(1); // Slack has it, though it said it failed

    // Within the two minutes a slow Slack may take to store a post, it is neither looked for nor posted again.
    const reports: DrainReport[] = [];
    for (let s = 0; s < 3; s++) {
      clock.advance(30_000);
      reports.push(await manzil!.alerts.drainer.drain());
    }
    expect(slack!.callsTo('conversations.history')).toHaveLength(0);
    expect(slack!.callsTo('chat.postMessage')).toHaveLength(queued);

    // Past it: looked for in the history, found, delivered without a second post.
    clock.advance(MINUTE);
    reports.push(await manzil!.alerts.drainer.drain());
    expect(sum(reports, 'recoveredFound')).toBe(1);
    expect(slack!.callsTo('conversations.history').length).toBeGreaterThan(0);
    expect(slack!.callsTo('chat.postMessage')).toHaveLength(queued);
    expect(postsOf(id)).toHaveLength(1);
    expect(alertPosts(slack!, CHANNEL)).toHaveLength(queued);
    expect(await manzil!.alerts.outbox.stats()).toMatchObject({
      delivered: queued,
      pending: 0,
      sending: 0,
      failed: 0,
      possibleDuplicates: 0,
    });
  });
});

describe('a post cut off mid-way, then the history lookup answering 429 three times', () => {
  it('posts nothing until a look answers, spends no attempt on the failed looks, and the alert is there once', async () => {
    const clock = new FakeClock();
    await withQueuedAlerts(clock);
    // Slack takes the post; its answer never comes back to the drainer that sent it (a crash, or a stall).
    const held = slack!.holdNext('chat.postMessage', { carryOut: true });
    const stalled = manzil!.alerts.drainer.drain();
    const call = await held.arrived;
    const id = deliveryIdOf(call);
    expect(postsOf(id)).toHaveLength(1);
    const entry = await manzil!.alerts.outbox.list({ state: 'sending' });
    expect(entry).toHaveLength(1);

    // Its claim runs out; another pass takes the entry over and must look before anything is posted again.
    clock.advance(LEASE_MS + 1_000);
    slack!.failNext('conversations.history', { status: 429, retryAfter: 1 }, 3);
    const reports: DrainReport[] = [];
    for (let look = 0; look < 4; look++) {
      reports.push(await manzil!.alerts.drainer.drain());
      if (look < 3) {
        expect(slack!.callsTo('conversations.history')).toHaveLength(look + 1);
        expect(await manzil!.alerts.outbox.byId(entry[0]!.id)).toMatchObject({
          state: 'pending',
          attempts: 0,
          maybeDelivered: true,
        });
      }
      clock.advance(31_000);
    }
    const looks = slack!.callsTo('conversations.history');
    expect(looks.map((c) => c.status)).toEqual([429, 429, 429, 200]);
    expect(sum(reports, 'lookupsDeferred')).toBe(3);
    expect(sum(reports, 'recoveredFound')).toBe(1);
    expect(slack!.callsTo('chat.postMessage').filter((c) => deliveryIdOf(c) === id)).toHaveLength(1);
    expect(await manzil!.alerts.outbox.byId(entry[0]!.id)).toMatchObject({
      state: 'delivered',
      attempts: 0,
      messageId: (call.response as { ts: string }).ts,
    });

    // The late answer to the cut-off post changes nothing.
    held.release();
    await stalled;
    expect(postsOf(id)).toHaveLength(1);
    expect(await manzil!.alerts.outbox.byId(entry[0]!.id)).toMatchObject({ state: 'delivered', attempts: 0 });
    expect(await manzil!.alerts.outbox.stats()).toMatchObject({ failed: 0, possibleDuplicates: 0 });
  });
});
