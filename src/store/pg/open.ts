// Opens the store on Postgres: a connection pool, and every pending migration of migrations/postgres applied once, however
// many instances start at the same time (they queue on an advisory lock; each then sees what the first applied).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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

// As in ../db.ts: migrations/postgres/ sits next to the nearest package.json above, from src/ (tsx) or dist/src/ alike.
function findMigrations(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('migrations: no package.json above src/store/pg; pass migrationsFolder');
    dir = parent;
  }
  return path.join(dir, 'migrations', 'postgres');
}

let defaultMigrations: string | undefined;

export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // Without a listener an idle client's error (the server ended the connection) would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  try {
    await applyMigrations(pool, options.migrationsFolder ?? (defaultMigrations ??= findMigrations()));
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  let closed: Promise<void> | undefined;
  // Once: a second close waits for the first.
  return { db: drizzle({ client: pool, schema }), pool, close: () => (closed ??= pool.end()) };
}

/** Applies the pending migrations on one connection that holds the migration lock throughout. */
async function applyMigrations(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  // A checked-out client's error is not the pool's: the failing query rejects, and this keeps the event from crashing.
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
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
