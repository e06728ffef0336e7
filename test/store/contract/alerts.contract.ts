// The alerts repository's contract, through the ports only, so it runs the same on SQLite and on Postgres
// (the .test.ts file of the same name): what a person or the poller would notice of saved searches and what each has
// seen.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryWrites, ListingHistory } from '../../../src/store/index.js';
import type {
  ChannelPosted,
  NewDelivery,
  NewAlert,
  PostedQuery,
  RunOutcome,
  SeenUpdate,
} from '../../../src/store/index.js';
import type { LeaseRepo } from '../../../src/store/contracts/leases.js';
import type { OutboxRepo } from '../../../src/store/contracts/outbox.js';
import type { AlertsRepo } from '../../../src/store/contracts/alerts.js';
import { staleAndCurrent } from './fences.js';

export interface AlertsDatabase {
  alerts: AlertsRepo;
  outbox: OutboxRepo;
  leases: LeaseRepo;
  close(): Promise<void>;
  /** Another connection to the same database, as a second instance has (when the database has one). */
  connect?(): Promise<{ alerts: AlertsRepo; close(): Promise<void> }>;
}

const SERVICE = 'https://api.example';
const CHANNEL = 'slack:T1:C1';
const LIMITS = { perChannel: 25, perOwner: 50 };
const JOB = 'poller';

const search = (name: string, o: Partial<NewAlert> = {}): NewAlert => ({
  service: SERVICE,
  channel: CHANNEL,
  owner: 'U1',
  text: `rent ${name}`,
  query: JSON.stringify({ v: 1, name }),
  operation: 'search',
  paramsKey: `location=${name}`,
  summary: `Rent in ${name}`,
  ...o,
});

const listing = (propertyId: string, price: number | null, o: Partial<SeenUpdate> = {}): SeenUpdate => ({
  propertyId,
  price,
  locationKey: 'marina',
  bedrooms: '2',
  size: 1200,
  posted: false,
  ...o,
});

const card = (searchId: number, propertyId: string, channel = CHANNEL): NewDelivery => ({
  searchId,
  channel,
  kind: 'new',
  propertyId,
  dedupeKey: `${searchId}:new:${propertyId}`,
  payload: JSON.stringify({ propertyId }),
});

const run = (searchId: number, at: number, o: Partial<RunOutcome> = {}): RunOutcome => ({
  searchId,
  at,
  seen: [],
  deliveries: [],
  clearError: false,
  ...o,
});

