// Copies a SQLite database into Postgres (`manzil migrate-to-postgres`): every table, rows, ids and all, in one
// Postgres transaction, so a failure leaves nothing half copied. The Postgres database carries on the SQLite one: its
// lineage (delivery ids the platforms already hold) and its fencing counter come along, so nothing already posted is
// posted again and no alert starts over with a silent first look.
// Only into an empty database: once Manzil has run on Postgres, a row missing there may have been removed there (an
// alert deleted, a delivered post pruned), and copying it again would bring it back. A database already in use gets a
// dry run instead: the same copy, rolled back, saying what it would have added.
import { getTableColumns, getTableName, is, sql, TransactionRollbackError } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Store } from './db.js';
import type { PgStore } from './pg/open.js';
import type { PgTx } from './pg/tx.js';
import * as pgSchema from './pg/schema.js';
import * as sqliteSchema from './schema.js';

export interface TableCount {
  table: string;
  sqlite: number;
  /** Rows in Postgres: after the copy, or as they are when nothing was copied. */
  postgres: number;
  /** Rows this copy wrote, or would have written into a database already in use. */
  copied: number;
  /** Those rows' primary keys (`id=3`, `search_id=1, property_id=p9`), in the order copied. */
  keys: string[];
}

export interface CopyResult {
  /** False: Postgres already held rows, so nothing was written and `counts` say what a copy would have changed. */
  applied: boolean;
  /** The tables that held rows before the copy (db_meta aside: every new database seeds it). */
  inUse: { table: string; rows: number }[];
  counts: TableCount[];
}

export interface CopyOptions {
  /** Runs just before the copy commits; what it throws rolls the copy back (the caller's last check). */
  beforeCommit?: () => void | Promise<void>;
}

const CHUNK = 500;

/**
 * Postgres's tables, each after the tables it points at (saved searches before what they have seen and their entries).
 */
function tablesInOrder(): PgTable[] {
  const tables = Object.values(pgSchema).filter((t) => is(t, PgTable)) as PgTable[];
  const parents = (t: PgTable) => getTableConfig(t).foreignKeys.map((fk) => fk.reference().foreignTable);
  const ordered: PgTable[] = [];
  const visit = (t: PgTable) => {
    if (ordered.includes(t)) return;
    for (const p of parents(t)) visit(p);
    ordered.push(t);
  };
  for (const t of tables) visit(t);
  return ordered;
}

const sqliteTableNamed = (name: string): SQLiteTable => {
  const table = Object.values(sqliteSchema).find((t) => is(t, SQLiteTable) && getTableName(t) === name);
  if (!table) throw new Error(`copy: the SQLite schema has no table ${name}`);
  return table as SQLiteTable;
};

/** A table's primary key columns, keyed by their property names (what `returning` takes and gives back). */
function keyColumns(table: PgTable): Record<string, PgColumn> {
  const columns = Object.entries(getTableColumns(table));
  // A composite key names its columns (objects of their own, not the table's).
  const composite = getTableConfig(table).primaryKeys[0]?.columns.map((c) => c.name);
  return Object.fromEntries(columns.filter(([, c]) => (composite ? composite.includes(c.name) : c.primary)));
}

const keyText = (key: Record<string, PgColumn>, row: Record<string, unknown>): string =>
  Object.entries(key)
    .map(([property, column]) => `${column.name}=${String(row[property])}`)
    .join(', ');

const countRows = async (tx: PgTx, table: PgTable): Promise<number> =>
  ((await tx.select({ n: sql<number>`count(*)::int` }).from(table)) as [{ n: number }])[0].n;

export async function copyToPostgres(from: Store, to: PgStore, options: CopyOptions = {}): Promise<CopyResult> {
  const tables = tablesInOrder();
  let result: CopyResult | undefined;
  try {
    await to.db.transaction(async (tx) => {
      const before = new Map<PgTable, number>();
      for (const table of tables) before.set(table, await countRows(tx, table));
      const inUse = tables
        .filter((t) => t !== pgSchema.dbMeta && before.get(t)! > 0)
        .map((t) => ({ table: getTableName(t), rows: before.get(t)! }));
      const applied = inUse.length === 0;
      const counts: TableCount[] = [];
      for (const table of tables) {
        const name = getTableName(table);
        const rows = from.db.select().from(sqliteTableNamed(name)).all() as Record<string, unknown>[];
        const key = keyColumns(table);
        const keys: string[] = [];
        for (let i = 0; i < rows.length; i += CHUNK) {
          const chunk = rows.slice(i, i + CHUNK);
          const written: Record<string, unknown>[] =
            table === pgSchema.dbMeta
              ? await copyMeta(tx, chunk)
              : await tx.insert(table).values(chunk).onConflictDoNothing().returning(key);
          keys.push(...written.map((row) => keyText(key, row)));
        }
        // Not on a dry run: a sequence's setval is not undone by the rollback.
        if (applied) await followIdentity(tx, table, givenIds(from, name));
        counts.push({
          table: name,
          sqlite: rows.length,
          postgres: applied ? await countRows(tx, table) : before.get(table)!,
          copied: keys.length,
          keys,
        });
      }
      result = { applied, inUse, counts };
      if (!applied) tx.rollback();
      await options.beforeCommit?.();
    });
  } catch (e) {
    if (!(e instanceof TransactionRollbackError) || !result) throw e;
  }
  return result!;
}

/**
 * The database's own facts come from SQLite, replacing the ones a new Postgres database made for itself: its lineage
 * and id (delivery ids), its restore marks; the fencing counter only ever grows.
 */
async function copyMeta(tx: PgTx, rows: Record<string, unknown>[]): Promise<{ key: string }[]> {
  const written: { key: string }[] = [];
  for (const row of rows as { key: string; value: string }[]) {
    const value =
      row.key === 'generation'
        ? sql`greatest(cast(${pgSchema.dbMeta.value} as bigint), cast(excluded.value as bigint))::text`
        : sql`excluded.value`;
    // Written only when it changes the value, so a second run counts nothing copied.
    const r = await tx
      .insert(pgSchema.dbMeta)
      .values(row)
      .onConflictDoUpdate({
        target: pgSchema.dbMeta.key,
        set: { value },
        setWhere: sql`${pgSchema.dbMeta.value} is distinct from ${value}`,
      })
      .returning({ key: pgSchema.dbMeta.key });
    written.push(...r);
  }
  return written;
}

/**
 * An identity column's next value after the copied ids and after every id SQLite gave (`given`: its AUTOINCREMENT
 * counter, which counts removed rows too), so the next row made on Postgres neither collides nor takes a removed
 * row's id (a standing order's id is held by posted messages' buttons and keys).
 */
async function followIdentity(tx: PgTx, table: PgTable, given: number): Promise<void> {
  const name = getTableName(table);
  for (const column of Object.values(getTableColumns(table))) {
    if (!column.generatedIdentity) continue;
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence(${name}, ${column.name}), greatest((SELECT max(${sql.identifier(column.name)}) FROM ${sql.identifier(name)}), ${given}::int, 1), (SELECT count(*) > 0 FROM ${sql.identifier(name)}) OR ${given}::int > 0)`,
    );
  }
}

/** The last id SQLite's AUTOINCREMENT gave in `table` (0 when none). */
const givenIds = (from: Store, table: string): number =>
  (from.sqlite.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined)
    ?.seq ?? 0;
