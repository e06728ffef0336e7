// The database an operator command (`manzil outbox`, `manzil teams`) works on, beside a running Manzil: Postgres when
// DATABASE_URL is set, else the SQLite file at MANZIL_DB_PATH, which must exist (a command never makes an empty one).
import fs from 'node:fs';
import type { Config } from '../config.js';
import { openDatabase, type Database } from '../store/index.js';

/** Where the store is: the SQLite file, or Postgres (only its URL and pool matter to a command). */
export type Where = Pick<Config, 'dbPath'> & { postgres?: { url: string; poolSize: number } | undefined };

/**
 * Runs `use` on the database, closed afterwards; undefined (with the reason said on `err`) when there is none to open.
 */
export async function withDatabase<T>(
  command: string,
  where: Where,
  err: (line: string) => void,
  use: (db: Database) => Promise<T>,
): Promise<T | undefined> {
  if (!where.postgres) {
    if (where.dbPath === ':memory:' || where.dbPath === '') {
      err(`${command}: the database is in memory (MANZIL_DB_PATH=:memory:): only the running Manzil sees it`);
      return undefined;
    }
    if (!fs.existsSync(where.dbPath)) {
      err(`${command}: there is no database at ${where.dbPath} (MANZIL_DB_PATH)`);
      return undefined;
    }
  }
  const db = await openDatabase({ dbPath: where.dbPath, postgres: where.postgres, poolSizeAtMost: 2 });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

/**
 * For the commands that copy the SQLite file (`manzil backup`, `manzil restore`): true, with the reason said on `err`,
 * when the database is Postgres, whose own tools (pg_dump, pg_restore, point-in-time recovery) do that job.
 */
export function refusedOnPostgres(command: string, where: Where, err: (line: string) => void): boolean {
  if (!where.postgres) return false;
  err(
    `${command}: the database is Postgres (DATABASE_URL): back it up and restore it with pg_dump and pg_restore; this command copies the SQLite file (MANZIL_DB_PATH)`,
  );
  return true;
}