export function alertsContract(open: () => Promise<AlertsDatabase>): void {
  let db: AlertsDatabase;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db.close();
  });

  async function saved(name: string, o: Partial<NewAlert> = {}, limits = LIMITS) {
    const result = await db.alerts.create(search(name, o), limits);
    if (!result.ok) throw new Error(`not saved: ${result.reason}`);
    return result.row;
  }

  const fences = () => staleAndCurrent(db.leases, JOB);

  describe('alerts repository: saving', () => {
    it('numbers from 1 in each channel, and never gives a number again there, even after every alert is removed', async () => {
      const [a, b, c] = [await saved('marina'), await saved('jvc'), await saved('jlt')];
      expect([a.number, b.number, c.number]).toEqual([1, 2, 3]);
      await db.alerts.remove(c.id);
      expect((await saved('downtown')).number).toBe(4);
      for (const row of await db.alerts.listByChannel(CHANNEL)) await db.alerts.remove(row.id);
      expect((await saved('marina')).number).toBe(5);
    });

    it("gives an edit's new alert the old one's number once it is removed, never one another alert holds", async () => {
      const [a, b] = [await saved('marina'), await saved('jvc')];
      const edited = await saved('jlt');
      expect(await db.alerts.renumber(edited.id, b.number)).toBe(false); // jvc holds 2
      await db.alerts.remove(a.id);
      expect(await db.alerts.renumber(edited.id, a.number)).toBe(true);
      expect((await db.alerts.byNumber(CHANNEL, 1))?.id).toBe(edited.id);
      expect((await db.alerts.listByChannel(CHANNEL)).map((r) => [r.number, r.id])).toEqual([
        [1, edited.id],
        [2, b.id],
      ]);
      // The numbering ahead is unchanged: the next alert is #4, 3 is never given to another.
      expect((await saved('downtown')).number).toBe(4);
      expect(await db.alerts.renumber(a.id, 3)).toBe(false); // removed
    });

    it("lists one person's alerts of one workspace, its channels' and their own, and none of another's or of another workspace", async () => {
      await saved('marina');
      await saved('jvc', { channel: 'slack:T1:C2' });
      await saved('jlt', { channel: 'slack:T1:@U1' });
      await saved('downtown', { owner: 'U2' });
      // Another workspace whose id starts the same, and one that differs only in case (SQLite's LIKE ignores it).
      await saved('palm', { channel: 'slack:T10:C1' });
      await saved('creek', { channel: 'slack:t1:C1' });
      expect((await db.alerts.listByOwner('slack:T1', 'U1')).map((r) => [r.channel, r.summary])).toEqual([
        ['slack:T1:@U1', 'Rent in jlt'],
        ['slack:T1:C1', 'Rent in marina'],
        ['slack:T1:C2', 'Rent in jvc'],
      ]);
      expect((await db.alerts.listByOwner('slack:T1', 'U2')).map((r) => r.summary)).toEqual(['Rent in downtown']);
      expect(await db.alerts.listByOwner('slack:T2', 'U1')).toEqual([]);
    });

    it('keeps separate numbers and lists for the same channel id in two workspaces', async () => {
      const other = 'slack:T2:C1';
      await saved('marina');
      await saved('jvc');
      const there = await saved('marina', { channel: other });
      expect(there.number).toBe(1);
      expect((await db.alerts.listByChannel(CHANNEL)).map((r) => r.summary)).toEqual(['Rent in marina', 'Rent in jvc']);
      expect((await db.alerts.listByChannel(other)).map((r) => [r.number, r.channel])).toEqual([[1, other]]);
      expect((await db.alerts.byNumber(other, 1))!.id).toBe(there.id);
      expect(await db.alerts.byNumber(other, 2)).toBeUndefined();
    });

    it('stores what it was given, unpaused, due now and not yet run', async () => {
      const before = Date.now();
      const row = await saved('marina');
      expect(row).toMatchObject({
        ...search('marina'),
        number: 1,
        paused: false,
        primedAt: null,
        lastRunAt: null,
        lastError: null,
        errorSince: null,
        errorReported: false,
      });
      expect(row.createdAt).toBeGreaterThanOrEqual(before);
      expect(row.nextRunAt).toBe(row.createdAt);
      expect(await db.alerts.byId(row.id)).toEqual(row);
      expect(await db.alerts.byId(row.id + 1000)).toBeUndefined();
    });

    it('refuses the same search saved again in a channel, with the alert that exists, before any limit', async () => {
      const first = await saved('marina');
      const again = await db.alerts.create(search('marina', { text: 'rent in marina please', owner: 'U2' }), {
        perChannel: 1,
        perOwner: 1,
      });
      expect(again).toEqual({ ok: false, reason: 'duplicate', existing: first });
      // Another place, or another property service, may save it.
      expect((await db.alerts.create(search('marina', { channel: 'slack:T1:C2' }), LIMITS)).ok).toBe(true);
      expect((await db.alerts.create(search('marina', { service: 'https://other.example' }), LIMITS)).ok).toBe(true);
      expect(await db.alerts.count()).toBe(3);
    });

    it("keeps an alert's words: the same query with other words is another alert, with the same words the same one", async () => {
      const words = JSON.stringify({ exclude: ['shared'], require: [], notBy: [] });
      const plain = await saved('marina');
      expect(plain.words).toBe('');
      const worded = await saved('marina', { words });
      expect(worded.words).toBe(words);
      expect((await db.alerts.byId(worded.id))!.words).toBe(words);
      // Both are one query: they share a part of a run (one fetch).
      expect(worded.paramsKey).toBe(plain.paramsKey);
      expect(await db.alerts.create(search('marina', { words }), LIMITS)).toEqual({
        ok: false,
        reason: 'duplicate',
        existing: worded,
      });
    });

    it('keeps to the per-channel limit, whoever saves, and takes one again after a removal', async () => {
      const limits = { perChannel: 2, perOwner: 10 };
      const first = await saved('marina', {}, limits);
      await saved('jvc', { owner: 'U2' }, limits);
      expect(await db.alerts.create(search('jlt', { owner: 'U3' }), limits)).toEqual({ ok: false, reason: 'channel' });
      expect((await db.alerts.create(search('jlt', { channel: 'slack:T1:C2', owner: 'U3' }), limits)).ok).toBe(true);
      await db.alerts.remove(first.id);
      const third = await db.alerts.create(search('jlt', { owner: 'U3' }), limits);
      expect(third.ok && third.row.number).toBe(3);
    });

    it('keeps to the per-owner limit across channels, while others can still save', async () => {
      const limits = { perChannel: 25, perOwner: 2 };
      await saved('marina', {}, limits);
      await saved('jvc', { channel: 'slack:T1:C2' }, limits);
      expect(await db.alerts.create(search('jlt', { channel: 'slack:T1:C3' }), limits)).toEqual({
        ok: false,
        reason: 'owner',
      });
      expect((await db.alerts.create(search('jlt', { channel: 'slack:T1:C3', owner: 'U2' }), limits)).ok).toBe(true);
    });

    it('saved at once from two instances: distinct numbers 1..n, and never more than the channel may have', async () => {
      const limits = { perChannel: 15, perOwner: 100 };
      const other = (await db.connect?.()) ?? db;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? db : other).alerts.create(search(`area${i}`, { owner: `U${i % 3}` }), limits),
        ),
      );
      if (other !== db) await other.close();
      const numbers = results.flatMap((r) => (r.ok ? [r.row.number] : [])).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(Array(5).fill('channel'));
      expect(await db.alerts.count()).toBe(15);
    });
  });

  describe('alerts repository: reading and changing', () => {
    it('lists a channel by number; pausing keeps the next run, resuming makes it due now', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      expect((await db.alerts.listByChannel(CHANNEL)).map((r) => r.id)).toEqual([a.id, b.id]);
      expect(await db.alerts.listByChannel('slack:T9:C9')).toEqual([]);
      await db.alerts.commitRun(run(a.id, a.createdAt + 60_000));
      await db.alerts.setPaused(a.id, true);
      // An instant alert's runs leave its next run as it was (it is due at every run): pausing keeps it too.
      expect(await db.alerts.byId(a.id)).toMatchObject({
        paused: true,
        lastRunAt: a.createdAt + 60_000,
        nextRunAt: a.nextRunAt,
      });
      const before = Date.now();
      await db.alerts.setPaused(a.id, false);
      const resumed = (await db.alerts.byId(a.id))!;
      expect(resumed.paused).toBe(false);
      expect(resumed.nextRunAt).toBeGreaterThanOrEqual(before);
    });

    it('removes a search with what it has seen and its entries in the outbox', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      await db.alerts.commitRun(
        run(a.id, 10, {
          seen: [listing('p1', 100, { reportedPrice: 100, posted: true })],
          deliveries: [card(a.id, 'p1')],
        }),
      );
      await db.alerts.commitRun(
        run(b.id, 10, {
          seen: [listing('p1', 100, { reportedPrice: 100, posted: true })],
          deliveries: [card(b.id, 'p1')],
        }),
      );
      await db.alerts.remove(a.id);
      expect(await db.alerts.byId(a.id)).toBeUndefined();
      expect(await db.alerts.seen(a.id)).toEqual([]);
      expect((await db.outbox.list()).map((e) => e.searchId)).toEqual([b.id]);
      expect(await db.alerts.seen(b.id)).toHaveLength(1);
      await db.alerts.remove(a.id); // again: nothing
    });

    it('counts searches, of a service, and those of other services in all channels or one', async () => {
      await saved('marina');
      await saved('jvc', { service: 'https://other.example' });
      await saved('jlt', { service: 'https://other.example', channel: 'slack:T1:C2' });
      expect(await db.alerts.count()).toBe(3);
      expect(await db.alerts.count(SERVICE)).toBe(1);
      expect(await db.alerts.count('https://none.example')).toBe(0);
      expect(await db.alerts.countElsewhere(SERVICE)).toBe(2);
      expect(await db.alerts.countElsewhere(SERVICE, CHANNEL)).toBe(1);
      expect(await db.alerts.countElsewhere('https://other.example')).toBe(1);
    });

    it('lists the searches not paused, of every service and channel, in the order saved', async () => {
      const a = await saved('marina');
      const b = await saved('jvc', { service: 'https://other.example', channel: 'slack:T1:C2' });
      const c = await saved('jlt');
      await db.alerts.setPaused(c.id, true);
      // Not yet due is still active.
      await db.alerts.commitRun(run(a.id, Date.now() + 3_600_000));
      expect((await db.alerts.active()).map((r) => r.id)).toEqual([a.id, b.id]);
      await db.alerts.setPaused(c.id, false);
      expect((await db.alerts.active()).map((r) => r.id)).toEqual([a.id, b.id, c.id]);
    });
  });

  describe('alerts repository: due', () => {
    it('gives the active searches of the service whose turn has come, the longest-waiting first', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      const c = await saved('jlt');
      const d = await saved('downtown');
      const late = Date.now() + 3_600_000;
      const t = Date.now() + 60_000;
      // Never run first (by id), then by last run.
      await db.alerts.commitRun(run(a.id, t + 2_000));
      await db.alerts.commitRun(run(c.id, t + 1_000));
      expect((await db.alerts.due(SERVICE, late)).map((r) => r.id)).toEqual([b.id, d.id, c.id, a.id]);
      // Not yet due: run since the time asked.
      await db.alerts.commitRun(run(d.id, late + 1));
      expect((await db.alerts.due(SERVICE, late)).map((r) => r.id)).toEqual([b.id, c.id, a.id]);
      expect((await db.alerts.due(SERVICE, t + 1_500)).map((r) => r.id)).toEqual([b.id, c.id]);
      // Nor before it was made.
      expect(await db.alerts.due(SERVICE, 1_500)).toEqual([]);
    });

    it('leaves out paused searches, those of a held channel and those of another service', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      const held = await saved('marina', { channel: 'slack:T1:C2' });
      const other = await saved('marina', { service: 'https://other.example' });
      const late = Date.now() + 3_600_000;
      expect((await db.alerts.due(SERVICE, late)).map((r) => r.id)).toEqual([a.id, b.id, held.id]);
      await db.alerts.setPaused(b.id, true);
      expect(await db.outbox.holdChannel(held.channel, 'channel archived', 1_000, late * 2)).toBe(true);
      expect((await db.alerts.due(SERVICE, late)).map((r) => r.id)).toEqual([a.id]);
      expect((await db.alerts.due('https://other.example', late)).map((r) => r.id)).toEqual([other.id]);
      await db.outbox.releaseChannel(held.channel, late);
      expect((await db.alerts.due(SERVICE, late)).map((r) => r.id)).toEqual([a.id, held.id]);
    });

    it('gives only one query’s searches when asked for it (a job per query on Postgres)', async () => {
      const a = await saved('marina');
      await saved('jvc');
      const c = await saved('marina', { channel: 'slack:T1:C2' });
      const late = Date.now() + 3_600_000;
      expect((await db.alerts.due(SERVICE, late, 'location=marina')).map((r) => r.id)).toEqual([a.id, c.id]);
      await db.alerts.commitRun(run(a.id, late + 1));
      expect((await db.alerts.due(SERVICE, late, 'location=marina')).map((r) => r.id)).toEqual([c.id]);
      expect(await db.alerts.due(SERVICE, late, 'location=nowhere')).toEqual([]);
    });

    it('gives a batch of queries’ searches in one read, the longest-waiting first (a job of a run)', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      await saved('jlt');
      const late = Date.now() + 3_600_000;
      await db.alerts.commitRun(run(a.id, 10));
      const batch = await db.alerts.due(SERVICE, late, ['location=marina', 'location=jvc']);
      expect(batch.map((r) => r.id)).toEqual([b.id, a.id]);
      expect(await db.alerts.due(SERVICE, late, [])).toEqual([]);
    });
  });

  describe('alerts repository: the due scan grouped in SQL', () => {
    it('lists each due query once, the query with the longest-waiting search first', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      const c = await saved('marina', { channel: 'slack:T1:C2' });
      const d = await saved('jlt');
      const late = Date.now() + 3_600_000;
      const t = Date.now() + 60_000;
      // jvc never ran; marina's oldest search ran at t + 1,000 (its other at t + 3,000); jlt at t + 2,000.
      await db.alerts.commitRun(run(a.id, t + 3_000));
      await db.alerts.commitRun(run(c.id, t + 1_000));
      await db.alerts.commitRun(run(d.id, t + 2_000));
      expect(await db.alerts.dueParts(SERVICE, late)).toEqual(['location=jvc', 'location=marina', 'location=jlt']);
      // Only what is due at the time asked: jvc, and marina's search run at t + 1,000 alone.
      expect(await db.alerts.dueParts(SERVICE, t + 1_500)).toEqual(['location=jvc', 'location=marina']);
      expect((await db.alerts.due(SERVICE, t + 1_500, 'location=marina')).map((r) => r.id)).toEqual([c.id]);
      await db.alerts.setPaused(b.id, true);
      expect(await db.alerts.dueParts(SERVICE, late)).toEqual(['location=marina', 'location=jlt']);
      expect(await db.alerts.dueParts('https://other.example', late)).toEqual([]);
    });

    it('lists only the queries of deliverable platforms, and a held channel’s searches wait with it', async () => {
      const slack = await saved('marina');
      const discord = await saved('jvc', { channel: 'discord:G1:C1' });
      // A target merely starting like a platform's name is not on it.
      await saved('jlt', { channel: 'slackish:T1:C1' });
      const late = Date.now() + 3_600_000;
      expect(await db.alerts.dueParts(SERVICE, late, { platforms: ['slack'] })).toEqual(['location=marina']);
      expect(await db.alerts.dueParts(SERVICE, late, { platforms: ['discord', 'slack'] })).toEqual([
        'location=marina',
        'location=jvc',
      ]);
      expect(await db.alerts.dueParts(SERVICE, late, { platforms: [] })).toEqual([]);
      expect((await db.alerts.due(SERVICE, late, undefined, { platforms: ['discord'] })).map((r) => r.id)).toEqual([
        discord.id,
      ]);
      expect(await db.outbox.holdChannel(slack.channel, 'channel archived', 1_000, late * 2)).toBe(true);
      expect(await db.alerts.dueParts(SERVICE, late, { platforms: ['discord', 'slack'] })).toEqual(['location=jvc']);
      expect(await db.alerts.due(SERVICE, late, 'location=marina')).toEqual([]);
      await db.outbox.releaseChannel(slack.channel, late);
      expect(await db.alerts.dueParts(SERVICE, late, { platforms: ['slack'] })).toEqual(['location=marina']);
    });

    it('keeps each kind to its own: a digest is no alert, and an alert’s schedule is every run', async () => {
      const a = await saved('marina');
      expect(a).toMatchObject({ kind: 'alert', schedule: JSON.stringify({ every: 'run' }), pausedReason: null });
      await db.alerts.setPaused(a.id, true, undefined, 'asks for what no listing can be');
      expect(await db.alerts.byId(a.id)).toMatchObject({
        paused: true,
        pausedReason: 'asks for what no listing can be',
      });
      await db.alerts.setPaused(a.id, false);
      expect(await db.alerts.byId(a.id)).toMatchObject({ paused: false, pausedReason: null });
    });
  });

  describe('alerts repository: failures', () => {
    it('keeps the error and since when, and records nothing under a stale fence', async () => {
      const a = await saved('marina');
      const { stale, current } = await fences();
      const first = await db.alerts.recordFailure(a.id, 'x'.repeat(600), 10_000, current);
      expect(first).toMatchObject({
        id: a.id,
        lastError: 'x'.repeat(500),
        errorSince: 10_000,
        lastRunAt: 10_000,
        nextRunAt: 10_000,
      });
      const second = await db.alerts.recordFailure(a.id, 'down', 20_000);
      expect(second).toMatchObject({ lastError: 'down', errorSince: 10_000, lastRunAt: 20_000 });
      expect(await db.alerts.recordFailure(a.id, 'late', 30_000, stale)).toBeUndefined();
      expect(await db.alerts.byId(a.id)).toMatchObject({ lastError: 'down', lastRunAt: 20_000 });
      expect(await db.alerts.recordFailure(a.id + 1000, 'gone', 30_000)).toBeUndefined();
    });

    it('queues the "keeps failing" notice once, and nothing under a stale fence', async () => {
      const a = await saved('marina');
      const { stale, current } = await fences();
      const notice: NewDelivery = {
        searchId: a.id,
        channel: CHANNEL,
        kind: 'failing',
        dedupeKey: `${a.id}:failing:10000`,
        payload: '{}',
      };
      await db.alerts.reportFailing(a.id, { ...notice, dedupeKey: 'stale' }, stale);
      expect(await db.outbox.list()).toEqual([]);
      expect((await db.alerts.byId(a.id))!.errorReported).toBe(false);
      await db.alerts.reportFailing(a.id, notice, current);
      await db.alerts.reportFailing(a.id, notice, current);
      expect((await db.outbox.list()).map((e) => [e.kind, e.dedupeKey, e.state])).toEqual([
        ['failing', notice.dedupeKey, 'pending'],
      ]);
      expect((await db.alerts.byId(a.id))!.errorReported).toBe(true);
      // A run that clears the error forgets it was reported.
      await db.alerts.recordFailure(a.id, 'down', 10_000);
      await db.alerts.commitRun(run(a.id, 20_000, { clearError: true }));
      expect(await db.alerts.byId(a.id)).toMatchObject({
        lastError: null,
        errorSince: null,
        errorReported: false,
        lastRunAt: 20_000,
      });
    });
  });

  describe('alerts repository: recording runs', () => {
    it('reads what several searches have seen in one call, each its own, none for a search that saw nothing', async () => {
      const [a, b, c] = [await saved('marina'), await saved('jvc'), await saved('jlt')];
      const { current } = await fences();
      await db.alerts.commitRun(run(a.id, 1_000, { seen: [listing('p1', 100), listing('p2', 200)] }), current);
      await db.alerts.commitRun(run(b.id, 1_000, { seen: [listing('p2', 200)] }), current);
      const seen = await db.alerts.seenBy([a.id, b.id, c.id]);
      expect([...seen.keys()]).toEqual([a.id, b.id, c.id]);
      expect(seen.get(a.id)).toEqual(await db.alerts.seen(a.id));
      expect(seen.get(b.id)!.map((r) => [r.searchId, r.propertyId])).toEqual([[b.id, 'p2']]);
      expect(seen.get(c.id)).toEqual([]);
      expect((await db.alerts.seenBy([])).size).toBe(0);
    });

    it('writes the seen rows, queues the deliveries and primes the search, in one call', async () => {
      const a = await saved('marina');
      const { current } = await fences();
      const queued = await db.alerts.commitRun(
        run(a.id, 50_000, {
          primed: true,
          seen: [
            listing('p1', 100, { reportedPrice: 100, posted: true }),
            listing('p2', null, { reportedPrice: null, locationKey: null, bedrooms: null, size: null }),
          ],
          deliveries: [card(a.id, 'p1')],
        }),
        current,
      );
      expect(queued).toBe(1);
      expect(await db.alerts.seen(a.id)).toEqual([
        {
          searchId: a.id,
          propertyId: 'p1',
          firstSeenAt: 50_000,
          lastSeenAt: 50_000,
          lastPrice: 100,
          reportedPrice: 100,
          locationKey: 'marina',
          bedrooms: '2',
          size: 1200,
          posted: true,
          missed: 0,
        },
        {
          searchId: a.id,
          propertyId: 'p2',
          firstSeenAt: 50_000,
          lastSeenAt: 50_000,
          lastPrice: null,
          reportedPrice: null,
          locationKey: null,
          bedrooms: null,
          size: null,
          posted: false,
          missed: 0,
        },
      ]);
      const [entry] = await db.outbox.list();
      expect(entry).toMatchObject({
        searchId: a.id,
        channel: CHANNEL,
        kind: 'new',
        propertyId: 'p1',
        dedupeKey: `${a.id}:new:p1`,
        state: 'pending',
        maybeDelivered: false,
        uncertainSince: null,
      });
      // An instant alert's next run is left as it was: it is due at every run, its last run says when it ran.
      expect(await db.alerts.byId(a.id)).toMatchObject({ primedAt: 50_000, lastRunAt: 50_000, nextRunAt: a.nextRunAt });
      // A later run does not prime again.
      await db.alerts.commitRun(run(a.id, 60_000));
      expect(await db.alerts.byId(a.id)).toMatchObject({ primedAt: 50_000, lastRunAt: 60_000 });
    });

    it('queues each fact once: the same delivery again is not queued, and not counted', async () => {
      const a = await saved('marina');
      expect(await db.alerts.commitRun(run(a.id, 1_000, { deliveries: [card(a.id, 'p1'), card(a.id, 'p2')] }))).toBe(2);
      expect(await db.alerts.commitRun(run(a.id, 2_000, { deliveries: [card(a.id, 'p2'), card(a.id, 'p3')] }))).toBe(1);
      expect((await db.outbox.list()).map((e) => e.propertyId)).toEqual(['p1', 'p2', 'p3']);
    });

    it('keeps the reported price unless a new one is given; a posted listing stays posted', async () => {
      const a = await saved('marina');
      await db.alerts.commitRun(
        run(a.id, 1_000, {
          seen: [listing('p1', 100, { reportedPrice: 100, posted: true }), listing('p2', 200, { reportedPrice: 200 })],
        }),
      );
      await db.alerts.commitRun(
        run(a.id, 2_000, { seen: [listing('p1', 99), listing('p2', 150, { reportedPrice: 150, posted: true })] }),
      );
      await db.alerts.commitRun(run(a.id, 3_000, { seen: [listing('p1', 98)] }));
      const rows = await db.alerts.seen(a.id);
      expect(
        rows.map((r) => [r.propertyId, r.firstSeenAt, r.lastSeenAt, r.lastPrice, r.reportedPrice, r.posted]),
      ).toEqual([
        ['p1', 1_000, 3_000, 98, 100, true],
        ['p2', 1_000, 2_000, 150, 150, true],
      ]);
    });

    it('a listing first recorded without a reported price gets its price as the reported one', async () => {
      const a = await saved('marina');
      await db.alerts.commitRun(run(a.id, 1_000, { seen: [listing('p1', 100)] }));
      await db.alerts.commitRun(run(a.id, 2_000, { seen: [listing('p1', 90)] }));
      expect((await db.alerts.seen(a.id)).map((r) => [r.lastPrice, r.reportedPrice])).toEqual([[90, 100]]);
    });

    it('the same listing twice in one run is written twice, in order', async () => {
      const a = await saved('marina');
      await db.alerts.commitRun(
        run(a.id, 1_000, { seen: [listing('p1', 100, { reportedPrice: 100, posted: true }), listing('p1', 90)] }),
      );
      expect((await db.alerts.seen(a.id)).map((r) => [r.lastPrice, r.reportedPrice, r.posted])).toEqual([
        [90, 100, true],
      ]);
    });

    it('records nothing under a stale fence', async () => {
      const a = await saved('marina');
      const { stale } = await fences();
      expect(
        await db.alerts.commitRun(
          run(a.id, 1_000, {
            primed: true,
            seen: [listing('p1', 100, { reportedPrice: 100 })],
            deliveries: [card(a.id, 'p1')],
          }),
          stale,
        ),
      ).toBeUndefined();
      expect(await db.alerts.commitRuns([run(a.id, 1_000, { seen: [listing('p1', 100)] })], stale)).toBeUndefined();
      expect(await db.alerts.seen(a.id)).toEqual([]);
      expect(await db.outbox.list()).toEqual([]);
      expect(await db.alerts.byId(a.id)).toMatchObject({ primedAt: null, lastRunAt: null });
    });

    it('records nothing for a search removed meanwhile, and the rest of the runs all the same', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      await db.alerts.remove(a.id);
      const queued = await db.alerts.commitRuns([
        run(a.id, 1_000, { seen: [listing('p1', 100, { reportedPrice: 100 })], deliveries: [card(a.id, 'p1')] }),
        run(b.id, 1_000, { seen: [listing('p1', 100, { reportedPrice: 100 })], deliveries: [card(b.id, 'p1')] }),
      ]);
      expect(queued).toBe(1);
      expect(await db.alerts.seen(a.id)).toEqual([]);
      expect((await db.outbox.list()).map((e) => e.searchId)).toEqual([b.id]);
      expect(await db.alerts.commitRun(run(a.id, 2_000, { deliveries: [card(a.id, 'p2')] }))).toBe(0);
    });

    it('marks seen now what a run writes or refreshes, for the searches of the run only, never back in time', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      const c = await saved('jlt');
      for (const s of [a, b, c])
        await db.alerts.commitRun(
          run(s.id, 1_000, { seen: ['p1', 'p2', 'p3'].map((p) => listing(p, 100, { reportedPrice: 100 })) }),
        );
      await db.alerts.commitRun(run(b.id, 9_000, { seen: [listing('p3', 100, { reportedPrice: 100 })] }));
      await db.alerts.commitRuns([
        run(a.id, 5_000, { seen: [listing('p2', 90)], refreshed: ['p1', 'p4'] }),
        run(b.id, 5_000, { refreshed: ['p1', 'p2', 'p3'] }),
      ]);
      const lastSeen = async (id: number) => (await db.alerts.seen(id)).map((r) => [r.propertyId, r.lastSeenAt]);
      // p3 was listed unchanged and needs no refresh: its row is not written (SeenRow.lastSeenAt).
      expect(await lastSeen(a.id)).toEqual([
        ['p1', 5_000],
        ['p2', 5_000],
        ['p3', 1_000],
      ]);
      // Never back in time.
      expect(await lastSeen(b.id)).toEqual([
        ['p1', 5_000],
        ['p2', 5_000],
        ['p3', 9_000],
      ]);
      expect(await lastSeen(c.id)).toEqual([
        ['p1', 1_000],
        ['p2', 1_000],
        ['p3', 1_000],
      ]);
      expect(await db.alerts.commitRuns([])).toBe(0);
    });

    it('records a run of a thousand listings whole', async () => {
      const a = await saved('marina');
      const ids = Array.from({ length: 1_200 }, (_, i) => `p${String(i).padStart(4, '0')}`);
      const first = ids.map((p, i) => listing(p, 1_000 + i, { reportedPrice: 1_000 + i, posted: i % 2 === 0 }));
      expect(
        await db.alerts.commitRun(
          run(a.id, 1_000, { seen: first, deliveries: ids.slice(0, 30).map((p) => card(a.id, p)) }),
        ),
      ).toBe(30);
      // Half repriced keeping the reported price, half with a new one.
      const second = ids.map((p, i) => listing(p, 500 + i, i % 2 === 0 ? {} : { reportedPrice: 500 + i }));
      await db.alerts.commitRuns([run(a.id, 2_000, { seen: second })]);
      const rows = await db.alerts.seen(a.id);
      expect(rows).toHaveLength(1_200);
      expect(
        rows.every(
          (r, i) =>
            r.propertyId === ids[i] &&
            r.lastPrice === 500 + i &&
            r.reportedPrice === (i % 2 === 0 ? 1_000 + i : 500 + i),
        ),
      ).toBe(true);
      expect(
        rows.every((r, i) => r.posted === (i % 2 === 0) && r.firstSeenAt === 1_000 && r.lastSeenAt === 2_000),
      ).toBe(true);
    });

    it('says when a query was last polled successfully: the newest run of any search of it, in that service only', async () => {
      const key = 'location=marina';
      expect(await db.alerts.lastPolled(SERVICE, key)).toBeUndefined();
      const [a, b] = [await saved('marina'), await saved('marina', { channel: 'slack:T1:C2' })];
      await saved('marina', { service: 'https://other.example', channel: 'slack:T1:C3' });
      expect(await db.alerts.lastPolled(SERVICE, key)).toBeUndefined();
      await db.alerts.commitRun(run(a.id, 5_000));
      await db.alerts.commitRun(run(b.id, 7_000));
      expect(await db.alerts.lastPolled(SERVICE, key)).toBe(7_000);
      expect(await db.alerts.lastPolled(SERVICE, 'location=jvc')).toBeUndefined();
      expect(await db.alerts.lastPolled('https://other.example', key)).toBeUndefined();
      // A run that failed read nothing: it is not a poll the answers must follow.
      await db.alerts.recordFailure(b.id, 'down', 9_000);
      expect(await db.alerts.lastPolled(SERVICE, key)).toBe(5_000);
      await db.alerts.commitRun(run(b.id, 11_000, { clearError: true }));
      expect(await db.alerts.lastPolled(SERVICE, key)).toBe(11_000);
    });
  });

  describe('alerts repository: what a channel was posted (one listing once per channel)', () => {
    const query = (o: Partial<PostedQuery> = {}): PostedQuery => ({
      service: SERVICE,
      channels: [CHANNEL],
      propertyIds: ['p1'],
      locationKeys: ['jvc'],
      ...o,
    });
    const row = (propertyId: string, o: Partial<ChannelPosted> = {}): ChannelPosted => ({
      service: SERVICE,
      channel: CHANNEL,
      propertyId,
      locationKey: 'marina',
      bedrooms: '2',
      size: 1200,
      lastPrice: null,
      reportedPrice: null,
      messageRef: null,
      ...o,
    });

    it('gives one row per listing the channel was posted, of these listings or locations, at the lowest price it was told; not unposted ones, other channels or services', async () => {
      const [a, b] = [await saved('marina'), await saved('jvc')];
      const elsewhere = await saved('marina', { channel: 'slack:T1:C2' });
      const otherService = await saved('marina', { service: 'https://other.example' });
      await db.alerts.commitRuns([
        run(b.id, 1_000, {
          seen: [
            listing('p1', 900, { reportedPrice: 800, posted: true }),
            listing('p9', 700, { locationKey: 'jvc', posted: true }),
            listing('p8', 1, { posted: true }),
          ],
        }),
        run(a.id, 1_000, {
          seen: [listing('p1', 950, { posted: true }), listing('p2', 1, { locationKey: 'jvc' })],
        }),
        run(elsewhere.id, 1_000, { seen: [listing('p1', 1, { posted: true })] }),
        run(otherService.id, 1_000, { seen: [listing('p1', 1, { posted: true })] }),
      ]);
      // p1 posted by both alerts: one row, the price last read, the lowest told; p9 by its location; p8 not asked for.
      const expected = [
        row('p1', { lastPrice: 950, reportedPrice: 800 }),
        row('p9', { locationKey: 'jvc', lastPrice: 700, reportedPrice: 700 }),
      ];
      expect(await db.alerts.postedIn(query())).toEqual(expected);
      expect(await db.alerts.postedIn(query({ channels: [] }))).toEqual([]);
      expect(await db.alerts.postedIn(query({ propertyIds: [], locationKeys: [] }))).toEqual([]);
      expect(await db.alerts.postedIn(query({ channels: ['slack:T1:C2'] }))).toEqual([
        row('p1', { channel: 'slack:T1:C2', lastPrice: 1, reportedPrice: 1 }),
      ]);
      // What a post names: each alert that matched it, by number.
      const alert = (r: ChannelPosted, s: { id: number; number: number; summary: string }) => ({
        ...r,
        searchId: s.id,
        number: s.number,
        summary: s.summary,
      });
      expect(await db.alerts.postedAlerts(query())).toEqual([
        alert(expected[0]!, a),
        alert(expected[0]!, b),
        alert(expected[1]!, b),
      ]);
      // A plan is given the same rows, read in its transaction, and what it returns is recorded.
      let given: unknown;
      const queued = await db.alerts.commitPlanned({
        ...query(),
        outcomes: (posted) => {
          given = posted;
          return [
            run(a.id, 2_000, {
              seen: [listing('p9', 650, { locationKey: 'jvc', reportedPrice: 650, posted: true })],
              deliveries: [card(a.id, 'p9')],
            }),
          ];
        },
      });
      expect(given).toEqual(expected);
      expect(queued).toBe(1);
      expect((await db.alerts.postedIn(query({ propertyIds: ['p9'] })))[0]).toEqual(
        row('p9', { locationKey: 'jvc', lastPrice: 650, reportedPrice: 650 }),
      );
      expect(
        (await db.alerts.postedAlerts(query({ propertyIds: ['p9'] }))).map((r) => [r.propertyId, r.searchId]),
      ).toEqual([
        ['p9', a.id],
        ['p9', b.id],
      ]);
    });

    it('keeps a listing for as long as one of the alerts that posted it is there, and its told price with it', async () => {
      const [a, b, c] = [await saved('marina'), await saved('jvc'), await saved('jlt')];
      await db.alerts.commitRun(run(a.id, 1_000, { seen: [listing('p1', 900, { reportedPrice: 800, posted: true })] }));
      await db.alerts.commitRun(run(b.id, 1_000, { seen: [listing('p1', 900, { posted: true })] }));
      // A repriced listing, not posted again, moves the fingerprint; the price the channel was told stays the lowest.
      await db.alerts.commitRun(run(b.id, 2_000, { seen: [listing('p1', 1_000, { posted: false })] }));
      expect(await db.alerts.postedIn(query())).toEqual([row('p1', { lastPrice: 1_000, reportedPrice: 800 })]);
      await db.alerts.remove(a.id);
      expect((await db.alerts.postedAlerts(query())).map((r) => r.searchId)).toEqual([b.id]);
      expect(await db.alerts.postedIn(query())).toEqual([row('p1', { lastPrice: 1_000, reportedPrice: 800 })]);
      await db.alerts.remove(b.id);
      expect(await db.alerts.postedIn(query())).toEqual([]);
      expect(await db.alerts.postedAlerts(query())).toEqual([]);
      // Posted again by another alert, it starts from what that one told, not from the gone alerts' price.
      await db.alerts.commitRun(
        run(c.id, 3_000, { seen: [listing('p1', 1_200, { reportedPrice: 1_200, posted: true })] }),
      );
      expect(await db.alerts.postedIn(query())).toEqual([row('p1', { lastPrice: 1_200, reportedPrice: 1_200 })]);
    });

    it('records nothing, and asks no plan, under a stale fence', async () => {
      const a = await saved('marina');
      const { stale } = await fences();
      let asked = false;
      const plan = {
        ...query(),
        outcomes: () => ((asked = true), [run(a.id, 1_000, { seen: [listing('p1', 1, { posted: true })] })]),
      };
      expect(await db.alerts.commitPlanned(plan, stale)).toBeUndefined();
      expect(asked).toBe(false);
      expect(await db.alerts.seen(a.id)).toEqual([]);
    });

    it('commits a batch of queries in one transaction, each deciding from what the earlier ones posted in its channel', async () => {
      const [a, b] = [await saved('marina'), await saved('jvc')];
      // Two queries of one batch that both found p1, in one channel: the second is given the first's posted row and
      // posts nothing (as planGroup decides), so the channel gets p1 once.
      const given: (readonly ChannelPosted[])[] = [];
      const planOf = (id: number) => ({
        plan: {
          ...query({ locationKeys: [] }),
          outcomes: (posted: readonly ChannelPosted[]) => {
            given.push(posted);
            const first = !posted.some((p) => p.propertyId === 'p1');
            return [
              run(id, 2_000, {
                seen: [listing('p1', 500, { reportedPrice: 500, posted: first })],
                deliveries: first ? [card(id, 'p1')] : [],
              }),
            ];
          },
        },
        read: ['p1'],
      });
      expect(await db.alerts.commitMany([planOf(a.id), planOf(b.id)])).toEqual([1, 0]);
      expect(given.at(-1)!.map((p) => p.propertyId)).toEqual(['p1']);
      expect((await db.outbox.list()).map((e) => e.searchId)).toEqual([a.id]);
      expect((await db.alerts.postedAlerts(query())).map((r) => r.searchId)).toEqual([a.id]);
      expect((await db.alerts.seen(b.id)).map((r) => [r.propertyId, r.posted])).toEqual([['p1', false]]);
    });

    it('records nothing of a batch, and asks none of its plans, under a stale fence', async () => {
      const [a, b] = [await saved('marina'), await saved('jvc')];
      const { stale, current } = await fences();
      let asked = 0;
      const planOf = (id: number) => ({
        plan: {
          ...query(),
          outcomes: () => (
            asked++,
            [run(id, 1_000, { seen: [listing('p1', 1, { posted: true })], deliveries: [card(id, 'p1')] })]
          ),
        },
        read: ['p1'],
      });
      expect(await db.alerts.commitMany([planOf(a.id), planOf(b.id)], stale)).toBeUndefined();
      expect(asked).toBe(0);
      for (const s of [a, b]) expect(await db.alerts.seen(s.id)).toEqual([]);
      expect(await db.outbox.list()).toEqual([]);
      expect(await db.alerts.postedIn(query())).toEqual([]);
      // The fence that holds commits it.
      expect(await db.alerts.commitMany([planOf(a.id)], current)).toEqual([1]);
    });
  });

  describe("alerts repository: a listing's life story", () => {
    const story = (propertyId: string, at: number, o: Partial<ListingHistory> = {}): ListingHistory => ({
      service: SERVICE,
      propertyId,
      firstSeenAt: at,
      lastSeenAt: at,
      lastPrice: 100,
      prices: JSON.stringify([[at, 100]]),
      goneSince: null,
      timesBack: 0,
      backAt: null,
      awayMs: null,
      title: `Flat ${propertyId}`,
      ...o,
    });
    /** A query's plan that writes these stories, and is given the ones it asks for. */
    const planWith = (id: number, ids: string[], writes: (given: readonly ListingHistory[]) => HistoryWrites) => {
      let given: readonly ListingHistory[] = [];
      return {
        plan: {
          service: SERVICE,
          channels: [CHANNEL],
          propertyIds: ids,
          locationKeys: [],
          outcomes: (_posted: unknown, history: readonly ListingHistory[] = []) => (
            (given = history),
            [run(id, 2_000)]
          ),
          history: { ids, writes: () => writes(given) },
        },
      };
    };

    it('keeps one story per listing, written in the run, read by key; seen moves the last sight, gone only once', async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      await db.alerts.commitMany([
        planWith(a.id, ['p1', 'p2'], () => ({
          at: 1_000,
          rows: [story('p1', 1_000), story('p2', 1_000)],
          seen: [],
          gone: [],
        })),
      ]);
      // A second query of the batch is given what the first wrote, and moves p1's last sight, finds p2 gone.
      let seenByB: readonly ListingHistory[] = [];
      await db.alerts.commitMany([
        planWith(
          b.id,
          ['p1', 'p2', 'p3'],
          (given) => ((seenByB = given), { at: 5_000, rows: [], seen: ['p1'], gone: ['p2'] }),
        ),
      ]);
      expect(seenByB.map((h) => h.propertyId)).toEqual(['p1', 'p2']);
      const rows = await db.alerts.history(SERVICE, ['p2', 'p1', 'p9']);
      expect(rows.map((h) => [h.propertyId, h.lastSeenAt, h.goneSince])).toEqual([
        ['p1', 5_000, null],
        ['p2', 1_000, 5_000],
      ]);
      expect(await db.alerts.history('https://other.example', ['p1'])).toEqual([]);
      // Gone already: a later run does not move when it went.
      await db.alerts.commitMany([planWith(a.id, ['p2'], () => ({ at: 9_000, rows: [], seen: [], gone: ['p2'] }))]);
      expect((await db.alerts.history(SERVICE, ['p2']))[0]!.goneSince).toBe(5_000);
      // Written whole: back, at another price; the first sight never moves later.
      const back = story('p2', 12_000, {
        firstSeenAt: 12_000,
        timesBack: 1,
        backAt: 12_000,
        awayMs: 11_000,
        lastPrice: 90,
      });
      await db.alerts.commitMany([planWith(a.id, ['p2'], () => ({ at: 12_000, rows: [back], seen: [], gone: [] }))]);
      expect((await db.alerts.history(SERVICE, ['p2']))[0]).toMatchObject({
        firstSeenAt: 1_000,
        lastSeenAt: 12_000,
        goneSince: null,
        timesBack: 1,
        lastPrice: 90,
      });
    });

    it("gives a batch's later query the stories its earlier queries wrote, new, seen and gone, as they will stand", async () => {
      const a = await saved('marina');
      const b = await saved('jvc');
      await db.alerts.commitMany([
        planWith(a.id, ['p1', 'p2'], () => ({
          at: 1_000,
          rows: [story('p1', 1_000), story('p2', 1_000)],
          seen: [],
          gone: [],
        })),
      ]);
      let givenToB: readonly ListingHistory[] = [];
      await db.alerts.commitMany([
        // The first query sees p3 for the first time, p1 again, and finds p2 gone.
        planWith(a.id, ['p1', 'p2', 'p3'], () => ({
          at: 4_000,
          rows: [story('p3', 4_000)],
          seen: ['p1'],
          gone: ['p2'],
        })),
        // The second is given all three as the first left them, and reprices p3.
        planWith(
          b.id,
          ['p3', 'p2', 'p1', 'p9'],
          (given) => (
            (givenToB = given),
            { at: 6_000, rows: [story('p3', 6_000, { firstSeenAt: 6_000, lastPrice: 80 })], seen: [], gone: [] }
          ),
        ),
      ]);
      expect(givenToB.map((h) => [h.propertyId, h.lastSeenAt, h.goneSince])).toEqual([
        ['p1', 4_000, null],
        ['p2', 1_000, 4_000],
        ['p3', 4_000, null],
      ]);
      const stored = await db.alerts.history(SERVICE, ['p1', 'p2', 'p3']);
      expect(stored.map((h) => [h.propertyId, h.firstSeenAt, h.lastSeenAt, h.goneSince, h.lastPrice])).toEqual([
        ['p1', 1_000, 4_000, null, 100],
        ['p2', 1_000, 1_000, 4_000, 100],
        ['p3', 4_000, 6_000, null, 80],
      ]);
    });

    it('prunes the stories nobody saw since a time, in the batch commit or alone; nothing under a stale fence', async () => {
      const a = await saved('marina');
      const { stale, current } = await fences();
      const write = planWith(a.id, [], () => ({
        at: 1_000,
        rows: [story('old', 1_000), story('new', 8_000)],
        seen: [],
        gone: [],
      }));
      expect(await db.alerts.commitMany([write], stale)).toBeUndefined();
      expect(await db.alerts.history(SERVICE, ['old', 'new'])).toEqual([]);
      await db.alerts.commitMany([write], current);
      await db.alerts.commitMany([], current, { pruneHistoryBefore: 5_000 });
      expect((await db.alerts.history(SERVICE, ['old', 'new'])).map((h) => h.propertyId)).toEqual(['new']);
      expect(await db.alerts.pruneHistory(10_000)).toBe(1);
      expect(await db.alerts.history(SERVICE, ['new'])).toEqual([]);
    });

    it('counts the complete runs in a row that missed a listing, at most 2, and a run that lists it sets it back', async () => {
      const a = await saved('marina');
      await db.alerts.commitRuns([run(a.id, 1_000, { seen: [listing('p1', 100)] })]);
      for (const at of [2_000, 3_000, 4_000]) await db.alerts.commitRuns([run(a.id, at, { missed: ['p1'] })]);
      expect((await db.alerts.seen(a.id))[0]!.missed).toBe(2);
      await db.alerts.commitRuns([run(a.id, 5_000, { refreshed: ['p1'] })]);
      expect((await db.alerts.seen(a.id))[0]).toMatchObject({ missed: 0, lastSeenAt: 5_000 });
    });
  });
}
