// Issue 15, acceptance: Slack answering 503 (and, separately, refusing connections) for 6 hours of fake time. Manzil
// is started by the composition root; its alerts go through the real Slack poster (@slack/web-api) to the fake Slack.
// The poller queues alerts in two channels at the outage's start, after 2 h and after 4 h; the test drives the
// drainer two or three minutes of its clock at a time. Afterwards every alert is in its channel exactly once, none was
// parked, and the attempts made meanwhile were spaced by the backoff (a few minutes apart at most), not a storm.
import { afterEach, describe, expect, it } from 'vitest';
import type { Manzil } from '../../src/app/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import {
  FakeClock,
  HOUR,
  MINUTE,
  alertPosts,
  bootSlack,
  deliveryIdOf,
  drainUntilSettled,
  driveByHand,
  queueNewListings,
  saveAlerts,
  slackChannel,
  type Booted,
} from './helpers.js';

const CHANNELS = ['C0OUTAGE1', 'C0OUTAGE2'];
const OUTAGE_MS = 6 * HOUR;
/** The drainer's longest wait between two retries (its default), and the shortest its jitter makes of it. */
const MAX_BACKOFF_MS = 5 * MINUTE;
const MIN_SPACING_AT_MAX_MS = MAX_BACKOFF_MS / 2;

let slack: FakeSlack | undefined;
let manzil: Manzil | undefined;
afterEach(async () => {
  await manzil?.stop();
  await slack?.close();
  manzil = undefined;
  slack = undefined;
});

interface Outage {
  begin(slack: FakeSlack): Promise<void> | void;
  end(slack: FakeSlack): Promise<void> | void;
  /**
   * How far the clock moves each time it is read (see FakeClock). Retries that fail fast land in one channel in the
   * same pass, and the one-a-second spacing between them would cost real seconds: the clock moves. Looks that fail
   * are asked again 30 s later, and a clock moving while it looks would keep one pass going: it stands still.
   */
  tickMs: number;
  /** How far the test moves the clock between two passes. */
  stepMs: number;
}

/** Runs the outage on the fake clock, queuing alerts at its start, after 2 h and after 4 h; returns what it saw. */
async function rideOut(outage: Outage) {
  const clock = new FakeClock(outage.tickMs);
  slack = await startFakeSlack({ clock: clock.now });
  const booted: Booted = await bootSlack(slack, clock);
  manzil = booted.manzil;
  driveByHand(manzil);
  await saveAlerts(manzil, CHANNELS.map(slackChannel));

  await outage.begin(slack);
  const started = clock.ahead;
  let queued = 0;
  for (let elapsed = 0; elapsed < OUTAGE_MS; elapsed += outage.stepMs) {
    if (elapsed % (2 * HOUR) === 0) queued += await queueNewListings(manzil);
    await manzil.alerts.drainer.drain();
    clock.advance(outage.stepMs);
  }
  expect(clock.ahead - started).toBeGreaterThanOrEqual(OUTAGE_MS);
  expect(queued).toBeGreaterThanOrEqual(CHANNELS.length * 3); // something queued at each of the three times, everywhere
  // Nothing could be posted meanwhile, and nothing was given up on.
  expect(CHANNELS.flatMap((c) => alertPosts(slack!, c))).toEqual([]);
  expect(await manzil.alerts.outbox.stats()).toMatchObject({ failed: 0, delivered: 0, pending: queued });
  const retries = booted.logs.filter((l) => l.msg === 'delivery failed; will retry') as unknown as {
    delivery: number;
    retryInMs: number;
    attempts: number;
  }[];
  const duringOutage = {
    posts: slack.callsTo('chat.postMessage').length,
    looks: slack.callsTo('conversations.history').length,
    retries,
  };

  await outage.end(slack);
  await drainUntilSettled(manzil, clock);
  return { queued, duringOutage, logs: booted.logs };
}

/** Every alert queued is in its channel exactly once; none parked, none counted as a possible duplicate. */
async function expectEachPostedOnce(queued: number): Promise<void> {
  const posts = CHANNELS.flatMap((c) => alertPosts(slack!, c));
  const ids = posts.map(deliveryIdOf);
  expect(new Set(ids).size).toBe(ids.length);
  expect(posts).toHaveLength(queued);
  expect(await manzil!.alerts.outbox.stats()).toMatchObject({
    delivered: queued,
    failed: 0,
    pending: 0,
    sending: 0,
    possibleDuplicates: 0,
  });
}

/** Attempts spaced by the backoff: never more than its ceiling apart, and no more of them per entry than it allows. */
function expectSpacedAttempts(retries: { delivery: number; retryInMs: number }[], entries: number): void {
  expect(retries.length).toBeGreaterThan(0);
  for (const r of retries) expect(r.retryInMs).toBeLessThanOrEqual(MAX_BACKOFF_MS);
  // Doubling from 2 s reaches the ceiling after 8 attempts; from then on at least MAX/2 apart (its jitter).
  const allowedPerEntry = 8 + Math.ceil(OUTAGE_MS / MIN_SPACING_AT_MAX_MS) + 1;
  const perEntry = new Map<number, number>();
  for (const r of retries) perEntry.set(r.delivery, (perEntry.get(r.delivery) ?? 0) + 1);
  expect(perEntry.size).toBe(entries);
  for (const n of perEntry.values()) expect(n).toBeLessThanOrEqual(allowedPerEntry);
}

describe('Slack answering 503 for 6 hours', () => {
  it('posts every alert queued meanwhile exactly once afterwards, parks none, and makes no storm of attempts', async () => {
    const { queued, duringOutage } = await rideOut({
      begin: (s) => s.outage(503),
      end: (s) => s.outage(undefined),
      tickMs: 0,
      stepMs: 3 * MINUTE,
    });
    await expectEachPostedOnce(queued);
    // A 503 may have posted: each entry is posted once, then looked for in the history (which also answers 503)
    // before it is ever posted again, so the outage saw about one post per entry, not one per minute.
    expect(duringOutage.posts).toBeLessThanOrEqual(queued);
    expect(duringOutage.posts).toBe(duringOutage.retries.length);
    expectSpacedAttempts(duringOutage.retries, queued);
    expect(duringOutage.looks).toBeGreaterThan(0);
  }, 60_000);
});

describe('Slack refusing connections for 6 hours', () => {
  it('posts every alert queued meanwhile exactly once afterwards, parks none, and backs off to minutes apart', async () => {
    const { queued, duringOutage } = await rideOut({
      begin: (s) => s.refuseConnections(true),
      end: (s) => s.refuseConnections(false),
      tickMs: 500,
      stepMs: 2 * MINUTE,
    });
    await expectEachPostedOnce(queued);
    // Refused connections reach no fake: what Manzil made of them is in its log, one line per failed attempt.
    expect(duringOutage.posts).toBe(0);
    expectSpacedAttempts(duringOutage.retries, queued);
    // Surely not posted: retried without looking first.
    expect(duringOutage.looks).toBe(0);
  }, 60_000);
});
