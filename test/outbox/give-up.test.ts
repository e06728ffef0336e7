// Giving up by time, not by count: a platform that keeps failing is retried, a few minutes apart at most, for
// DELIVERY_GIVE_UP_H (48 h here); only then is the entry parked, counted and logged once, and `manzil outbox retry`
// puts it back. A rate limit spends no attempt; a message the platform refuses for good is parked at once.
// Real SQLite; the drainer on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { PostFailure } from '../../src/ports/index.js';
import { alertsRig } from '../alerts/helpers.js';
import { Clock, labelOf, linesMatching, notice, Platform } from './helpers.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const GIVE_UP = 48 * HOUR;
/** The production backoff: from 2 s, doubling, at most 5 minutes apart. */
const BACKOFF = { baseBackoffMs: 2_000, maxBackoffMs: 5 * MIN };

describe('a platform that keeps failing (retry)', () => {
  it('is retried with backoff capped at a few minutes, parked only after 48 h, counted and logged once; `outbox retry` posts it', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    const start = clock.t;
    await rig.outbox.enqueue(notice('test:c1', 'stubborn'), start);
    const [entry] = await rig.outbox.list();
    const platform = new Platform('test', () => new PostFailure('HTTP 503', 'retry'));
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now, options: { giveUpMs: GIVE_UP, ...BACKOFF } });

    const gaps: number[] = [];
    let failed = 0;
    for (let i = 0; i < 10_000; i++) {
      const report = await drainer.drain();
      failed += report.failed;
      const row = (await rig.outbox.byId(entry!.id))!;
      if (row.state === 'failed') break;
      // Still waiting for its next attempt, never parked before the time limit.
      expect(row.state).toBe('pending');
      expect(clock.t - start).toBeLessThan(GIVE_UP);
      gaps.push(row.nextAttemptAt - clock.t);
      clock.t = row.nextAttemptAt;
    }
    const parked = (await rig.outbox.byId(entry!.id))!;
    expect(parked.state).toBe('failed');
    // Parked at the first attempt past 48 h, not before, and not much later.
    expect(clock.t - start).toBeGreaterThanOrEqual(GIVE_UP);
    expect(clock.t - start).toBeLessThan(GIVE_UP + 5 * MIN);
    // Backoff: from about 2 s, growing, then a few minutes apart and never more than 5.
    expect(gaps[0]).toBeLessThanOrEqual(2_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(5 * MIN);
    expect(Math.min(...gaps.slice(-50))).toBeGreaterThanOrEqual(2.5 * MIN);
    expect(gaps.slice(0, 8)).toEqual([...gaps.slice(0, 8)].sort((x, y) => x - y)); // doubling (jitter within each step)
    // Every attempt reached the platform once; all of them are counted on the row.
    expect(platform.attempts.get('test:c1')).toBe(gaps.length + 1);
    expect(parked.attempts).toBe(gaps.length + 1);
    expect(gaps.length).toBeGreaterThan((48 * 60) / 5);

    // Counted and logged once, also after more passes.
    expect(failed).toBe(1);
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ failed: 1, pending: 0 });
    for (let i = 0; i < 3; i++) {
      clock.advance(HOUR);
      expect(await drainer.drain()).toMatchObject({ failed: 0, delivered: 0 });
    }
    expect(platform.attempts.get('test:c1')).toBe(gaps.length + 1);
    expect(linesMatching(rig.logs, /delivery parked/)).toHaveLength(1);

    // `manzil outbox retry --all`: back in the queue, and posted once the platform works again.
    expect(await rig.outbox.retryParked('all')).toBe(1);
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ failed: 0, pending: 1 });
    platform.behave = undefined;
    expect(await drainer.drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(platform.posts.map((p) => labelOf(p.text))).toEqual(['stubborn']);
    expect(await rig.outbox.byId(entry!.id)).toMatchObject({ state: 'delivered' });
  }, 60_000); // about 800 passes of the real drainer over real SQLite
});

describe('a rate limit (wait)', () => {
  it('spends no attempt and never parks, however long it lasts; the entry is posted once it is over', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    const start = clock.t;
    await rig.outbox.enqueue(notice('test:c1', 'throttled'), start);
    const [entry] = await rig.outbox.list();
    // Rate-limited for 10 hours at a time, six times over: 60 hours, past the time limit.
    const platform = new Platform('test', (_channel, _id, n) =>
      n <= 6 ? new PostFailure('ratelimited', 'wait', 10 * HOUR) : undefined,
    );
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now, options: { giveUpMs: GIVE_UP, ...BACKOFF } });
    for (let n = 1; n <= 6; n++) {
      expect(await drainer.drain()).toMatchObject({ failed: 0, delivered: 0 });
      const row = (await rig.outbox.byId(entry!.id))!;
      expect(row).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: clock.t + 10 * HOUR });
      // Nothing is tried before the platform's time.
      clock.advance(10 * HOUR - 1);
      await drainer.drain();
      expect(platform.attempts.get('test:c1')).toBe(n);
      clock.advance(1);
    }
    expect(clock.t - start).toBeGreaterThan(GIVE_UP);
    expect(await drainer.drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(await rig.outbox.byId(entry!.id)).toMatchObject({ state: 'delivered', attempts: 0 });
    expect(linesMatching(rig.logs, /delivery parked/)).toHaveLength(0);
  });
});

describe('a message the platform refuses for good (rejected)', () => {
  it('is parked at once, counted and logged, and not tried again', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    await rig.outbox.enqueue(notice('test:c1', 'refused'), clock.t);
    const platform = new Platform('test', () => new PostFailure('invalid_blocks', 'rejected'));
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now, options: { giveUpMs: GIVE_UP, ...BACKOFF } });
    expect(await drainer.drain()).toMatchObject({ failed: 1, delivered: 0, retried: 0 });
    expect((await rig.outbox.list())[0]).toMatchObject({ state: 'failed', attempts: 1, lastError: 'invalid_blocks' });
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ failed: 1, pending: 0 });
    clock.advance(HOUR);
    expect(await drainer.drain()).toMatchObject({ failed: 0 });
    expect(platform.attempts.get('test:c1')).toBe(1);
    expect(linesMatching(rig.logs, /delivery parked/)).toHaveLength(1);
  });
});
