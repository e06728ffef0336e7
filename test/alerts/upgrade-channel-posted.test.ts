// An install upgraded to what a channel was posted (channel_posted, issue 37), on SQLite and on Postgres: a database as
// the release before left it (its migrations, its rows) holds two overlapping alerts of one channel that have posted,
// one of them paused meanwhile. Upgraded, the channel is posted nothing again, and every post still names the alerts
// it named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKind, matchingAlerts, pollOnce, renderDelivery } from '../../src/alerts/index.js';
import { decodePayload } from '../../src/alerts/messages.js';
import { KindRegistry, OutboxDrainer } from '../../src/outbox/index.js';
import { openStore } from '../../src/store/index.js';
import { migrationsFolder } from '../../src/store/migrations-folder.js';
import { openPgStore } from '../../src/store/pg/open.js';
import { freshPostgres } from '../support/postgres.js';
import {
  alertsRig,
  ctx,
  dbInstance,
  onCleanup,
  POLLER,
  RecordingPoster,
  type PgInstance,
  type Rig,
} from './helpers.js';

const SHARED = 'test:shared';
// Overlapping alerts (the sandbox's marina flats for sale): many listings match both.
const ALERTS = ['buy dubai marina', 'buy marina apartment'];
const FIRST_NEW = 'channel_posted';

const idsOf = (text: string): string[] => [...text.matchAll(/\/property\/(\d+)/g)].map((x) => x[1]!);

/** The release before's migrations: every one up to this change's, in a folder of their own. */
function releaseBefore(dialect: 'sqlite' | 'postgres'): { folder: string; when: number } {
  const head = migrationsFolder(dialect);
  const journal = JSON.parse(fs.readFileSync(path.join(head, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const first = journal.entries.findIndex((e) => e.tag.endsWith(FIRST_NEW));
  expect(first).toBeGreaterThan(0);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `manzil-before-${dialect}-`));
  onCleanup(() => fs.rmSync(folder, { recursive: true, force: true }));
  fs.mkdirSync(path.join(folder, 'meta'));
  const before = journal.entries.slice(0, first);
  fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: before }));
  for (const e of before) fs.copyFileSync(path.join(head, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
  return { folder, when: journal.entries[first]!.when };
}

interface Dialect {
  name: 'sqlite' | 'postgres';
  /** A database at head, and how to open another instance on it. */
  create(): Promise<{ open(holder: string): Promise<PgInstance> }>;
  /** Takes the database back to the release before (its tables, its bookkeeping); answers its schema and that one's. */
  downgrade(when: number, folder: string): Promise<{ schema: unknown; releaseBefore: unknown }>;
}

function sqlite(rig: Rig): Dialect {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-upgrade-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'alerts.db');
  const schemaOf = (f: string) => {
    const db = new Database(f, { readonly: true });
    try {
      return db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all();
    } finally {
      db.close();
    }
  };
  return {
    name: 'sqlite',
    create: async () => ({ open: (holder) => dbInstance(rig, { dbPath: file }, holder) }),
    async downgrade(when, folder) {
      const db = new Database(file);
      // This change's tables, and what the migrations after it added (an alert's words, a channel's settings, the
      // listings' stories with an alert's lifecycle and missed runs).
      db.exec(
        'DROP TABLE channel_posted_alert; DROP TABLE channel_posted; DROP TABLE place_setting; ALTER TABLE saved_search DROP COLUMN words; DROP TABLE listing_history; ALTER TABLE saved_search DROP COLUMN lifecycle; ALTER TABLE search_seen DROP COLUMN missed',
      );
      db.prepare('DELETE FROM __drizzle_migrations WHERE created_at >= ?').run(when);
      db.close();
      const old = path.join(dir, 'before.db');
      openStore(old, { migrationsFolder: folder }).close();
      return { schema: schemaOf(file), releaseBefore: schemaOf(old) };
    },
  };
}

