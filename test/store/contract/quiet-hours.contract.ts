// Quiet hours and how often an alert posts, through the ports only, so they run the same on SQLite and on Postgres
// (the .test.ts file of the same name): a channel's settings, the entries held for its quiet hours and their release
// (one alone as it was, several folded into one, once even when two instances release at once), the newest entry of a
// kind (a summary's "since the last one"), and an alert's schedule.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewDelivery, OutboxRow } from '../../../src/store/index.js';
import type { Stores } from './databases.js';

const T = 1_000_000;
const QUIET_END = T + 3_600_000;
const CHANNEL = 'slack:T1:C1';

const held = (channel: string, label: string, o: Partial<NewDelivery> = {}): NewDelivery => ({
  channel,
  kind: 'new',
  dedupeKey: `${channel}:${label}`,
  payload: JSON.stringify({ label }),
  holdUntil: QUIET_END,
  ...o,
});

/** The fold a release is given: one summary of the held entries, keyed by the first one's id (deterministic). */
const fold = (channel: string, rows: OutboxRow[]): NewDelivery => ({
  channel,
  kind: 'summary',
  dedupeKey: `fold:${rows[0]!.id}`,
  payload: JSON.stringify({ labels: rows.map((r) => (JSON.parse(r.payload) as { label: string }).label) }),
});

/** One alert in CHANNEL, saved through the port. */
async function saveAlert(db: Stores) {
  const created = await db.alerts.create(
    {
      service: 'https://api.example',
      channel: CHANNEL,
      owner: 'U1',
      text: 'rent marina',
      query: '{}',
      operation: 'search',
      paramsKey: 'location=marina',
      summary: 'Rent in Dubai Marina',
    },
    { perChannel: 25, perOwner: 50 },
  );
  if (!created.ok) throw new Error('not saved');
  return created.row;
}

const labelsOf = (row: OutboxRow | undefined) => (JSON.parse(row!.payload) as { labels: string[] }).labels;

