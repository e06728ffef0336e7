// `manzil migrate-to-postgres` on a populated SQLite file and a new Postgres database: every table's rows come along,
// a second run copies nothing, and Manzil on Postgres carries on: the same alerts and numbers, nothing already seen
// posted again, no silent first look, the same delivery ids for what is still queued. Through the command line: it
// refuses while Manzil runs on the file, and a run into a database in use changes nothing and says what it would add.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runMigrateToPostgresCli } from '../../src/ops/migrate-to-postgres.js';
import {
  deliveryIdOf,
  openDatabase,
  openStore,
  readLineage,
  sqliteDatabase,
  type Database,
  type NewAlert,
  type SeenUpdate,
} from '../../src/store/index.js';
import { runManzil, type CliRun } from '../support/child.js';
import { freshPostgres } from '../support/postgres.js';
import { tempDir } from '../store/helpers.js';
import { boot } from './helpers.js';

const CHANNEL = 'slack:T0MIGRATE:C0ONE';
const search = (name: string): NewAlert => ({
  service: 'sandbox',
  channel: CHANNEL,
  owner: 'U0ALICE',
  text: `rent ${name}`,
  query: JSON.stringify({ v: 1, name }),
  operation: 'search-rent',
  paramsKey: `search-rent?location=${name}`,
  summary: `Rent in ${name}`,
});
const seen = (propertyId: string, price: number): SeenUpdate => ({
  propertyId,
  price,
  reportedPrice: price,
  locationKey: null,
  bedrooms: '2',
  size: 1200,
  posted: true,
});
const card = (searchId: number, propertyId: string) => ({
  searchId,
  channel: CHANNEL,
  kind: 'new',
  propertyId,
  dedupeKey: `${searchId}:new:${propertyId}`,
  payload: '{}',
});

const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/**
 * A SQLite database as a running Manzil leaves it: alerts primed and run, posts delivered and queued, a held channel.
 */
async function populated(): Promise<{ dbPath: string; ids: { marina: number; jvc: number; gone: number } }> {
  const dbPath = join(tempDir(), 'manzil.db');
  const db = sqliteDatabase(openStore(dbPath));
  const made = [
    await db.alerts.create(search('marina'), { perChannel: 10, perOwner: 10 }),
    await db.alerts.create(search('jvc'), { perChannel: 10, perOwner: 10 }),
  ];
  const [marina, jvc] = made.map((m) => (m.ok ? m.row : expect.fail('not saved')));
  const gone = (
    await db.alerts
      .create(search('gone'), { perChannel: 10, perOwner: 10 })
      .then((m) => (m.ok ? m.row : expect.fail('not saved')))
  ).id;
  await db.alerts.remove(gone);
  const t = Date.now();
  await db.alerts.commitRun({
    searchId: marina!.id,
    at: t - 60_000,
    seen: [seen('p1', 100_000), seen('p2', 120_000)],
    deliveries: [],
    primed: true,
    clearError: false,
  });
  await db.alerts.commitRun({
    searchId: marina!.id,
    at: t,
    seen: [seen('p3', 90_000)],
    deliveries: [card(marina!.id, 'p3')],
    clearError: false,
  });
  await db.alerts.commitRun({
    searchId: jvc!.id,
    at: t,
    seen: [seen('p9', 70_000)],
    deliveries: [],
    primed: true,
    clearError: false,
  });
  await db.outbox.enqueue({ channel: CHANNEL, kind: 'digest', dedupeKey: 'digest:1:2026-11-30', payload: '{}' });
  const later = Date.now() + 1_000;
  const [first] = await db.outbox.claimDue({
    holder: 'old',
    at: later,
    leaseMs: 60_000,
    perChannel: 1,
    channels: 1,
    platforms: ['slack'],
  });
  await db.outbox.markPosting(first!.id, first!.token, later, later + 60_000);
  await db.outbox.markDelivered(first!.id, first!.token, 'ts-1', later + 1);
  await db.outbox.holdChannel('slack:T0MIGRATE:C0GONE', 'channel_not_found', t, t + 60_000);
  await db.buttons('sandbox').save('page', { v: 1 }, 'slack:C0ONE');
  await db.usage('sandbox').record(['day:2026-11-24', 'month:2026-11'], t);
  await db.teams.charge(['slack:T0MIGRATE']);
  await db.leases.acquire('alerts-poll', 'old', t, 1);
  await db.close();
  return { dbPath, ids: { marina: marina!.id, jvc: jvc!.id, gone } };
}

async function migrate(dbPath: string, url: string) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runMigrateToPostgresCli(
    [],
    { dbPath, postgres: { url, poolSize: 2 } },
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { status, out, err };
}

