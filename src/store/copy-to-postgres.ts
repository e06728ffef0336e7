// Copies a SQLite database into Postgres (`manzil migrate-to-postgres`): every table, rows, ids and all, in one
// Postgres transaction, so a failure leaves nothing half copied. The Postgres database carries on the SQLite one: its
// lineage (delivery ids the platforms already hold) and its fencing counter come along, so nothing already posted is
// posted again and no alert starts over with a silent first look. Safe to run twice: a row already there is kept.
import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Store } from './db.js';
import type { PgStore } from './pg/open.js';
import type { PgTx } from './pg/tx.js';
import * as pgSchema from './pg/schema.js';
import * as sqliteSchema from './schema.js';

export interface TableCount {
  table: string;
  sqlite: number;
  postgres: number;
  /** Rows this run wrote (0 on a second run). */
  copied: number;
}

const CHUNK = 500;

/** Postgres's tables, each after the tables it points at (saved searches before what they have seen and their entries). */
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

export async function copyToPostgres(from: Store, to: PgStore): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  await to.db.transaction(async (tx) => {
    for (const table of tablesInOrder()) {
      const name = getTableName(table);
      const rows = from.db.select().from(sqliteTableNamed(name)).all() as Record<string, unknown>[];
      let copied = 0;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        if (table === pgSchema.dbMeta) copied += await copyMeta(tx, chunk);
        else copied += (await tx.insert(table).values(chunk).onConflictDoNothing()).rowCount ?? 0;
      }
      await followIdentity(tx, table);
      const [{ n }] = (await tx.select({ n: sql<number>`count(*)::int` }).from(table)) as [{ n: number }];
      counts.push({ table: name, sqlite: rows.length, postgres: n, copied });
    }
  });
  return counts;
}

/**
 * The database's own facts come from SQLite, replacing the ones a new Postgres database made for itself: its lineage
 * and id (delivery ids), its restore marks; the fencing counter only ever grows.
 */
async function copyMeta(tx: PgTx, rows: Record<string, unknown>[]): Promise<number> {
  let n = 0;
  for (const row of rows as { key: string; value: string }[]) {
    const value = row.key === 'generation' ? sql`greatest(cast(${pgSchema.dbMeta.value} as bigint), cast(excluded.value as bigint))::text` : sql`excluded.value`;
    // Written only when it changes the value, so a second run counts nothing copied.
    const r = await tx
      .insert(pgSchema.dbMeta)
      .values(row)
      .onConflictDoUpdate({ target: pgSchema.dbMeta.key, set: { value }, setWhere: sql`${pgSchema.dbMeta.value} is distinct from ${value}` });
    n += r.rowCount ?? 0;
  }
  return n;
}

/** An identity column's next value after the copied ids, so the next row made on Postgres does not collide. */
async function followIdentity(tx: PgTx, table: PgTable): Promise<void> {
  const name = getTableName(table);
  for (const column of Object.values(getTableColumns(table))) {
    if (!column.generatedIdentity) continue;
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence(${name}, ${column.name}), greatest((SELECT max(${sql.identifier(column.name)}) FROM ${sql.identifier(name)}), 1), (SELECT count(*) > 0 FROM ${sql.identifier(name)}))`,
    );
  }
}
