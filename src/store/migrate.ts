// Applies drizzle-kit migrations without losing rows.
// drizzle's own migrate() wraps everything in one transaction, where SQLite ignores `PRAGMA foreign_keys=OFF`,
// so a generated table rebuild (DROP TABLE parent) would cascade-delete the children. It also commits before
// anything can be checked. So this runner turns foreign keys off outside the transaction, applies the pending
// migrations, runs `foreign_key_check` before COMMIT, and rolls everything back if a reference dangles.
// Bookkeeping is drizzle's own (`__drizzle_migrations`: hash, created_at = the journal's `when`), so databases
// migrated by drizzle's migrate() or drizzle-kit are recognised.
import type Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';

const TABLE = '__drizzle_migrations';

export interface Violation {
  /** The table holding rows that point at missing rows. */
  table: string;
  /** The table they point at. */
  parent: string;
  rows: number;
}

export class ForeignKeyViolationError extends Error {
  override readonly name = 'ForeignKeyViolationError';
  constructor(readonly violations: Violation[]) {
    super(
      'Migration rolled back: it would leave rows pointing at missing rows (' +
        violations.map((v) => `${v.table}: ${v.rows} row${v.rows === 1 ? '' : 's'} -> ${v.parent}`).join('; ') +
        '). The database is unchanged; fix the migration.',
    );
  }
}

/** Applies the pending migrations in `folder`; returns how many were applied. */
export function applyMigrations(sqlite: Database.Database, folder: string): number {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  sqlite.exec(`CREATE TABLE IF NOT EXISTS "${TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
  const foreignKeys = sqlite.pragma('foreign_keys', { simple: true }) as number;
  // Only takes effect outside a transaction.
  sqlite.pragma('foreign_keys = OFF');
  try {
    // IMMEDIATE: a second process starting at the same time waits here, then sees what the first applied.
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      const last = sqlite.prepare(`SELECT created_at FROM "${TABLE}" ORDER BY created_at DESC LIMIT 1`).get() as
        { created_at: number | string } | undefined;
      const pending = migrations.filter((m) => last === undefined || Number(last.created_at) < m.folderMillis);
      const record = sqlite.prepare(`INSERT INTO "${TABLE}" (hash, created_at) VALUES (?, ?)`);
      for (const migration of pending) {
        for (const statement of migration.sql) if (statement.trim() !== '') sqlite.exec(statement);
        record.run(migration.hash, migration.folderMillis);
      }
      const violations = pending.length > 0 ? foreignKeyViolations(sqlite) : [];
      if (violations.length > 0) throw new ForeignKeyViolationError(violations);
      sqlite.exec('COMMIT');
      return pending.length;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  } finally {
    sqlite.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}

function foreignKeyViolations(sqlite: Database.Database): Violation[] {
  const rows = sqlite.pragma('foreign_key_check') as { table: string; parent: string }[];
  const counts = new Map<string, Violation>();
  for (const { table, parent } of rows) {
    const key = `${table}\u0000${parent}`;
    const entry = counts.get(key) ?? { table, parent, rows: 0 };
    entry.rows += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}
