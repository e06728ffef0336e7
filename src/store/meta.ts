// The database's own facts (db_meta): its random id, and the counter behind fencing tokens.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

const ids = new WeakMap<Database.Database, string>();

const read = (sqlite: Database.Database, key: string): string | undefined =>
  (sqlite.prepare(`SELECT value FROM db_meta WHERE key = ?`).get(key) as { value: string } | undefined)?.value;

/**
 * The database's lineage: random, made at its creation and kept by a restore (a restored database carries on the same
 * conversation with the platforms). Delivery ids are made of it and the fact they deliver (the dedupe key), so the
 * same fact queued again after a restore carries the same id and is found on the platform, not posted twice.
 * The outbox's enqueue reads it in SQL (./outbox.ts); tests read it here.
 * @internal
 */
export function readLineage(sqlite: Database.Database): string {
  return read(sqlite, 'lineage') ?? readDbId(sqlite);
}

/** When this database was restored from a backup, and when that backup's newest write was. */
export function readRestore(sqlite: Database.Database): { at: number; backupAt: number } | undefined {
  const at = read(sqlite, 'restored_at');
  return at === undefined ? undefined : { at: Number(at), backupAt: Number(read(sqlite, 'backup_at') ?? 0) };
}

/** Records a restore (call inside the restore's transaction). */
export function markRestored(sqlite: Database.Database, restore: { at: number; backupAt: number }): void {
  const put = sqlite.prepare(
    `INSERT INTO db_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  put.run('restored_at', String(restore.at));
  put.run('backup_at', String(restore.backupAt));
}

/** The database's random id, made at its creation (and anew by a restore): part of every delivery id. */
export function readDbId(sqlite: Database.Database): string {
  let id = ids.get(sqlite);
  if (id === undefined) {
    id =
      (sqlite.prepare(`SELECT value FROM db_meta WHERE key = 'db_id'`).get() as { value: string } | undefined)?.value ??
      '';
    ids.set(sqlite, id);
  }
  return id;
}

/** A new random id for this database: delivery ids written from now on can never match an older database's. */
export function renewDbId(sqlite: Database.Database): string {
  const id = randomBytes(5).toString('hex');
  sqlite
    .prepare(
      `INSERT INTO db_meta (key, value) VALUES ('db_id', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    )
    .run(id);
  ids.set(sqlite, id);
  return id;
}

/** The next fencing token: increasing, never reused in this database. Call inside the transaction that uses it. */
export function nextGeneration(sqlite: Database.Database): number {
  const row = sqlite
    .prepare(
      `INSERT INTO db_meta (key, value) VALUES ('generation', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
    )
    .get() as { value: string | number };
  return Number(row.value);
}
