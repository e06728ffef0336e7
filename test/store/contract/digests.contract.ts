// The digests repository's contract, through the ports only, so it runs the same on SQLite and on Postgres
// (the .test.ts file of the same name): what a channel or the digests job would notice of its digests and their runs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestKey, type NewDelivery, type NewDigest } from '../../../src/store/index.js';
import type { LeaseRepo } from '../../../src/store/contracts/leases.js';
import type { OutboxRepo } from '../../../src/store/contracts/outbox.js';
import type { DigestRepo } from '../../../src/store/contracts/digests.js';
import { staleAndCurrent } from './fences.js';

export interface DigestsDatabase {
  digests: DigestRepo;
  outbox: OutboxRepo;
  leases: LeaseRepo;
  close(): Promise<void>;
  /** Another connection to the same database, as a second instance has (when the database has one). */
  connect?(): Promise<{ digests: DigestRepo; close(): Promise<void> }>;
}

const SERVICE = 'https://api.example';
const CHANNEL = 'slack:T1:C1';
const JOB = 'digests';

const digestOf = (name: string, o: Partial<NewDigest> = {}): NewDigest => ({
  service: SERVICE,
  channel: CHANNEL,
  owner: 'U1',
  areas: JSON.stringify([{ id: 5002, name }]),
  schedule: JSON.stringify({ every: 'week', day: 1, time: '09:00' }),
  timezone: 'Asia/Dubai',
  nextRunAt: 100_000,
  ...o,
});

const posted = (id: number, slot: number, channel = CHANNEL): NewDelivery => ({
  channel,
  kind: 'digest',
  dedupeKey: digestKey(id, slot),
  payload: JSON.stringify({ id, slot }),
});

const runAt = (slot: number, o: { delivery?: NewDelivery; error?: string } = {}) => ({
  slot,
  nextRunAt: slot + 86_400_000,
  at: slot + 5,
  calls: 3,
  delivery: o.delivery,
  ...(o.error ? { error: o.error } : {}),
});

