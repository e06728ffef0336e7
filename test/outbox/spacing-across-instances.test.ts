// A channel's spacing (one message a second) holds across instances: a drainer that claims a channel right after
// another instance posted there waits out the interval too. Real SQLite, two connections (two instances) on one file.
import { describe, expect, it } from 'vitest';
import { alertsRig } from '../alerts/helpers.js';
import { labelOf, notice, Platform } from './helpers.js';

const INTERVAL = 1_000;

describe('a channel posted in by one instance, then claimed by another', () => {
  it('gets its next post no sooner than the interval after the other instance’s', async () => {
    const rig = await alertsRig();
    const second = rig.reopen();
    // Real time moved forward by the test: the drainers' sleeps are real, and the test skips part of the interval.
    let offset = 0;
    const now = () => Date.now() + offset;
    const [platformA, platformB] = [new Platform('test'), new Platform('test')];
    const a = rig.newDrainer({ holder: 'a', posters: [platformA], now, options: { perChannelIntervalMs: INTERVAL } });
    const b = second.newDrainer({
      holder: 'b',
      posters: [platformB],
      now,
      options: { perChannelIntervalMs: INTERVAL },
    });

    await rig.outbox.enqueue(notice('test:c1', 'first'), now());
    expect(await a.drain()).toMatchObject({ delivered: 1 });
    // Half an interval later the channel's next entry is queued, and the other instance claims it.
    offset += INTERVAL / 2;
    await rig.outbox.enqueue(notice('test:c1', 'second'), now());
    expect(await b.drain()).toMatchObject({ delivered: 1 });

    expect(platformA.postsIn('test:c1').map(labelOf)).toEqual(['first']);
    expect(platformB.postsIn('test:c1').map(labelOf)).toEqual(['second']);
    // When each post started, on the drainers' clock (a timer may fire a millisecond early).
    const [first, next] = await rig.outbox.list({ channel: 'test:c1' });
    expect(next!.lastAttemptAt! - first!.lastAttemptAt!).toBeGreaterThanOrEqual(INTERVAL - 2);
  });
});
