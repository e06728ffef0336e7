// `manzil restore <file> [--force]`: puts a backup in place of the database, so that nothing restored is posted twice
// or wrongly taken as delivered.
// - Refuses while a Manzil instance runs on the database (a heartbeat younger than LAPSE_MS), unless --force.
// - Checks the backup (integrity_check, an outbox table) before touching anything.
// - Works on a staged copy beside the database (SQLite's backup API): migrations applied by openStore (an older backup
//   is upgraded), then one transaction: a new database id (delivery ids written from now on never match the old
//   database's), every undelivered entry back to pending and marked maybe delivered (the drainer looks for it on the
//   platform before sending it: one delivered after the backup was taken is found, not posted again), parked ones
//   marked so too (a retry looks first), instances forgotten and job leases freed.
// - Only then keeps the current database aside as `<db>.before-restore-<time>` (its -wal and -shm go with it) and
//   renames the staged copy into place. A failure before that leaves the current database as it was.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eq, inArray, sql } from 'drizzle-orm';
import { markRestored, openStore, renewDbId, schema, type Store } from '../store/index.js';
import { makePrivate, prepareDatabaseFile, sqliteSiblings } from '../store/private-files.js';
import { countOf } from '../views/format.js';
import { runningInstances, runningOn, type RunningInstance } from './running-instance.js';

export interface RestoreReport {
  backup: string;
  database: string;
  /** Where the database it replaced was kept; undefined when there was none. */
  keptAs: string | undefined;
  /** The restored database's new id (part of every delivery id written from now on). */
  dbId: string;
  /** Undelivered entries, each looked for on its platform before it is sent. */
  toLookFor: number;
  /** Parked entries (`manzil outbox`): they stay parked; a retry looks for them first. */
  parked: number;
  alerts: number;
  /** Migrations applied to bring an older backup up to this release. */
  migrationsApplied: number;
  ms: number;
}

export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

export interface RestoreOptions {
  /** Restore even while an instance's heartbeat is fresh, or when the current database cannot be read. */
  force?: boolean;
  now?: () => number;
}

const UNDELIVERED = ['pending', 'claimed', 'sending'];
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const tableExists = (db: Database.Database, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
const migrationCount = (db: Database.Database) =>
  tableExists(db, '__drizzle_migrations')
    ? (db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n
    : 0;
const siblings = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
const removeAll = (file: string) => siblings(file).forEach((f) => fs.rmSync(f, { force: true }));

export async function restoreDatabase(
  backup: string,
  dbPath: string,
  options: RestoreOptions = {},
): Promise<RestoreReport> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  if (dbPath === ':memory:' || dbPath === '')
    throw new RestoreError('the database is in memory (MANZIL_DB_PATH=:memory:): there is no file to restore into');
  if (!fs.existsSync(backup)) throw new RestoreError(`there is no file at ${backup}`);
  if (fs.existsSync(dbPath) && fs.realpathSync(backup) === fs.realpathSync(dbPath))
    throw new RestoreError(`${backup} is the database itself (MANZIL_DB_PATH): choose a backup`);

  // Before anything is touched: is it a Manzil database, and is Manzil stopped?
  const before = inspectBackup(backup);
  const current = inspectCurrent(dbPath, now(), options.force ?? false);

  // The staged copy, beside the database (the same file system, so the final rename is atomic).
  const staged = `${dbPath}.restoring-${process.pid}`;
  removeAll(staged);
  let counts: Omit<RestoreReport, 'backup' | 'database' | 'keptAs' | 'ms'>;
  try {
    // 0600 before SQLite writes to it, as the database it becomes must be (its -wal and -shm take the same mode).
    prepareDatabaseFile(staged);
    const source = new Database(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(staged, { progress: () => 1_000_000 });
    } finally {
      source.close();
    }
    counts = prepare(staged, before.migrations, current.generation, now());
  } catch (e) {
    removeAll(staged);
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(`the backup could not be prepared (the current database is untouched): ${message(e)}`);
  }

  // An instance may have started meanwhile: the same check again, just before the swap.
  try {
    inspectCurrent(dbPath, now(), options.force ?? false);
  } catch (e) {
    removeAll(staged);
    throw e;
  }
  const keptAs = current.exists ? keepAside(dbPath, now()) : undefined;
  // The kept copy holds what the database held; one made by an older release may still be readable by everyone.
  if (keptAs) makePrivate(sqliteSiblings(keptAs));
  for (const f of siblings(dbPath).slice(1)) fs.rmSync(f, { force: true });
  if (fs.existsSync(`${staged}-wal`)) fs.renameSync(`${staged}-wal`, `${dbPath}-wal`);
  fs.rmSync(`${staged}-shm`, { force: true });
  fs.renameSync(staged, dbPath);
  return { backup, database: dbPath, keptAs, ...counts, ms: Math.round(performance.now() - started) };
}

/** The backup must be a sound SQLite file with Manzil's outbox in it. */
function inspectBackup(file: string): { migrations: number } {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const verdict = db.pragma('integrity_check', { simple: true });
    if (verdict !== 'ok')
      throw new RestoreError(`${file} failed SQLite's integrity check (${String(verdict)}): nothing was changed`);
    if (!tableExists(db, 'outbox') || !tableExists(db, 'saved_search'))
      throw new RestoreError(
        `${file} is an SQLite file but not a Manzil database (it has no outbox): nothing was changed`,
      );
    return { migrations: migrationCount(db) };
  } catch (e) {
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(`${file} is not a Manzil database (${message(e)}): nothing was changed`);
  } finally {
    db?.close();
  }
}

