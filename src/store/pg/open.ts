// Opens the store on Postgres: a connection pool, and every pending migration of migrations/postgres applied once,
// however
// many instances start at the same time (they queue on an advisory lock; each then sees what the first applied).
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from '../migrations-folder.js';
import * as schema from './schema.js';

export interface PgStore {
  db: NodePgDatabase<typeof schema>;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface PgStoreOptions {
  /** Connections at most (default 10). */
  poolSize?: number;
  migrationsFolder?: string;
  /** An idle connection failed (the server restarted, or ended it): the pool drops it and opens another when needed. */
  onError?: (error: Error) => void;
}

// Session-level, so it is held across drizzle's migration transaction; any fixed number no other code locks ('manzil').
const MIGRATION_LOCK = String(0x6d616e7a696c);

export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // Without a listener an idle client's error (the server ended the connection) would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  try {
    await applyMigrations(pool, options.migrationsFolder ?? migrationsFolder('postgres'));
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  let closed: Promise<void> | undefined;
  // Once: a second close waits for the first.
  return { db: drizzle({ client: pool, schema }), pool, close: () => (closed ??= pool.end()) };
}

/** Applies the pending migrations on one connection that holds the migration lock throughout. */
async function applyMigrations(pool: pg.Pool, folder: string): Promise<void> {
  const client = await pool.connect();
  // A checked-out client's error is not the pool's: the failing query rejects, and this keeps the event from crashing.
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: folder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((error: Error) => (broken = error));
    }
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    client.off('error', ignore);
    // A connection that failed, or may still hold the lock, is closed rather than returned (closing releases the lock).
    client.release(broken);
  }
}