export function quietHoursContract(open: () => Promise<Stores>): void {
  let db: Stores;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(() => db.close());

  describe('channel settings', () => {
    it('a channel that set nothing has no row; quiet hours and a time zone are kept per channel, and turned off', async () => {
      expect(await db.alerts.channelSettings([CHANNEL])).toEqual([]);
      await db.alerts.setQuiet(CHANNEL, { from: '22:00', to: '07:00' }, T);
      await db.alerts.setTimezone('discord:G1:C2', 'Asia/Dubai', T);
      const byChannel = async () =>
        Object.fromEntries(
          (await db.alerts.channelSettings([CHANNEL, 'discord:G1:C2', 'slack:T1:C9'])).map((s) => [s.channel, s]),
        );
      expect(await byChannel()).toEqual({
        [CHANNEL]: { channel: CHANNEL, quietFrom: '22:00', quietTo: '07:00', timezone: null },
        'discord:G1:C2': { channel: 'discord:G1:C2', quietFrom: null, quietTo: null, timezone: 'Asia/Dubai' },
      });
      // Each setting changes alone: a time zone keeps the quiet hours, quiet hours off keep the time zone.
      await db.alerts.setTimezone(CHANNEL, 'Europe/London', T + 1);
      await db.alerts.setQuiet('discord:G1:C2', { from: '23:30', to: '06:00' }, T + 1);
      await db.alerts.setQuiet(CHANNEL, null, T + 2);
      expect(await byChannel()).toEqual({
        [CHANNEL]: { channel: CHANNEL, quietFrom: null, quietTo: null, timezone: 'Europe/London' },
        'discord:G1:C2': { channel: 'discord:G1:C2', quietFrom: '23:30', quietTo: '06:00', timezone: 'Asia/Dubai' },
      });
      // A second instance reads the same.
      const other = await db.connect();
      try {
        expect(await other.alerts.channelSettings([CHANNEL])).toEqual([
          { channel: CHANNEL, quietFrom: null, quietTo: null, timezone: 'Europe/London' },
        ]);
      } finally {
        await other.close();
      }
    });

    it('quiet hours turned off make the entries held for them due at once, not those of another channel', async () => {
      await db.alerts.setQuiet(CHANNEL, { from: '22:00', to: '07:00' }, T);
      await db.outbox.enqueue(held(CHANNEL, 'a'), T);
      await db.outbox.enqueue(held('slack:T1:C2', 'b'), T);
      await db.alerts.setQuiet(CHANNEL, null, T + 10);
      const rows = await db.outbox.list();
      expect(rows.map((r) => [r.channel, r.state, r.nextAttemptAt])).toEqual([
        [CHANNEL, 'held', T + 10],
        ['slack:T1:C2', 'held', QUIET_END],
      ]);
      // Released at the next delivery pass, before the quiet hours would have ended.
      expect(await db.outbox.releaseHeld(T + 10, fold)).toBe(1);
      expect((await db.outbox.list({ channel: CHANNEL })).map((r) => r.state)).toEqual(['pending']);
      expect((await db.outbox.list({ channel: 'slack:T1:C2' })).map((r) => r.state)).toEqual(['held']);
    });
  });

  describe('entries held for quiet hours', () => {
    it('are never claimed while held, and nothing is released before the quiet hours end', async () => {
      await db.outbox.enqueue(held(CHANNEL, 'a'), T);
      const claim = { holder: 'i1', leaseMs: 60_000, perChannel: 10, channels: 10, platforms: ['slack'] };
      expect(await db.outbox.claimDue({ ...claim, at: QUIET_END + 1 })).toEqual([]);
      expect(await db.outbox.releaseHeld(QUIET_END - 1, fold)).toBe(0);
      expect((await db.outbox.list()).map((r) => r.state)).toEqual(['held']);
    });

    it('one alone goes back to the queue as it is, due at the release', async () => {
      await db.outbox.enqueue(held(CHANNEL, 'a'), T);
      expect(await db.outbox.releaseHeld(QUIET_END + 5, fold)).toBe(1);
      expect((await db.outbox.list()).map((r) => [r.dedupeKey, r.state, r.nextAttemptAt])).toEqual([
        [`${CHANNEL}:a`, 'pending', QUIET_END + 5],
      ]);
      expect(await db.outbox.releaseHeld(QUIET_END + 6, fold)).toBe(0);
    });

    it('several of a channel are folded into one delivery, oldest first; each channel on its own', async () => {
      for (const label of ['a', 'b', 'c']) await db.outbox.enqueue(held(CHANNEL, label), T);
      await db.outbox.enqueue(held('slack:T1:C2', 'x'), T);
      expect(await db.outbox.releaseHeld(QUIET_END, fold)).toBe(2);
      const mine = await db.outbox.list({ channel: CHANNEL });
      expect(mine.map((r) => r.state)).toEqual(['folded', 'folded', 'folded', 'pending']);
      expect(labelsOf(mine[3])).toEqual(['a', 'b', 'c']);
      expect(mine[3]).toMatchObject({ kind: 'summary', nextAttemptAt: QUIET_END });
      expect((await db.outbox.list({ channel: 'slack:T1:C2' })).map((r) => [r.kind, r.state])).toEqual([
        ['new', 'pending'],
      ]);
      // Released already: a later release queues nothing more.
      expect(await db.outbox.releaseHeld(QUIET_END + 60_000, fold)).toBe(0);
      expect(await db.outbox.list({ channel: CHANNEL })).toHaveLength(4);
    });

    it('released by two instances at once, the fold is queued once', async () => {
      for (const label of ['a', 'b']) await db.outbox.enqueue(held(CHANNEL, label), T);
      const other = await db.connect();
      try {
        const queued = await Promise.all([
          db.outbox.releaseHeld(QUIET_END, fold),
          other.outbox.releaseHeld(QUIET_END, fold),
        ]);
        expect(queued[0] + queued[1]).toBe(1);
      } finally {
        await other.close();
      }
      const rows = await db.outbox.list({ channel: CHANNEL });
      expect(rows.filter((r) => r.kind === 'summary')).toHaveLength(1);
      expect(rows.filter((r) => r.state === 'pending')).toHaveLength(1);
    });
  });

  describe('the newest entry of a kind', () => {
    it('is the channel’s latest of that kind (of that alert when asked), whatever its state but folded', async () => {
      expect(await db.outbox.latestOf(CHANNEL, 'summary')).toBeUndefined();
      const a = { row: await saveAlert(db) };
      const summary = (label: string, searchId: number | null) => ({
        channel: CHANNEL,
        kind: 'summary',
        searchId,
        dedupeKey: `summary:${label}`,
        payload: JSON.stringify({ label }),
      });
      await db.outbox.enqueue(summary('first', a.row.id), T);
      await db.outbox.enqueue(summary('second', null), T + 1);
      await db.outbox.enqueue({ ...summary('other kind', a.row.id), kind: 'new' }, T + 2);
      await db.outbox.enqueue({ ...summary('elsewhere', a.row.id), channel: 'slack:T1:C2' }, T + 3);
      const label = (row: OutboxRow | undefined) => (JSON.parse(row!.payload) as { label: string }).label;
      expect(label(await db.outbox.latestOf(CHANNEL, 'summary'))).toBe('second');
      expect(label(await db.outbox.latestOf(CHANNEL, 'summary', a.row.id))).toBe('first');
      expect(label(await db.outbox.latestOf(CHANNEL, 'new'))).toBe('other kind');
      // A folded entry went into another one: it is not the latest of its kind.
      await db.outbox.enqueue(held(CHANNEL, 'h1', { kind: 'summary' }), T + 4);
      await db.outbox.enqueue(held(CHANNEL, 'h2', { kind: 'summary' }), T + 5);
      await db.outbox.releaseHeld(QUIET_END, (channel, rows) => ({ ...fold(channel, rows), kind: 'digest' }));
      expect(label(await db.outbox.latestOf(CHANNEL, 'summary'))).toBe('second');
    });
  });

  describe('how often an alert posts', () => {
    it('a new schedule is kept with its next run, and the alert is not due before it', async () => {
      const row = await saveAlert(db);
      const { id, number } = row;
      expect(row.schedule).toBe(JSON.stringify({ every: 'run' }));
      const daily = JSON.stringify({ every: 'day', time: '09:00' });
      await db.alerts.setSchedule(id, daily, QUIET_END);
      expect(await db.alerts.byNumber(CHANNEL, number)).toMatchObject({ schedule: daily, nextRunAt: QUIET_END });
      expect((await db.alerts.due('https://api.example', QUIET_END - 1)).map((r) => r.id)).toEqual([]);
      expect((await db.alerts.due('https://api.example', QUIET_END)).map((r) => r.id)).toEqual([id]);
      // Back to instant: due at once.
      await db.alerts.setSchedule(id, JSON.stringify({ every: 'run' }), T);
      expect((await db.alerts.due('https://api.example', T)).map((r) => r.id)).toEqual([id]);
    });
  });
}