export function digestsContract(open: () => Promise<DigestsDatabase>): void {
  let db: DigestsDatabase;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db.close();
  });

  async function saved(name: string, o: Partial<NewDigest> = {}, perChannel = 10) {
    const result = await db.digests.create(digestOf(name, o), { perChannel });
    if (!result.ok) throw new Error(`not saved: ${result.reason}`);
    return result.row;
  }

  const fences = () => staleAndCurrent(db.leases, JOB);

  describe('digests repository: saving', () => {
    it('numbers from 1 in each channel and never gives a number again there; each channel keeps its own list', async () => {
      const before = Date.now();
      const [a, b, c] = [await saved('Dubai Marina'), await saved('JVC'), await saved('JLT')];
      expect([a.number, b.number, c.number]).toEqual([1, 2, 3]);
      expect(a).toMatchObject({
        ...digestOf('Dubai Marina'),
        paused: false,
        lastSlot: null,
        lastRunAt: null,
        lastCalls: null,
        lastError: null,
      });
      expect(a.createdAt).toBeGreaterThanOrEqual(before);
      await db.digests.remove(c.id);
      expect((await saved('Downtown')).number).toBe(4);
      for (const row of await db.digests.listByChannel(CHANNEL)) await db.digests.remove(row.id);
      expect((await saved('Marina')).number).toBe(5);
      const other = await saved('Marina', { channel: 'slack:T2:C1' });
      expect(other.number).toBe(1);
      expect((await db.digests.listByChannel('slack:T2:C1')).map((r) => r.id)).toEqual([other.id]);
      expect((await db.digests.listByChannel(CHANNEL)).map((r) => r.number)).toEqual([5]);
    });

    it("gives an edit's new digest the old one's number once it is removed; the numbering ahead is unchanged", async () => {
      const [a, b] = [await saved('Dubai Marina'), await saved('JVC')];
      const edited = await saved('JLT');
      expect(await db.digests.renumber(edited.id, b.number)).toBe(false);
      await db.digests.remove(a.id);
      expect(await db.digests.renumber(edited.id, 1)).toBe(true);
      expect((await db.digests.listByChannel(CHANNEL)).map((r) => r.number)).toEqual([1, 2]);
      expect((await saved('Downtown')).number).toBe(4);
    });

    it("lists one person's digests of one workspace, across its channels, and none of another person or workspace", async () => {
      const a = await saved('Marina');
      const b = await saved('JVC', { channel: 'slack:T1:C2' });
      await saved('JLT', { owner: 'U2' });
      await saved('Palm', { channel: 'slack:T10:C1' });
      expect((await db.digests.listByOwner('slack:T1', 'U1')).map((r) => r.id)).toEqual([a.id, b.id]);
      expect(await db.digests.listByOwner('slack:T1', 'U3')).toEqual([]);
    });

    it('keeps to the per-channel limit; other channels are not affected; a removal frees a channel', async () => {
      const first = await saved('Marina', {}, 2);
      await saved('JVC', { owner: 'U2' }, 2);
      expect(await db.digests.create(digestOf('JLT'), { perChannel: 2 })).toEqual({ ok: false, reason: 'channel' });
      expect((await db.digests.create(digestOf('JLT', { channel: 'slack:T1:C2' }), { perChannel: 2 })).ok).toBe(true);
      await db.digests.remove(first.id);
      const again = await db.digests.create(digestOf('JLT'), { perChannel: 2 });
      expect(again.ok && again.row.number).toBe(3);
    });

    it('saved at once from two instances: distinct numbers 1..n, and never more than the channel may have', async () => {
      const other = (await db.connect?.()) ?? db;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? db : other).digests.create(digestOf(`Area ${i}`), { perChannel: 12 }),
        ),
      );
      if (other !== db) await other.close();
      const numbers = results.flatMap((r) => (r.ok ? [r.row.number] : [])).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(await db.digests.count()).toBe(12);
    });
  });

  describe('digests repository: reading and changing', () => {
    it('finds by number and id; lists by number', async () => {
      const a = await saved('Marina');
      const b = await saved('JVC');
      expect((await db.digests.listByChannel(CHANNEL)).map((r) => r.id)).toEqual([a.id, b.id]);
      expect(await db.digests.byNumber(CHANNEL, 2)).toEqual(b);
      expect(await db.digests.byNumber('slack:T2:C1', 2)).toBeUndefined();
      expect(await db.digests.byId(a.id)).toEqual(a);
      expect(await db.digests.byId(b.id + 1000)).toBeUndefined();
    });

    it('pauses keeping the next time, and resumes with the one given', async () => {
      const a = await saved('Marina');
      await db.digests.setPaused(a.id, true);
      expect(await db.digests.byId(a.id)).toMatchObject({ paused: true, nextRunAt: 100_000 });
      await db.digests.setPaused(a.id, false, 900_000);
      expect(await db.digests.byId(a.id)).toMatchObject({ paused: false, nextRunAt: 900_000 });
    });

    it('counts digests, of one service or all', async () => {
      await saved('Marina');
      await saved('JVC', { service: 'https://other.example' });
      expect(await db.digests.count()).toBe(2);
      expect(await db.digests.count(SERVICE)).toBe(1);
      expect(await db.digests.count('https://none.example')).toBe(0);
    });

    it('removing a digest takes its undelivered digests with it, not those posted nor other digests', async () => {
      const a = await saved('Marina');
      const b = await saved('JVC');
      await db.digests.recordRun(a.id, runAt(1_000, { delivery: posted(a.id, 1_000) }));
      await db.digests.recordRun(b.id, runAt(1_000, { delivery: posted(b.id, 1_000) }));
      const [entry] = await db.outbox.claimDue({
        holder: 'h',
        at: 10_000,
        leaseMs: 60_000,
        perChannel: 1,
        channels: 1,
        platforms: ['slack'],
      });
      expect(entry!.dedupeKey).toBe(digestKey(a.id, 1_000));
      expect(await db.outbox.markDelivered(entry!.id, entry!.token, 'm1', 10_001)).toBe(true);
      await db.digests.recordRun(a.id, runAt(2_000, { delivery: posted(a.id, 2_000) }));
      await db.digests.remove(a.id);
      expect(await db.digests.byId(a.id)).toBeUndefined();
      expect((await db.outbox.list()).map((e) => [e.dedupeKey, e.state])).toEqual([
        [digestKey(a.id, 1_000), 'delivered'],
        [digestKey(b.id, 1_000), 'pending'],
      ]);
    });
  });

  describe('digests repository: due', () => {
    it('gives the active digests of the service whose time has come, the longest-waiting first', async () => {
      const a = await saved('Marina', { nextRunAt: 3_000 });
      const b = await saved('JVC', { nextRunAt: 1_000 });
      const c = await saved('JLT', { nextRunAt: 3_000 });
      await saved('Later', { nextRunAt: 9_000 });
      const paused = await saved('Paused', { nextRunAt: 1_000 });
      await db.digests.setPaused(paused.id, true);
      await saved('Other', { nextRunAt: 1_000, service: 'https://other.example' });
      const held = await saved('Held', { nextRunAt: 1_000, channel: 'slack:T1:C2' });
      expect((await db.digests.due(SERVICE, 5_000)).map((r) => r.id)).toEqual([b.id, held.id, a.id, c.id]);
      await db.outbox.holdChannel(held.channel, 'channel archived', 1_000, 1_000_000);
      expect((await db.digests.due(SERVICE, 5_000)).map((r) => r.id)).toEqual([b.id, a.id, c.id]);
      expect((await db.digests.due(SERVICE, 2_000)).map((r) => r.id)).toEqual([b.id]);
    });

    it('gives one digest when asked for it, only while it is due (a job per digest on Postgres)', async () => {
      const a = await saved('Marina', { nextRunAt: 3_000 });
      await saved('JVC', { nextRunAt: 1_000 });
      expect((await db.digests.due(SERVICE, 5_000, a.id)).map((r) => r.id)).toEqual([a.id]);
      expect(await db.digests.due(SERVICE, 2_000, a.id)).toEqual([]);
      await db.digests.setPaused(a.id, true);
      expect(await db.digests.due(SERVICE, 5_000, a.id)).toEqual([]);
    });

    it('lists each due digest once as a part (grouped in SQL), the earliest due first; a held channel’s wait', async () => {
      const a = await saved('Marina', { nextRunAt: 3_000 });
      const b = await saved('JVC', { nextRunAt: 1_000 });
      const c = await saved('JLT', { nextRunAt: 2_000, channel: 'discord:G1:C1' });
      const later = await saved('Downtown', { nextRunAt: 9_000 });
      expect(await db.digests.dueParts(SERVICE, 5_000)).toEqual([b.id, c.id, a.id]);
      expect(await db.digests.dueParts(SERVICE, 5_000, { platforms: ['discord'] })).toEqual([c.id]);
      expect(await db.digests.dueParts('https://other.example', 5_000)).toEqual([]);
      expect(await db.outbox.holdChannel(CHANNEL, 'channel archived', 1_000, 99_000)).toBe(true);
      expect(await db.digests.dueParts(SERVICE, 10_000)).toEqual([c.id]);
      await db.outbox.releaseChannel(CHANNEL, 10_000);
      await db.digests.setPaused(b.id, true);
      expect(await db.digests.dueParts(SERVICE, 10_000)).toEqual([c.id, a.id, later.id]);
      expect((await db.digests.due(SERVICE, 10_000, later.id)).map((r) => r.id)).toEqual([later.id]);
    });
  });

  describe('digests repository: recording runs', () => {
    it('queues the digest of a slot once and moves on, under the fence; nothing under a stale one', async () => {
      const a = await saved('Marina');
      const { stale, current } = await fences();
      expect(await db.digests.recordRun(a.id, runAt(100_000, { delivery: posted(a.id, 100_000) }), stale)).toBe(false);
      expect(await db.outbox.list()).toEqual([]);
      expect(await db.digests.byId(a.id)).toMatchObject({ lastSlot: null, nextRunAt: 100_000 });

      expect(await db.digests.recordRun(a.id, runAt(100_000, { delivery: posted(a.id, 100_000) }), current)).toBe(true);
      expect(await db.digests.recordRun(a.id, runAt(100_000, { delivery: posted(a.id, 100_000) }), current)).toBe(true);
      const entries = await db.outbox.list();
      expect(entries.map((e) => [e.kind, e.dedupeKey, e.state, e.createdAt, e.nextAttemptAt])).toEqual([
        ['digest', digestKey(a.id, 100_000), 'pending', 100_005, 100_005],
      ]);
      expect(await db.digests.byId(a.id)).toMatchObject({
        lastSlot: 100_000,
        lastRunAt: 100_005,
        lastCalls: 3,
        nextRunAt: 86_500_000,
        lastError: null,
      });
    });

    it('records a run with nothing to post and its error, and a later run clears the error', async () => {
      const a = await saved('Marina');
      expect(await db.digests.recordRun(a.id, runAt(100_000, { error: 'every place failed' }))).toBe(true);
      expect(await db.outbox.list()).toEqual([]);
      expect(await db.digests.byId(a.id)).toMatchObject({ lastSlot: 100_000, lastError: 'every place failed' });
      await db.digests.recordRun(a.id, runAt(200_000));
      expect(await db.digests.byId(a.id)).toMatchObject({ lastSlot: 200_000, lastError: null });
    });

    it('records nothing for a digest removed meanwhile', async () => {
      const a = await saved('Marina');
      await db.digests.remove(a.id);
      expect(await db.digests.recordRun(a.id, runAt(100_000, { delivery: posted(a.id, 100_000) }))).toBe(true);
      expect(await db.outbox.list()).toEqual([]);
    });

    it('postpones with one notice per slot, under the fence; nothing under a stale one', async () => {
      const a = await saved('Marina');
      const { stale, current } = await fences();
      const notice: NewDelivery = {
        channel: CHANNEL,
        kind: 'notice',
        dedupeKey: `${digestKey(a.id, 100_000)}:postponed`,
        payload: '{}',
      };
      expect(await db.digests.postpone(a.id, 200_000, 'budget', notice, stale)).toBe(false);
      expect(await db.digests.byId(a.id)).toMatchObject({ nextRunAt: 100_000, lastError: null });
      expect(await db.digests.postpone(a.id, 200_000, 'b'.repeat(400), notice, current)).toBe(true);
      expect(await db.digests.postpone(a.id, 300_000, 'budget', notice, current)).toBe(true);
      expect(await db.digests.postpone(a.id, 400_000, 'budget', undefined)).toBe(true);
      expect((await db.outbox.list()).map((e) => e.dedupeKey)).toEqual([notice.dedupeKey]);
      const row = (await db.digests.byId(a.id))!;
      expect(row).toMatchObject({ nextRunAt: 400_000, lastError: 'budget', lastSlot: null });
      await db.digests.postpone(a.id, 500_000, 'b'.repeat(400), undefined);
      expect((await db.digests.byId(a.id))!.lastError).toBe('b'.repeat(300));
    });
  });
}
