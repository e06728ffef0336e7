// The database's own facts (db_meta): its random id, and the counter behind fencing tokens.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

const ids = new WeakMap<Database.Database, string>();

/** The database's random id, made at its creation (and anew by a restore): part of every delivery id. */
export function readDbId(sqlite: Database.Database): string {
  let id = ids.get(sqlite);
  if (id === undefined) {
    id = (sqlite.prepare(`SELECT value FROM db_meta WHERE key = 'db_id'`).get() as { value: string } | undefined)?.value ?? '';
    ids.set(sqlite, id);
  }
  return id;
}

/** A new random id for this database: delivery ids written from now on can never match an older database's. */
export function renewDbId(sqlite: Database.Database): string {
  const id = randomBytes(5).toString('hex');
  sqlite.prepare(`INSERT INTO db_meta (key, value) VALUES ('db_id', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(id);
  ids.set(sqlite, id);
  return id;
}

/** The next fencing token: increasing, never reused in this database. Call inside the transaction that uses it. */
export function nextGeneration(sqlite: Database.Database): number {
  const row = sqlite
    .prepare(`INSERT INTO db_meta (key, value) VALUES ('generation', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`)
    .get() as { value: string | number };
  return Number(row.value);
}
