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

// Found from this file, so it works from any working directory, and from src/ (tsx) or dist/src/ (compiled) alike:
// migrations/ sits next to the nearest package.json above.
function findMigrations(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('migrations: no package.json above src/store; pass migrationsFolder');
    dir = parent;
  }
  return path.join(dir, 'migrations');
}

let defaultMigrations: string | undefined;

export function openStore(file: string, options: { migrationsFolder?: string } = {}): Store {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    // In WAL mode NORMAL survives any process crash; only an OS crash or power cut can lose the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    applyMigrations(sqlite, options.migrationsFolder ?? (defaultMigrations ??= findMigrations()));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { db: drizzle(sqlite, { schema }), sqlite, close: () => sqlite.close() };
}
