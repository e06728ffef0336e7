// Restart recovery: the claims of an instance that is surely gone (its heartbeat lapsed, or it ran on this host under
// a process id that no longer runs) are taken over at once, not after their 60 s lease; the post that was in flight at
// its crash is looked for on the platform before anything is sent again. Real SQLite, a real Heartbeat.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { Heartbeat, LAPSE_MS } from '../../src/jobs/index.js';
import type { ClaimedEntry } from '../../src/store/index.js';
import { alertsRig, type Rig } from '../alerts/helpers.js';
import { notice, Platform } from './helpers.js';

/** No process has this id: above Linux's largest pid_max (2^22). */
const GONE_PID = 2 ** 22 + 12345;
const LEASE_MS = 60_000;

/**
 * Three entries claimed by instance `holder` 10 s ago with a 60 s lease, the first one's post in flight at its crash,
 * in two channels (`test:c1`, `test:c2`, or others under `prefix`: a channel is claimed by one holder at a time).
 * Returns them in claim order.
 */
async function crashedInstance(rig: Rig, holder: string, prefix = 'test:c'): Promise<ClaimedEntry[]> {
  const crashAt = Date.now() - 10_000;
  await rig.outbox.enqueue(notice(`${prefix}1`, `${holder}: in flight`), crashAt - 1_000);
  await rig.outbox.enqueue(notice(`${prefix}1`, `${holder}: queued behind it`), crashAt - 1_000);
  await rig.outbox.enqueue(notice(`${prefix}2`, `${holder}: another channel`), crashAt - 1_000);
  const claimed = await rig.outbox.claimDue({
    holder,
    at: crashAt,
    leaseMs: LEASE_MS,
    perChannel: 10,
    channels: 10,
    platforms: ['test'],
  });
  expect(claimed).toHaveLength(3);
  expect(await rig.outbox.markPosting(claimed[0]!.id, claimed[0]!.token, crashAt, crashAt + LEASE_MS)).toBe(true);
  return claimed;
}

/** The restarted instance: its heartbeat, and a drainer that takes over the claims of lapsed instances. */
async function restarted(rig: Rig, platform: Platform) {
  const heartbeat = new Heartbeat(rig.leases, 'restarted');
  await heartbeat.beat();
  const drainer = rig.newDrainer({
    posters: [platform],
    holder: 'restarted',
    options: { leaseMs: LEASE_MS },
    lapsed: () => heartbeat.lapsed(),
  });
  return { heartbeat, drainer };
}

describe('a restart', () => {
  it('takes over at once the claims of an instance that ran here under a pid that no longer runs, looking for the in-flight post first', async () => {
    const rig = await alertsRig();
    const claimed = await crashedInstance(rig, 'dead');
    // Its heartbeat is fresh (it died a moment ago): only its pid tells it is gone.
    await rig.leases.heartbeat({ id: 'dead', host: os.hostname(), pid: GONE_PID }, Date.now());
    const platform = new Platform('test');
    platform.settleMs = 120_000; // a Slack-like platform: a slow post may take minutes to show up
    const { heartbeat, drainer } = await restarted(rig, platform);
    expect(await heartbeat.lapsed()).toEqual(['dead']);

    const started = Date.now();
    const report = await drainer.drain();
    expect(Date.now() - started).toBeLessThan(5_000); // not the 50 s left on the dead instance's claims
    expect(report).toMatchObject({ delivered: 3, failed: 0, possibleDuplicates: 0 });
    const [inFlight, behind] = claimed;
    expect(platform.events).toContain(`post:test:c2:${claimed[2]!.deliveryId}`);
    const c1 = platform.events.filter((e) => e.includes(':test:c1:'));
    // The post cut off by the crash is looked for before anything else in its channel, then (absent) sent; the one that
    // was only queued behind it is not looked for.
    expect(c1).toEqual([
      `look:test:c1:${inFlight!.deliveryId}`,
      `post:test:c1:${inFlight!.deliveryId}`,
      `post:test:c1:${behind!.deliveryId}`,
    ]);
    expect(platform.posts.map((p) => p.deliveryId).sort()).toEqual(claimed.map((c) => c.deliveryId).sort());
  });

  it('takes over at once the claims of an instance on another host whose heartbeat lapsed; a post that had landed is found, not sent twice', async () => {
    const rig = await alertsRig();
    const claimed = await crashedInstance(rig, 'elsewhere');
    await rig.leases.heartbeat(
      { id: 'elsewhere', host: 'another-host', pid: process.pid },
      Date.now() - LAPSE_MS - 5_000,
    );
    const platform = new Platform('test');
    // Its post reached the platform just before it died.
    await platform.post('test:c1', { text: 'posted before the crash', blocks: [] }, claimed[0]!.deliveryId);
    const { drainer } = await restarted(rig, platform);
    const report = await drainer.drain();
    expect(report).toMatchObject({ delivered: 2, recoveredFound: 1, possibleDuplicates: 0 });
    expect(platform.timesPosted(claimed[0]!.deliveryId)).toBe(1);
    expect(await rig.outbox.byId(claimed[0]!.id)).toMatchObject({ state: 'delivered', messageId: 'm1' });
    expect(await rig.outbox.stats()).toMatchObject({ delivered: 3, pending: 0, sending: 0 });
  });

  it('leaves alone, until their lease runs out, the claims of an instance that is alive (fresh heartbeat, its process running)', async () => {
    const rig = await alertsRig();
    await crashedInstance(rig, 'busy-elsewhere');
    await rig.leases.heartbeat({ id: 'busy-elsewhere', host: 'another-host', pid: GONE_PID }, Date.now());
    await crashedInstance(rig, 'busy-here', 'test:d');
    await rig.leases.heartbeat({ id: 'busy-here', host: os.hostname(), pid: process.ppid }, Date.now());
    const platform = new Platform('test');
    const { heartbeat, drainer } = await restarted(rig, platform);
    expect(await heartbeat.lapsed()).toEqual([]);
    expect(await drainer.drain()).toMatchObject({ delivered: 0 });
    expect(platform.events).toEqual([]);
    expect(await rig.outbox.stats()).toMatchObject({ sending: 6, inFlight: 2 });
  });
});
