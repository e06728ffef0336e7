// Upgrading to one standing_order table (issue 37, decision 0008), on a database made by the release before (every
// migration before the standing orders' one), on SQLite and on Postgres: every alert and digest comes over with its
// number, owner and state; alerts keep their ids, digests move past them with their outbox keys, so nothing already
// queued or posted for a slot is queued again; numbers and ids go on without reuse.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { digestKey, openStore, sqliteDatabase, type Database } from '../../src/store/index.js';
import { migrationsFolder } from '../../src/store/migrations-folder.js';
import { openPgDatabase } from '../../src/store/pg/database.js';
import { openPgStore } from '../../src/store/pg/open.js';
import { freshPostgres } from '../support/postgres.js';

const C1 = 'slack:T1:C1';
const C2 = 'discord:G1:C2';
const S = 'https://api.example';
const WEEK = JSON.stringify({ every: 'week', day: 1, time: '09:00' });

/** The migrations of the release before: the folder as it is, its journal cut before the standing orders' migration. */
function releaseBefore(dialect: 'sqlite' | 'postgres'): string {
  const from = migrationsFolder(dialect);
  const to = fs.mkdtempSync(path.join(os.tmpdir(), `manzil-before-${dialect}-`));
  fs.cpSync(from, to, { recursive: true });
  const file = path.join(to, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith('_standing_orders'));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(file, JSON.stringify(journal));
  return to;
}

/** Rows in several states, written as the release before wrote them (`t`/`f`: the dialect's booleans). */
function seedStatements(t: string, f: string): string[] {
  const alert = (place: string, number: number, owner: string, state: string) =>
    `INSERT INTO saved_search (service, place, number, owner, text, query, operation, params_key, summary, paused, created_at, primed_at, last_run_at, next_run_at, last_error, error_since, error_reported)
     VALUES ('${S}', '${place}', ${number}, '${owner}', 'rent ${number}', '{"v":1}', 'search', 'location=${number}', 'Rent ${number}', ${state})`;
  const digest = (number: number, state: string) =>
    `INSERT INTO digest (service, place, number, owner, places, schedule, timezone, paused, created_at, next_run_at, last_slot, last_run_at, last_calls, last_error)
     VALUES ('${S}', '${C1}', ${number}, 'U1', '[{"id":5002,"name":"Dubai Marina"}]', '${WEEK}', 'Asia/Dubai', ${state})`;
  const entry = (searchId: string, key: string, state: string) =>
    `INSERT INTO outbox (search_id, place, kind, dedupe_key, payload, state, next_attempt_at, created_at)
     VALUES (${searchId}, '${C1}', 'k', '${key}', '{}', '${state}', 0, 0)`;
  return [
    // Alerts 1 to 7, of which 5 to 7 were removed: ids and numbers 5 to 7 were given and are never given again.
    alert(C1, 1, 'U1', `${f}, 10, 100, 200, 200, NULL, NULL, ${f}`),
    alert(C1, 2, 'U2', `${t}, 10, 100, 150, 150, 'down', 140, ${t}`),
    alert(C1, 3, 'U1', `${f}, 10, NULL, NULL, 50, NULL, NULL, ${f}`),
    alert(C2, 1, 'U3', `${f}, 10, 100, 300, 300, NULL, NULL, ${f}`),
    ...[5, 6, 7].map((n) => alert(C1, n, 'U1', `${f}, 10, NULL, NULL, 50, NULL, NULL, ${f}`)),
    'DELETE FROM saved_search WHERE id >= 5',
    `INSERT INTO alert_number (place, last) VALUES ('${C1}', 7), ('${C2}', 1)`,
    // Digests 1 and 2 (digest #1 beside alert #1 in one channel), and 3, removed.
    digest(1, `${f}, 10, 1000, 900, 905, 3, NULL`),
    digest(2, `${t}, 10, 2000, NULL, NULL, NULL, 'postponed: the call budget cannot cover it now'`),
    digest(3, `${f}, 10, 3000, NULL, NULL, NULL, NULL`),
    'DELETE FROM digest WHERE id = 3',
    `INSERT INTO digest_number (place, last) VALUES ('${C1}', 3)`,
    `INSERT INTO search_seen (search_id, property_id, first_seen_at, last_seen_at, posted) VALUES (1, 'p1', 1, 1, ${t}), (2, 'p2', 1, 1, ${f})`,
    entry('1', '1:new:p1', 'delivered'),
    entry('NULL', 'digest:1:900', 'delivered'),
    entry('NULL', 'digest:2:900:postponed', 'pending'),
    entry('NULL', 'digest:3:800', 'delivered'),
    entry('NULL', `digest-now:${C1}:123`, 'delivered'),
  ];
}

