// A channel that cannot receive (the app removed from it, the channel archived): its queue is held, not parked and
// spending no attempts; said once in the log; its alerts are not polled meanwhile; `/alerts list` there says so; and
// `/alerts resume` alone tries it again now. Real SQLite, the sandbox, the real alert commands.
import { describe, expect, it } from 'vitest';
import { PostFailure } from '../../src/ports/index.js';
import { alertsRig, ctx } from '../alerts/helpers.js';
import { Clock, labelOf, linesMatching, notice, Platform } from './helpers.js';

const HELD_LOG = /this channel cannot receive messages/;
const DAY = 86_400_000;

describe('a channel that cannot receive', () => {
  it('is held (nothing parked, no attempt spent, one log line), skipped by the poller, shown in /alerts list, and released by /alerts resume', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx('test:c1'), 'add rent dubai marina');
    await rig.commands.handle(ctx('test:c2'), 'add buy dubai marina');
    const [alert] = await rig.repo.listByChannel('test:c1');
    const clock = new Clock();
    for (let i = 0; i < 3; i++) await rig.outbox.enqueue(notice('test:c1', `c1 ${i}`, alert!.id), clock.t);
    for (let i = 0; i < 2; i++) await rig.outbox.enqueue(notice('test:c2', `c2 ${i}`), clock.t);
    let removed = true; // the app was removed from c1
    const platform = new Platform('test', (channel) =>
      channel === 'test:c1' && removed ? new PostFailure('not_in_channel', 'channel_unavailable') : undefined,
    );
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now });

    expect(await drainer.drain()).toMatchObject({ delivered: 2, failed: 0 });
    expect(platform.postsIn('test:c2')).toHaveLength(2);
    // One attempt in c1; its whole queue waits: pending, no attempt spent.
    expect(platform.attempts.get('test:c1')).toBe(1);
    const queue = async () =>
      (await rig.outbox.list({ channel: 'test:c1' })).map((r) => ({ state: r.state, attempts: r.attempts }));
    expect(await queue()).toEqual(Array(3).fill({ state: 'pending', attempts: 0 }));
    expect(await rig.outbox.heldChannel('test:c1')).toMatchObject({ reason: 'not_in_channel' });
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ heldChannels: 1, failed: 0, pending: 3 });
    expect(linesMatching(rig.logs, HELD_LOG)).toHaveLength(1);

    // Meanwhile it is not tried at every pass; when it is tried again (later) and still cannot receive, no new line.
    await drainer.drain();
    expect(platform.attempts.get('test:c1')).toBe(1);
    clock.advance(15 * 60_000 + 1);
    await drainer.drain();
    expect(platform.attempts.get('test:c1')).toBe(2);
    expect(await queue()).toEqual(Array(3).fill({ state: 'pending', attempts: 0 }));
    expect(linesMatching(rig.logs, HELD_LOG)).toHaveLength(1);

    // The poller leaves the held channel's alerts alone (their listings would only pile up); the other channel's run.
    const due = async () => (await rig.repo.due(rig.service, Date.now() + DAY)).map((s) => s.channel);
    expect(await due()).toEqual(['test:c2']);

    // /alerts list there says it cannot post, and why; the other channel's list does not.
    const list = await rig.commands.handle(ctx('test:c1'), 'list');
    expect(list.text).toMatch(/I could not post here since .* \(not_in_channel\): alerts wait and nothing is lost/);
    expect(list.text).toMatch(/`\/alerts resume`/);
    expect((await rig.commands.handle(ctx('test:c2'), 'list')).text).not.toMatch(/could not post here/);

    // The app is added back; `/alerts resume` (no number) tries the channel again now.
    removed = false;
    const resumed = await rig.commands.handle(ctx('test:c1'), 'resume');
    expect(resumed.text).toMatch(/try posting here again now/);
    expect(await rig.outbox.heldChannel('test:c1')).toBeUndefined();
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ heldChannels: 0 });
    expect((await due()).sort()).toEqual(['test:c1', 'test:c2']);
    // "Now": its queue is due at once, not at the hold's next retry (up to 15 minutes later).
    expect(await rig.outbox.nextDue(['test'])).toBeLessThanOrEqual(clock.t);
    expect(await drainer.drain()).toMatchObject({ delivered: 3, failed: 0 });
    expect(platform.postsIn('test:c1').map(labelOf)).toEqual(['c1 0', 'c1 1', 'c1 2']);
  });

  it('is released on its own once a later attempt is accepted: its queue is posted and its alerts polled again', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx('test:c1'), 'add rent dubai marina');
    const clock = new Clock();
    for (let i = 0; i < 2; i++) await rig.outbox.enqueue(notice('test:c1', `c1 ${i}`), clock.t);
    const platform = new Platform('test', (_channel, _id, n) =>
      n === 1 ? new PostFailure('is_archived', 'channel_unavailable') : undefined,
    );
    const drainer = rig.newDrainer({ posters: [platform], now: clock.now });
    await drainer.drain();
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ heldChannels: 1, delivered: 0 });
    expect(await rig.repo.due(rig.service, Date.now() + DAY)).toEqual([]);
    clock.advance(15 * 60_000 + 1); // unarchived meanwhile; the hold's retry comes
    expect(await drainer.drain()).toMatchObject({ delivered: 2 });
    expect(await rig.outbox.stats(clock.t)).toMatchObject({ heldChannels: 0, pending: 0 });
    expect(await rig.repo.due(rig.service, Date.now() + DAY)).toHaveLength(1);
    expect(linesMatching(rig.logs, /receives messages again/)).toHaveLength(1);
  });
});
