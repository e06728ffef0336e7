// Fair channels: one slow or throttled channel never holds the others, and the drainer's per-channel state stays
// bounded. Real SQLite; a platform whose posts to one channel are held until the test lets them go, or rate-limited
// (a moved clock).
import { describe, expect, it } from 'vitest';
import { PostFailure } from '../../src/ports/index.js';
import { alertsRig } from '../alerts/helpers.js';
import { Clock, labelOf, notice, Platform, until } from './helpers.js';

/** Holds the posts of one channel until `release()`: a slow channel whose end the test decides. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

describe('a channel whose posts are slow', () => {
  it('does not hold another channel: all of its entries are posted before the slow channel’s worker is done', async () => {
    const rig = await alertsRig();
    const slow = gate();
    const platform = new Platform('test', (channel) => (channel === 'test:slow' ? slow.opened : undefined));
    // The slow channel's entries first (the oldest), then more for the other one than one claim takes (10 a channel).
    for (let i = 0; i < 2; i++) await rig.outbox.enqueue(notice('test:slow', `slow ${i}`));
    for (let i = 0; i < 12; i++) await rig.outbox.enqueue(notice('test:fast', `fast ${i}`));
    const drainer = rig.newDrainer({ posters: [platform], options: { perChannelIntervalMs: 0, leaseMs: 60_000 } });
    const draining = drainer.drain();
    try {
      // All twelve are posted while the slow channel's first post is still in flight, its second not yet tried.
      await until(() => platform.postsIn('test:fast').length === 12);
      expect(platform.postsIn('test:slow')).toEqual([]);
      expect(platform.attempts.get('test:slow')).toBe(1);
    } finally {
      slow.release();
    }
    const report = await draining;
    expect(report.delivered).toBe(14);
    const fast = platform.posts.filter((p) => p.channel === 'test:fast');
    expect(fast.map((p) => labelOf(p.text))).toEqual(Array.from({ length: 12 }, (_, i) => `fast ${i}`));
    // One at a time in the slow channel: its second post was tried only after the first was done.
    expect(platform.postsIn('test:slow').map(labelOf)).toEqual(['slow 0', 'slow 1']);
    expect(platform.attempts.get('test:slow')).toBe(2);
  });

  it('does not hold an entry queued for another channel while it is still posting (the drainer running in the background)', async () => {
    const rig = await alertsRig();
    const slow = gate();
    const platform = new Platform('test', (channel) => (channel === 'test:slow' ? slow.opened : undefined));
    await rig.outbox.enqueue(notice('test:slow', 'slow 0'));
    const drainer = rig.newDrainer({ posters: [platform], options: { perChannelIntervalMs: 0, leaseMs: 60_000 } });
    drainer.start();
    try {
      await until(() => platform.events.length === 1); // the slow post is in flight, and stays so until released
      // A poller run queues an alert for another channel and pokes the drainer, as main does.
      await rig.outbox.enqueue(notice('test:fast', 'fast 0'));
      drainer.poke();
      await until(() => platform.postsIn('test:fast').length === 1);
      expect(platform.postsIn('test:slow')).toEqual([]);
      slow.release();
      await until(() => platform.posts.length === 2);
      expect(platform.posts.map((p) => p.channel)).toEqual(['test:fast', 'test:slow']);
    } finally {
      slow.release();
      await drainer.stop();
    }
  });
});

describe('a channel rate-limited by the platform', () => {
  it('holds only that channel: its whole queue waits, in order and spending no attempt, while the others are posted', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    const platform = new Platform('test', (channel, _id, n) =>
      channel === 'test:limited' && n === 1 ? new PostFailure('ratelimited', 'wait', 10_000) : undefined,
    );
    for (let i = 0; i < 3; i++) {
      await rig.outbox.enqueue(notice('test:limited', `limited ${i}`), clock.t);
      await rig.outbox.enqueue(notice('test:free', `free ${i}`), clock.t);
    }
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now, options: { perChannelIntervalMs: 0 } });
    expect(await drainer.drain()).toMatchObject({ delivered: 3, failed: 0 });
    expect(platform.postsIn('test:free').map(labelOf)).toEqual(['free 0', 'free 1', 'free 2']);
    // One attempt in the limited channel: the rest of its queue was not tried, and none of it spent an attempt.
    expect(platform.attempts.get('test:limited')).toBe(1);
    const held = await rig.outbox.list({ channel: 'test:limited' });
    expect(held.map((r) => ({ state: r.state, attempts: r.attempts }))).toEqual(
      Array(3).fill({ state: 'pending', attempts: 0 }),
    );
    expect(held.every((r) => r.nextAttemptAt >= clock.t + 10_000)).toBe(true);

    // Meanwhile another channel's new entry is posted at once; the limited one is still not tried.
    clock.advance(5_000);
    await rig.outbox.enqueue(notice('test:free', 'free 3'), clock.t);
    expect(await drainer.drain()).toMatchObject({ delivered: 1 });
    expect(platform.attempts.get('test:limited')).toBe(1);

    // Once the platform's wait is over, the limited channel's queue is posted in order.
    clock.advance(5_000);
    expect(await drainer.drain()).toMatchObject({ delivered: 3 });
    expect(platform.postsIn('test:limited').map(labelOf)).toEqual(['limited 0', 'limited 1', 'limited 2']);
  });
});

describe('the drainer’s per-channel state', () => {
  it('is bounded: channels idle for an hour are forgotten', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    const platform = new Platform('test');
    for (let i = 0; i < 60; i++) await rig.outbox.enqueue(notice(`test:c${i}`, `hello ${i}`), clock.t);
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now });
    expect(await drainer.drain()).toMatchObject({ delivered: 60 });
    expect(drainer.trackedChannels()).toBe(60);

    // Half an hour later one channel posts again; nobody has been idle an hour yet.
    clock.advance(30 * 60_000);
    await rig.outbox.enqueue(notice('test:c0', 'again'), clock.t);
    await drainer.drain();
    expect(drainer.trackedChannels()).toBe(60);

    // An hour after the first posts: only the channel that posted half an hour ago is still tracked.
    clock.advance(30 * 60_000 + 1);
    await drainer.drain();
    expect(drainer.trackedChannels()).toBe(1);
    clock.advance(30 * 60_000);
    await drainer.drain();
    expect(drainer.trackedChannels()).toBe(0);
  });
});
