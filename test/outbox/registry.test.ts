// The outbox knows no kind of message: each kind registers its decoder and renderer. An entry no kind here can read is
// parked (kept, listed, retried later), never lost and never stopping the drainer; a second kind registered by another
// module goes through the same drainer. Real SQLite; the alerts' own kinds as main registers them.
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKind } from '../../src/alerts/index.js';
import { KindRegistry, OutboxDrainer, type DeliveryKind } from '../../src/outbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { alertsRig, claimsRunOut, type Rig } from '../alerts/helpers.js';
import { labelOf, linesMatching, notice, Platform } from './helpers.js';

/** A kind another module (digests) would register: its own versioned payload and message. */
interface DigestTest {
  v: 1;
  area: string;
  listings: number;
}
const digestKind: DeliveryKind<DigestTest> = {
  decode(json) {
    try {
      const p = JSON.parse(json) as Partial<DigestTest>;
      return p.v === 1 && typeof p.area === 'string' && typeof p.listings === 'number' ? (p as DigestTest) : undefined;
    } catch {
      return undefined;
    }
  },
  render: (p): Reply => ({
    text: `Digest for ${p.area}: ${p.listings} new listings this week`,
    blocks: [{ kind: 'header', text: `Digest · ${p.area}` }],
  }),
};

const alertsOnly = () => new KindRegistry().register(ALERT_KINDS, alertKind());

function drainerWith(rig: Rig, kinds: KindRegistry, platform: Platform): OutboxDrainer {
  return new OutboxDrainer({
    outbox: rig.outbox,
    kinds,
    posters: [platform],
    logger: rig.logger,
    options: { giveUpMs: 48 * 3_600_000, perChannelIntervalMs: 0, leaseMs: 200, baseBackoffMs: 1, maxBackoffMs: 2 },
  });
}

const entry = (channel: string, kind: string, key: string, payload: string) => ({
  channel,
  kind,
  dedupeKey: key,
  payload,
});

describe('entries no registered kind can read', () => {
  it('an unknown kind and an unreadable payload are parked (kept, counted, logged), and the rest of the channel is posted', async () => {
    const rig = await alertsRig();
    const platform = new Platform('test');
    await rig.outbox.enqueue(notice('test:c1', 'before'));
    await rig.outbox.enqueue(
      entry('test:c1', 'weekly_report', 'unknown-kind', JSON.stringify({ v: 1, anything: true })),
    );
    await rig.outbox.enqueue(entry('test:c1', 'new', 'unreadable', '{"v": 1, "kind": "new", "sear'));
    await rig.outbox.enqueue(
      entry('test:c1', 'summary', 'newer-version', JSON.stringify({ v: 2, kind: 'summary', more: 3 })),
    );
    await rig.outbox.enqueue(notice('test:c1', 'after'));
    const report = await drainerWith(rig, alertsOnly(), platform).drain();
    expect(report).toMatchObject({ delivered: 2, failed: 3 });
    expect(platform.postsIn('test:c1').map(labelOf)).toEqual(['before', 'after']);
    const parked = await rig.outbox.list({ state: 'failed' });
    expect(parked.map((r) => r.dedupeKey)).toEqual(['unknown-kind', 'unreadable', 'newer-version']);
    expect(parked.every((r) => /unknown kind|unreadable/.test(r.lastError ?? ''))).toBe(true);
    expect(await rig.outbox.stats()).toMatchObject({ failed: 3, delivered: 2, pending: 0, sending: 0 });
    expect(linesMatching(rig.logs, /delivery parked/)).toHaveLength(3);
  });

  it('a parked entry of a kind this release did not know is posted after an upgrade that registers it and `outbox retry`', async () => {
    const rig = await alertsRig();
    const platform = new Platform('test');
    await rig.outbox.enqueue(
      entry('test:c1', 'digest_test', 'digest:1', JSON.stringify({ v: 1, area: 'Dubai Marina', listings: 12 })),
    );
    expect(await drainerWith(rig, alertsOnly(), platform).drain()).toMatchObject({ failed: 1 });
    expect(platform.events).toEqual([]);
    const upgraded = alertsOnly().register('digest_test', digestKind);
    expect(await rig.outbox.retryParked('all')).toBe(1);
    expect(await drainerWith(rig, upgraded, platform).drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(platform.postsIn('test:c1')).toEqual(['Digest for Dubai Marina: 12 new listings this week']);
  });

  it('an entry whose renderer throws is parked like one it cannot read, and does not hold its channel', async () => {
    const rig = await alertsRig();
    const platform = new Platform('test');
    const fragile: DeliveryKind<{ area: string | null }> = {
      decode: (json) => JSON.parse(json) as { area: string | null },
      render: (p) => ({ text: `Digest for ${p.area!.toUpperCase()}`, blocks: [] }),
    };
    const kinds = alertsOnly().register('fragile', fragile);
    await rig.outbox.enqueue(entry('test:c1', 'fragile', 'fragile:1', JSON.stringify({ area: null })));
    await rig.outbox.enqueue(notice('test:c1', 'after it'));
    const drainer = drainerWith(rig, kinds, platform);
    await drainer.drain();
    // Once its claims (200 ms here) have run out, another pass or two: the channel's next entry must have gone out.
    await claimsRunOut(rig.outbox);
    await drainer.drain();
    await claimsRunOut(rig.outbox);
    await drainer.drain();
    expect(platform.postsIn('test:c1').map(labelOf)).toEqual(['after it']);
    expect((await rig.outbox.list({ state: 'failed' })).map((r) => r.dedupeKey)).toEqual(['fragile:1']);
  });
});

describe('a second kind registered by another module', () => {
  it('is delivered through the same drainer, in order with the alerts of its channel', async () => {
    const rig = await alertsRig();
    const platform = new Platform('test');
    const kinds = alertsOnly().register('digest_test', digestKind);
    expect(kinds.has('digest_test') && kinds.has('new')).toBe(true);
    await rig.outbox.enqueue(notice('test:c1', 'alert first'));
    await rig.outbox.enqueue(
      entry('test:c1', 'digest_test', 'digest:c1:w48', JSON.stringify({ v: 1, area: 'JVC', listings: 7 })),
    );
    await rig.outbox.enqueue(
      entry('test:c2', 'digest_test', 'digest:c2:w48', JSON.stringify({ v: 1, area: 'Downtown Dubai', listings: 3 })),
    );
    await rig.outbox.enqueue(notice('test:c1', 'alert after'));
    expect(await drainerWith(rig, kinds, platform).drain()).toMatchObject({ delivered: 4, failed: 0 });
    expect(platform.postsIn('test:c1')).toEqual([
      expect.stringMatching(/\(alert first\) is working again/),
      'Digest for JVC: 7 new listings this week',
      expect.stringMatching(/\(alert after\) is working again/),
    ]);
    expect(platform.postsIn('test:c2')).toEqual(['Digest for Downtown Dubai: 3 new listings this week']);
    // The same fact is queued once.
    expect(
      await rig.outbox.enqueue(
        entry('test:c2', 'digest_test', 'digest:c2:w48', JSON.stringify({ v: 1, area: 'Downtown Dubai', listings: 3 })),
      ),
    ).toBe(0);
  });

  it('cannot take a name another module registered', () => {
    expect(() => alertsOnly().register('new', digestKind)).toThrow(/"new" is registered already/);
  });
});
