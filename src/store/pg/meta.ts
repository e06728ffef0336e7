// The database's own facts (db_meta) on Postgres, as ../meta.ts on SQLite: its lineage, a restore's record, and the
// counter behind fencing tokens. Each takes a runner, so it takes part in its caller's transaction.
import { sql } from 'drizzle-orm';
import type { PgRunner } from './tx.js';

const one = async <T>(r: PgRunner, query: ReturnType<typeof sql>): Promise<T | undefined> =>
  (await r.execute(query)).rows[0] as T | undefined;

const read = async (r: PgRunner, key: string): Promise<string | undefined> =>
  (await one<{ value: string }>(r, sql`SELECT value FROM db_meta WHERE key = ${key}`))?.value;

/**
 * The lineage as an SQL expression (the db id when no lineage was recorded, as ../meta.ts falls back): a statement
 * that needs it reads it itself, one round trip instead of two.
 */
export const lineageSql = sql`coalesce((SELECT value FROM db_meta WHERE key = 'lineage'), (SELECT value FROM db_meta WHERE key = 'db_id'), '')`;

/** When this database was restored from a backup, and when that backup's newest write was. */
export async function readRestore(r: PgRunner): Promise<{ at: number; backupAt: number } | undefined> {
  const at = await read(r, 'restored_at');
  return at === undefined ? undefined : { at: Number(at), backupAt: Number((await read(r, 'backup_at')) ?? 0) };
}

/**
 * The next fencing token: increasing, never reused in this database. One atomic upsert: concurrent callers queue on
 * the row's lock, each adding to the value the one before committed, so no two committed transactions get the same
 * token. The row stays locked until the caller's transaction ends: call it late in the transaction.
 */
export async function nextGeneration(r: PgRunner): Promise<number> {
  const row = await one<{ value: string }>(
    r,
    sql`INSERT INTO db_meta (key, value) VALUES ('generation', '1')
        ON CONFLICT (key) DO UPDATE SET value = (CAST(db_meta.value AS bigint) + 1)::text RETURNING value`,
  );
  return Number(row!.value);
}
