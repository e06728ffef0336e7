// Opens the SQLite file: WAL, a busy timeout, foreign keys on, and every pending migration applied.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { applyMigrations } from './migrate.js';
import * as schema from './schema.js';

export interface Store {
  db: BetterSQLite3Database<typeof schema>;
  sqlite: Database.Database;
  close(): void;
}

// Resolved from this file, so it works from any working directory.
const DEFAULT_MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

export function openStore(file: string, options: { migrationsFolder?: string } = {}): Store {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    applyMigrations(sqlite, options.migrationsFolder ?? DEFAULT_MIGRATIONS);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { db: drizzle(sqlite, { schema }), sqlite, close: () => sqlite.close() };
}
