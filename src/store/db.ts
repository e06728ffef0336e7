// Opens the SQLite file: WAL, a busy timeout, foreign keys on, and every pending migration applied.
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrationsFolder } from './migrations-folder.js';
import { applyMigrations } from './migrate.js';
import { prepareDatabaseFile } from './private-files.js';
import * as schema from './schema.js';
import type { WriteLock } from './write-lock.js';

export interface Store {
  db: BetterSQLite3Database<typeof schema>;
  sqlite: Database.Database;
  close(): void;
}

export interface StoreOptions {
  migrationsFolder?: string;
  /** Taken around every write, when several threads of this process write to the file (see write-lock.ts). */
  writeLock?: WriteLock;
}

export function openStore(file: string, options: StoreOptions = {}): Store {
  const inMemory = file === ':memory:' || file === '';
  // Created 0600 before SQLite opens it, so its -wal and -shm are 0600 too; an older, wider file is narrowed.
  if (!inMemory) prepareDatabaseFile(file);
  const sqlite = new Database(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    // In WAL mode NORMAL survives any process crash; only an OS crash or power cut can lose the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // A checkpoint (copying the WAL into the file, with an fsync) every 10,000 pages, not SQLite's 1,000: a busy alerts
    // run dirties thousands of pages a commit, and checkpointing every other commit was a fifth of its writing time
    // (docs/benchmarks.md). The WAL is cut back to 64 MB after each.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('journal_size_limit = 67108864');
    applyMigrations(sqlite, options.migrationsFolder ?? migrationsFolder('sqlite'));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  if (options.writeLock) guardWrites(sqlite, options.writeLock);
  return { db: drizzle(sqlite, { schema }), sqlite, close: () => sqlite.close() };
}

/**
 * Every write of this connection under `lock`: transactions (drizzle's too), statements that write, and exec. Reads
 * take no lock (WAL lets them run beside a write).
 */
function guardWrites(sqlite: Database.Database, lock: WriteLock): void {
  const under =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R =>
      lock.run(() => f(...args));
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.readonly) return statement;
    statement.run = under(statement.run.bind(statement));
    statement.get = under(statement.get.bind(statement));
    statement.all = under(statement.all.bind(statement));
    return statement;
  }) as typeof sqlite.prepare;
  const transaction = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const t = transaction(fn);
    return Object.assign(under(t), {
      default: under(t.default),
      deferred: under(t.deferred),
      immediate: under(t.immediate),
      exclusive: under(t.exclusive),
    });
  }) as typeof sqlite.transaction;
  const exec = sqlite.exec.bind(sqlite);
  sqlite.exec = (source: string) => lock.run(() => exec(source));
}