const rowsOf = (out: string[]): Record<string, { sqlite: number; postgres: number; copied: number }> =>
  Object.fromEntries(
    out
      .filter((l) => /^ {2}\w+ +\d+ +\d+ +\d+$/.test(l))
      .map((l) => l.trim().split(/ +/))
      .map(([table, sqlite, postgres, copied]) => [
        table,
        { sqlite: +sqlite!, postgres: +postgres!, copied: +copied! },
      ]),
  );

describe('manzil migrate-to-postgres', () => {
  it('copies every table, counts equal; a second run copies nothing; Manzil on Postgres carries on without re-posting or a silent first look', async () => {
    const { dbPath, ids } = await populated();
    const pg = await freshPostgres({ empty: true });
    drops.push(pg.drop);
    const before = sqliteDatabase(openStore(dbPath));
    const lineage = readLineage(before.sqlite!.sqlite);
    const queuedBefore = (await before.outbox.list({ state: 'pending' })).map((r) => ({
      dedupeKey: r.dedupeKey,
      deliveryId: deliveryIdOf(r),
    }));
    await before.close();

    const first = await migrate(dbPath, pg.url);
    expect(first.err).toEqual([]);
    expect(first.status).toBe(0);
    const tables = rowsOf(first.out);
    for (const name of [
      'standing_order',
      'standing_order_number',
      'saved_search',
      'search_seen',
      'outbox',
      'place_hold',
      'button_state',
      'api_usage',
      'team_usage',
      'job_lease',
      'db_meta',
    ]) {
      expect(tables[name], name).toBeDefined();
      expect(tables[name]!.postgres, name).toBe(tables[name]!.sqlite);
    }
    expect(tables.standing_order!.sqlite).toBe(2);
    expect(tables.saved_search!.sqlite).toBe(2);
    expect(tables.search_seen!.sqlite).toBe(4);

    const again = await migrate(dbPath, pg.url);
    expect(again.status).toBe(0);
    expect(Object.values(rowsOf(again.out)).every((t) => t.copied === 0 && t.postgres === t.sqlite)).toBe(true);
    expect(again.out.at(-1)).toMatch(/^Nothing to copy/);

    const db: Database = await openDatabase({ dbPath, postgres: { url: pg.url, poolSize: 2 } });
    try {
      // The same alerts under the same numbers; the next one takes the next number and a new id.
      expect((await db.alerts.listByChannel(CHANNEL)).map((r) => [r.number, r.summary])).toEqual([
        [1, 'Rent in marina'],
        [2, 'Rent in jvc'],
      ]);
      const next = await db.alerts.create(search('downtown'), { perChannel: 10, perOwner: 10 });
      expect(next.ok && [next.row.number, next.row.id > ids.jvc]).toEqual([4, true]);
      // Not the id of the alert removed before the copy either: ids go on from every one SQLite gave.
      expect(next.ok && next.row.id > ids.gone).toBe(true);
      // What was queued keeps its delivery id (the platform is asked about the same id); what was delivered stays so.
      expect(
        (await db.outbox.list({ state: 'pending' })).map((r) => ({
          dedupeKey: r.dedupeKey,
          deliveryId: deliveryIdOf(r),
        })),
      ).toEqual(queuedBefore);
      expect(await db.outbox.stats()).toMatchObject({ delivered: 1, heldChannels: 1 });
      // A fact queued from now on is named after the same lineage as on SQLite (delivery ids stay unique across both).
      await db.outbox.enqueue({ channel: CHANNEL, kind: 'digest', dedupeKey: 'digest:1:2026-12-07', payload: '{}' });
      expect(
        (await db.outbox.list({ state: 'pending' })).find((r) => r.dedupeKey === 'digest:1:2026-12-07')!.origin,
      ).toBe(lineage);
      // The next run sees the same listings: nothing new is queued, and the search is not primed again in silence.
      expect((await db.alerts.byId(ids.marina))!.primedAt).not.toBeNull();
      const queued = await db.alerts.commitRun({
        searchId: ids.marina,
        at: Date.now(),
        seen: [seen('p1', 100_000), seen('p2', 120_000), seen('p3', 90_000)],
        deliveries: [card(ids.marina, 'p3')],
        clearError: false,
      });
      expect(queued).toBe(0);
      // The usage ledger and the team's spend carry on counting from where SQLite left them.
      expect(await db.usage('sandbox').count('month:2026-11')).toBe(1);
      expect(await db.teams.spent('slack:T0MIGRATE')).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('says what is missing: no DATABASE_URL, or no SQLite file to copy', async () => {
    const noUrl: string[] = [];
    expect(
      await runMigrateToPostgresCli(
        [],
        { dbPath: join(tempDir(), 'x.db'), postgres: undefined },
        () => {},
        (l) => noUrl.push(l),
      ),
    ).toBe(1);
    expect(noUrl).toEqual([expect.stringMatching(/DATABASE_URL is not set/)]);
    const noFile: string[] = [];
    const status = await runMigrateToPostgresCli(
      [],
      { dbPath: join(tempDir(), 'none.db'), postgres: { url: 'postgres://127.0.0.1:1/x', poolSize: 1 } },
      () => {},
      (l) => noFile.push(l),
    );
    expect(status).toBe(1);
    expect(noFile).toEqual([expect.stringMatching(/there is no database at .*none\.db/)]);
  });

  it('a file at MANZIL_DB_PATH that is not a database: one line saying so, nothing copied', async () => {
    const junk = join(tempDir(), 'notes.db');
    writeFileSync(junk, 'not a database at all, but long enough to look like a header of something. '.repeat(20));
    const r = await migrateCli(junk, 'postgres://127.0.0.1:1/x');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^manzil migrate-to-postgres: .*notes\.db \(MANZIL_DB_PATH\) cannot be read \(file is not a database\): nothing was copied\n$/,
    );
  });
});

/** `manzil migrate-to-postgres` as an operator runs it: a process of its own, configured by the environment. */
function migrateCli(dbPath: string, url: string): Promise<CliRun> {
  return runManzil(['migrate-to-postgres'], { env: { MANZIL_DB_PATH: dbPath, DATABASE_URL: url } });
}

/** Whether the Postgres database has Manzil's tables at all (a refused run must not even create them). */
async function hasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ t: string | null }>("SELECT to_regclass('public.saved_search') AS t")).rows[0]!.t !== null
    );
  } finally {
    await client.end();
  }
}