function postgres(rig: Rig): Dialect {
  let url = '';
  const query = async <T>(u: string, text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: u });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const schemaOf = async (u: string) => ({
    columns: await query(
      u,
      `select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
       where table_schema in ('public', 'drizzle') order by 1, 2`,
    ),
    indexes: await query(
      u,
      `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 2`,
    ),
  });
  return {
    name: 'postgres',
    async create() {
      const db = await freshPostgres();
      onCleanup(() => db.drop());
      url = db.url;
      return { open: (holder) => dbInstance(rig, { dbPath: '', postgres: { url, poolSize: 4 } }, holder) };
    },
    async downgrade(when, folder) {
      await query(url, 'DROP TABLE channel_posted_alert, channel_posted, place_setting, listing_history');
      await query(url, 'ALTER TABLE saved_search DROP COLUMN words, DROP COLUMN lifecycle');
      await query(url, 'ALTER TABLE search_seen DROP COLUMN missed');
      await query(url, 'DELETE FROM drizzle.__drizzle_migrations WHERE created_at >= $1', [when]);
      const old = await freshPostgres({ empty: true });
      onCleanup(() => old.drop());
      await (await openPgStore(old.url, { migrationsFolder: folder })).close();
      return { schema: await schemaOf(url), releaseBefore: await schemaOf(old.url) };
    },
  };
}

async function upgradeKeepsWhatWasPosted(make: (rig: Rig) => Dialect): Promise<void> {
  const rig = await alertsRig();
  const dialect = make(rig);
  const { folder, when } = releaseBefore(dialect.name);
  const database = await dialect.create();
  const poster = new RecordingPoster();
  const drainerOf = (i: PgInstance) =>
    new OutboxDrainer({
      outbox: i.db.outbox,
      kinds: new KindRegistry().register(ALERT_KINDS, alertKind({ matches: matchingAlerts(i.db.alerts, rig.logger) })),
      posters: [poster],
      logger: rig.logger,
      holder: i.holder,
      options: {
        giveUpMs: 3_600_000,
        perChannelIntervalMs: 0,
        baseBackoffMs: 1,
        maxBackoffMs: 2,
        leaseMs: 5_000,
        lookupRetryMs: 1,
      },
    });
  const round = async (i: PgInstance) => {
    rig.sandbox.advance(40);
    expect((await pollOnce({ ...i.deps, options: POLLER })).failedQueries).toBe(0);
    await drainerOf(i).drain();
  };

  // The release before: both alerts post for a while (one post naming both when both matched), then #2 is paused
  // while #1 goes on posting.
  const before = await database.open('before');
  for (const text of ALERTS)
    expect((await before.commands.handle(ctx(SHARED), `add ${text}`)).text).toMatch(/^Saved as alert #/);
  expect((await pollOnce({ ...before.deps, options: POLLER })).failedQueries).toBe(0); // the first look
  for (let r = 0; r < 4; r++) await round(before);
  expect((await before.commands.handle(ctx(SHARED), 'pause 2')).text).toMatch(/#2/);
  for (let r = 0; r < 4; r++) await round(before);
  const postedBefore = [...poster.posts];
  const shown = new Set(postedBefore.flatMap((p) => idsOf(JSON.stringify(p.reply.blocks))));
  expect(postedBefore.some((p) => /^New listing for alerts #1, #2:/.test(p.reply.text))).toBe(true);
  await before.db.close();
  const downgraded = await dialect.downgrade(when, folder);
  expect(downgraded.schema).toEqual(downgraded.releaseBefore);

  // Upgraded: every post, rendered again, names the alerts it named.
  const after = await database.open('after');
  const delivered = await after.db.outbox.list({ channel: SHARED, state: 'delivered' });
  const rendered = await Promise.all(
    delivered.map(
      async (e) => (await renderDelivery(decodePayload(e.payload)!, { matches: matchingAlerts(after.db.alerts) })).text,
    ),
  );
  expect(rendered.sort()).toEqual(postedBefore.map((p) => p.reply.text).sort());

  // #2 resumed, and the market moving on: nothing the channel was shown is posted there again.
  expect((await after.commands.handle(ctx(SHARED), 'resume 2')).text).toMatch(/#2/);
  for (let r = 0; r < 3; r++) await round(after);
  const again = poster.posts
    .slice(postedBefore.length)
    .filter((p) => !p.reply.text.startsWith('Price dropped'))
    .flatMap((p) => idsOf(JSON.stringify(p.reply.blocks)));
  expect(again.filter((id) => shown.has(id))).toEqual([]);
  expect(poster.posts.length).toBeGreaterThan(postedBefore.length);
}

describe('an install upgraded to what a channel was posted', () => {
  it('on SQLite: posts nothing already posted again, and names every alert a post named', { timeout: 120_000 }, () =>
    upgradeKeepsWhatWasPosted(sqlite),
  );
  it('on Postgres: posts nothing already posted again, and names every alert a post named', { timeout: 120_000 }, () =>
    upgradeKeepsWhatWasPosted(postgres),
  );
});
