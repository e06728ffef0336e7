// The Postgres schema mirrors the SQLite one: the same tables exported under the same names, with the same row types
// (checked by tsc, and by vitest in typecheck mode), and the same SQL names, defaults, keys, indexes and references.
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as pgSchema from '../../src/store/pg/schema.js';
import * as sqliteSchema from '../../src/store/schema.js';

type Tables<S, T> = { [K in keyof S as S[K] extends T ? K : never]: S[K] };
type Selected<S, T> = { [K in keyof Tables<S, T>]: Tables<S, T>[K] extends { $inferSelect: infer R } ? R : never };
type Inserted<S, T> = { [K in keyof Tables<S, T>]: Tables<S, T>[K] extends { $inferInsert: infer R } ? R : never };

/** What a table is made of, by SQL name, in a form both dialects share. */
function shape(config: {
  name: string;
  columns: { name: string; notNull: boolean; primary: boolean; default?: unknown }[];
  primaryKeys: { columns: { name: string }[] }[];
  indexes: { config: { name?: string; unique: boolean; columns: unknown[] } }[];
  foreignKeys: {
    onDelete?: string | undefined;
    reference(): { columns: { name: string }[]; foreignTable: unknown; foreignColumns: { name: string }[] };
  }[];
}) {
  const columnName = (c: unknown) => (c as { name: string }).name;
  return {
    name: config.name,
    columns: Object.fromEntries(
      config.columns.map((c) => [c.name, { notNull: c.notNull, primary: c.primary, default: c.default }]),
    ),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map(columnName)),
    indexes: Object.fromEntries(
      config.indexes.map((i) => [
        i.config.name,
        { unique: i.config.unique, columns: i.config.columns.map(columnName) },
      ]),
    ),
    foreignKeys: config.foreignKeys.map((fk) => {
      const reference = fk.reference();
      const table =
        reference.foreignTable instanceof PgTable
          ? pgTableConfig(reference.foreignTable)
          : sqliteTableConfig(reference.foreignTable as SQLiteTable);
      return {
        columns: reference.columns.map(columnName),
        table: table.name,
        foreignColumns: reference.foreignColumns.map(columnName),
        onDelete: fk.onDelete,
      };
    }),
  };
}

const sqliteTables = Object.entries(sqliteSchema).flatMap(([name, value]): [string, SQLiteTable][] =>
  value instanceof SQLiteTable ? [[name, value]] : [],
);
const pgTables = Object.entries(pgSchema).flatMap(([name, value]): [string, PgTable][] =>
  value instanceof PgTable ? [[name, value]] : [],
);

describe('the Postgres schema', () => {
  it('has the row types of the SQLite schema, table for table', () => {
    expectTypeOf<Selected<typeof pgSchema, PgTable>>().toEqualTypeOf<Selected<typeof sqliteSchema, SQLiteTable>>();
    expectTypeOf<Inserted<typeof pgSchema, PgTable>>().toEqualTypeOf<Inserted<typeof sqliteSchema, SQLiteTable>>();
    // One spelled out, so a failure of the above can be read against it.
    expectTypeOf<typeof pgSchema.outbox.$inferSelect>().toEqualTypeOf<typeof sqliteSchema.outbox.$inferSelect>();
  });

  it('exports the same tables', () => {
    expect(sqliteTables.length).toBeGreaterThan(10);
    expect(pgTables.map(([name]) => name).sort()).toEqual(sqliteTables.map(([name]) => name).sort());
  });

  it.each(sqliteTables)('%s has the same SQL name and columns', (name, table) => {
    const twin = (pgSchema as Record<string, unknown>)[name];
    expect(twin).toBeInstanceOf(PgTable);
    const pg = pgTableConfig(twin as PgTable);
    const sqlite = sqliteTableConfig(table);
    expect(pg.name).toBe(sqlite.name);
    expect(new Set(pg.columns.map((c) => c.name))).toEqual(new Set(sqlite.columns.map((c) => c.name)));
    // And the same nullability, defaults, keys, indexes (names included) and references.
    expect(shape(pg)).toEqual(shape(sqlite));
  });
});