describe('manzil migrate-to-postgres, from the command line', () => {
  it('refuses while Manzil runs on the SQLite file, and copies once it has stopped', async () => {
    const { manzil, dbPath } = await boot();
    const pgdb = await freshPostgres({ empty: true });
    drops.push(pgdb.drop);

    const refused = await migrateCli(dbPath, pgdb.url);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^manzil migrate-to-postgres: Manzil is running on .*manzil\.db \(instance \S+ on \S+, pid \d+, heartbeat \d+ s ago\): stop it first, then migrate \(nothing was copied\)\n$/,
    );
    expect(await hasTables(pgdb.url)).toBe(false);

    await manzil.stop();
    const copied = await migrateCli(dbPath, pgdb.url);
    expect(copied.stderr).toBe('');
    expect(copied.status).toBe(0);
    expect(copied.stdout).toMatch(/^Copied \d+ rows into Postgres\./m);
  }, 90_000);

  it('run again after Manzil used Postgres: changes nothing, says which rows it would add; a removed alert stays removed, a pruned post is not queued again', async () => {
    const { dbPath, ids } = await populated();
    const pgdb = await freshPostgres({ empty: true });
    drops.push(pgdb.drop);
    const first = await migrateCli(dbPath, pgdb.url);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);

    // Manzil on Postgres: alert #2 is removed, the queued card is delivered, and delivered posts are pruned.
    const db = await openDatabase({ dbPath, postgres: { url: pgdb.url, poolSize: 2 } });
    try {
      await db.alerts.remove(ids.jvc);
      expect((await db.alerts.listByChannel(CHANNEL)).map((r) => r.number)).toEqual([1]);
      const at = Date.now() + 1_000;
      const [card] = await db.outbox.claimDue({
        holder: 'pg',
        at,
        leaseMs: 60_000,
        perChannel: 1,
        channels: 1,
        platforms: ['slack'],
      });
      await db.outbox.markPosting(card!.id, card!.token, at, at + 60_000);
      await db.outbox.markDelivered(card!.id, card!.token, 'ts-2', at + 1);
      expect((await db.outbox.prune(at + 10, { outboxMaxAgeMs: 0 })).outbox).toBe(2);
    } finally {
      await db.close();
    }

    const again = await migrateCli(dbPath, pgdb.url);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /^manzil migrate-to-postgres: Postgres \(DATABASE_URL\) is already in use \(rows in .*saved_search 1.*\).*: nothing was changed\./,
    );
    const said = again.stdout.split('\n');
    expect(said).toContain(`  saved_search: 1 row (id=${ids.jvc})`);
    expect(said).toContain(`  search_seen: 1 row (search_id=${ids.jvc}, property_id=p9)`);
    expect(said).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2}outbox: 2 rows \(id=\d+; id=\d+\)$/)]));

    const after = await openDatabase({ dbPath, postgres: { url: pgdb.url, poolSize: 2 } });
    try {
      expect((await after.alerts.listByChannel(CHANNEL)).map((r) => [r.number, r.summary])).toEqual([
        [1, 'Rent in marina'],
      ]);
      expect(await after.alerts.byId(ids.jvc)).toBeUndefined();
      // Nothing waits to be posted, and what was delivered is not back.
      expect(await after.outbox.list()).toEqual([]);
    } finally {
      await after.close();
    }
  }, 90_000);
});