interface Current {
  exists: boolean;
  /** Its fencing counter, so tokens in the restored database never repeat one an instance of it may still hold. */
  generation: number;
}

/** Refuses while an instance's heartbeat is fresh (or when that cannot be known), unless forced. */
function inspectCurrent(dbPath: string, at: number, force: boolean): Current {
  if (!fs.existsSync(dbPath)) return { exists: false, generation: 0 };
  let db: Database.Database | undefined;
  let running: RunningInstance[];
  let generation = 0;
  try {
    db = new Database(dbPath, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    running = runningInstances(db, at);
    if (tableExists(db, 'db_meta'))
      generation =
        Number(
          (db.prepare("SELECT value FROM db_meta WHERE key = 'generation'").get() as { value: string } | undefined)
            ?.value ?? 0,
        ) || 0;
  } catch (e) {
    if (!force) {
      throw new RestoreError(
        `the current database (${dbPath}) cannot be read (${message(e)}), so whether Manzil runs on it cannot be checked: stop Manzil, then add --force`,
      );
    }
    return { exists: true, generation: 0 };
  } finally {
    db?.close();
  }
  if (running.length > 0 && !force) {
    throw new RestoreError(
      `${runningOn(dbPath, running[0]!, at)}: stop it first, then restore (or add --force if it is surely gone)`,
    );
  }
  return { exists: true, generation };
}

/** Upgrades the staged copy and marks it restored, in one transaction; returns what it holds. */
function prepare(
  file: string,
  migrationsBefore: number,
  currentGeneration: number,
  at: number,
): Omit<RestoreReport, 'backup' | 'database' | 'keptAs' | 'ms'> {
  let store: Store;
  try {
    store = openStore(file);
  } catch (e) {
    throw new RestoreError(
      `the backup could not be upgraded to this release (the current database is untouched): ${message(e)}`,
    );
  }
  try {
    const { db, sqlite } = store;
    const { outbox, instance, jobLease, dbMeta, standingOrder } = schema;
    const alert = eq(standingOrder.kind, 'alert');
    const result = sqlite
      .transaction(() => {
        const dbId = renewDbId(sqlite);
        // The backup's newest write: facts the replaced database queued after it may have been posted since.
        const backupAt = Math.max(
          db
            .select({ t: sql<number | null>`max(max(${outbox.createdAt}, coalesce(${outbox.deliveredAt}, 0)))` })
            .from(outbox)
            .get()?.t ?? 0,
          db
            .select({
              t: sql<number | null>`max(coalesce(${standingOrder.lastRunAt}, ${standingOrder.createdAt}))`,
            })
            .from(standingOrder)
            .where(alert)
            .get()?.t ?? 0,
        );
        markRestored(sqlite, { at, backupAt });
        const toLookFor = db
          .update(outbox)
          .set({
            state: 'pending',
            claimedBy: null,
            claimedUntil: null,
            claimToken: null,
            maybeDelivered: true,
            nextAttemptAt: sql`min(${outbox.nextAttemptAt}, ${at})`,
            uncertainSince: sql`coalesce(${outbox.uncertainSince}, ${outbox.firstAttemptAt}, ${outbox.createdAt})`,
          })
          .where(inArray(outbox.state, UNDELIVERED))
          .run().changes;
        const parked = db.update(outbox).set({ maybeDelivered: true }).where(eq(outbox.state, 'failed')).run().changes;
        db.delete(instance).run();
        db.update(jobLease).set({ until: 0 }).run();
        // Fencing tokens go on from beyond both databases' counters.
        db.update(dbMeta)
          .set({ value: sql`max(cast(${dbMeta.value} as integer), ${currentGeneration})` })
          .where(eq(dbMeta.key, 'generation'))
          .run();
        const alerts = db
          .select({ n: sql<number>`count(*)` })
          .from(standingOrder)
          .where(alert)
          .get()!.n;
        return { dbId, toLookFor, parked, alerts };
      })
      .immediate();
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return { ...result, migrationsApplied: migrationCount(sqlite) - migrationsBefore };
  } finally {
    store.close();
  }
}

/** Moves the database (with its -wal and -shm, checkpointed first when it can be) to `<db>.before-restore-<time>`. */
function keepAside(dbPath: string, at: number): string {
  try {
    const db = new Database(dbPath, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } catch {
    // Unreadable (that may be why it is restored): its files are moved as they are, together.
  }
  const stamp = new Date(at)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
  let aside = `${dbPath}.before-restore-${stamp}`;
  for (let n = 2; siblings(aside).some((f) => fs.existsSync(f)); n++) aside = `${dbPath}.before-restore-${stamp}-${n}`;
  for (const [from, to] of siblings(dbPath).map((f, i) => [f, siblings(aside)[i]!] as const))
    if (fs.existsSync(from)) fs.renameSync(from, to);
  return aside;
}

/** The command: `manzil restore <file> [--force] [--json]`. */
export async function runRestoreCli(
  args: string[],
  dbPath: string,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const force = args.includes('--force');
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--force' && a !== '--json');
  if (files.length !== 1 || files[0]!.startsWith('-')) {
    err(
      'Usage: manzil restore <file> [--force] [--json]   (puts a backup in place of the database; stop Manzil first)',
    );
    return 2;
  }
  try {
    const r = await restoreDatabase(files[0]!, path.resolve(dbPath), { force });
    if (json) {
      out(JSON.stringify(r));
    } else {
      out(
        `Restored ${r.backup} into ${r.database}${r.keptAs ? ` (the database it replaced is kept as ${r.keptAs})` : ''}: ` +
          `${countOf(r.toLookFor, 'undelivered entry', 'undelivered entries')} to look for on the platform before sending, ${countOf(r.parked, 'parked entry', 'parked entries')}, ` +
          `${countOf(r.alerts, 'saved search', 'saved searches')}${r.migrationsApplied > 0 ? `, upgraded by ${countOf(r.migrationsApplied, 'migration')}` : ''}; new database id ${r.dbId}. Start Manzil again.`,
      );
    }
    return 0;
  } catch (e) {
    if (!(e instanceof RestoreError)) throw e;
    err(`manzil restore: ${e.message}`);
    return 1;
  }
}