async function checkUpgraded(db: Database): Promise<void> {
  const alerts = await db.alerts.listByChannel(C1);
  expect(alerts.map((a) => [a.id, a.number, a.owner])).toEqual([
    [1, 1, 'U1'],
    [2, 2, 'U2'],
    [3, 3, 'U1'],
  ]);
  expect(alerts[0]).toMatchObject({ kind: 'alert', paused: false, primedAt: 100, lastRunAt: 200, nextRunAt: 200 });
  expect(alerts[0]).toMatchObject({ text: 'rent 1', paramsKey: 'location=1', summary: 'Rent 1', createdAt: 10 });
  expect(alerts[1]).toMatchObject({ paused: true, lastError: 'down', errorSince: 140, errorReported: true });
  expect(alerts[2]).toMatchObject({ primedAt: null, lastRunAt: null, nextRunAt: 50 });
  expect(alerts.every((a) => a.schedule === JSON.stringify({ every: 'run' }))).toBe(true);
  expect(await db.alerts.byId(4)).toMatchObject({ channel: C2, number: 1, owner: 'U3' });
  expect((await db.alerts.seen(1)).map((s) => [s.propertyId, s.posted])).toEqual([['p1', true]]);

  const digests = await db.digests.listByChannel(C1);
  // Moved past alert 7, the last id an alert was given.
  expect(digests.map((d) => [d.id, d.number])).toEqual([
    [8, 1],
    [9, 2],
  ]);
  expect(digests[0]).toMatchObject({ kind: 'digest', schedule: WEEK, timezone: 'Asia/Dubai', paused: false });
  expect(digests[0]).toMatchObject({ nextRunAt: 1000, lastSlot: 900, lastRunAt: 905, lastCalls: 3, lastError: null });
  expect(digests[1]).toMatchObject({ paused: true, lastError: 'postponed: the call budget cannot cover it now' });
  expect(await db.digests.byId(1)).toBeUndefined();
  expect(await db.alerts.byId(8)).toBeUndefined();

  // The outbox's digest keys moved with their digests; others are as they were.
  const keys = async () => (await db.outbox.list()).map((e) => e.dedupeKey).sort();
  expect(await keys()).toEqual(
    ['1:new:p1', 'digest:8:900', 'digest:9:900:postponed', 'digest:10:800', `digest-now:${C1}:123`].sort(),
  );
  // The slot a digest already posted is not queued again after the upgrade.
  const delivery = { channel: C1, kind: 'digest', dedupeKey: digestKey(8, 900), payload: '{}' };
  expect(await db.digests.recordRun(8, { slot: 900, nextRunAt: 5000, at: 4000, calls: 1, delivery })).toBe(true);
  expect((await keys()).filter((k) => k === 'digest:8:900')).toHaveLength(1);
  // A digest's key means that digest: removing it takes its pending notice.
  await db.digests.remove(9);
  expect(await keys()).not.toContain('digest:9:900:postponed');

  // Numbers go on per kind and target, never reused; ids past every one given, removed ones included.
  const alert = await db.alerts.create(
    {
      service: S,
      channel: C1,
      owner: 'U1',
      text: 'rent 8',
      query: '{}',
      operation: 'search',
      paramsKey: 'location=8',
      summary: 'Rent 8',
    },
    { perChannel: 25, perOwner: 50 },
  );
  expect(alert.ok && [alert.row.number, alert.row.id > 10]).toEqual([8, true]);
  const digest = await db.digests.create(
    { service: S, channel: C1, owner: 'U1', areas: '[]', schedule: WEEK, timezone: 'Asia/Dubai', nextRunAt: 1 },
    { perChannel: 5 },
  );
  expect(digest.ok && [digest.row.number, digest.row.id > 10]).toEqual([4, true]);
  // Removing an alert still takes what it saw and its deliveries.
  await db.alerts.remove(1);
  expect(await db.alerts.seen(1)).toEqual([]);
  expect(await keys()).not.toContain('1:new:p1');
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('upgrading to one standing_order table', () => {
  it('on SQLite, carries every alert and digest over with its number, owner and state', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-upgrade-')), 'manzil.db');
    const before = openStore(file, { migrationsFolder: releaseBefore('sqlite') });
    for (const statement of seedStatements('1', '0')) before.sqlite.prepare(statement).run();
    before.close();
    const db = sqliteDatabase(openStore(file));
    cleanups.push(() => db.close());
    await checkUpgraded(db);
  });

  it('on Postgres, carries every alert and digest over with its number, owner and state', async () => {
    const pg = await freshPostgres({ empty: true });
    cleanups.push(() => pg.drop());
    const before = await openPgStore(pg.url, { migrationsFolder: releaseBefore('postgres') });
    for (const statement of seedStatements('true', 'false')) await before.db.execute(sql.raw(statement));
    await before.close();
    const db = await openPgDatabase(pg.url);
    cleanups.push(() => db.close());
    await checkUpgraded(db);
  });
});
