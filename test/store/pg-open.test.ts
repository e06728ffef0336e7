// Opening the store on Postgres: the repo's migrations make every table, once, however many instances start together;
// an idle connection that the server ends does not crash the process.
import fs from 'node:fs';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../src/store/pg/open.js';
import * as pgSchema from '../../src/store/pg/schema.js';
import { freshPostgres } from '../support/postgres.js';

const journal = JSON.parse(
  fs.readFileSync(new URL('../../migrations/postgres/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: unknown[] };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<string> {
  const { url, drop } = await freshPostgres({ empty: true });
  cleanups.push(drop);
  return url;
}

async function open(url: string, options: Parameters<typeof openPgStore>[1] = {}): Promise<PgStore> {
  const store = await openPgStore(url, options);
  // Runs before the database's drop (cleanups run in reverse).
  cleanups.push(() => store.close());
  return store;
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const applied = (url: string) =>
  query<{ id: number; hash: string }>(url, 'SELECT id, hash FROM drizzle.__drizzle_migrations ORDER BY id');

describe('openPgStore', () => {
  it('creates every table of the Postgres schema', async () => {
    const url = await database();
    const store = await open(url);
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const expected = Object.values(pgSchema)
      .filter((value) => value instanceof PgTable)
      .map((table) => getTableConfig(table).name);
    expect(tables.map((t) => t.table_name).sort()).toEqual(expected.sort());
    // Times are bigint and read back as numbers.
    const now = Date.now();
    await store.db
      .insert(pgSchema.buttonState)
      .values({ token: 't', kind: 'k', payload: '{}', createdAt: now, lastUsedAt: now });
    expect(await store.db.select().from(pgSchema.buttonState)).toEqual([
      {
        token: 't',
        service: '',
        scope: '',
        kind: 'k',
        payload: '{}',
        payloadHash: null,
        createdAt: now,
        lastUsedAt: now,
      },
    ]);
  });

  it('applies nothing when opened again', async () => {
    const url = await database();
    await (await open(url)).close();
    const first = await applied(url);
    expect(first).toHaveLength(journal.entries.length);
    await open(url);
    expect(await applied(url)).toEqual(first);
  });

  it('applies each migration once when three instances start at the same time', async () => {
    const url = await database();
    const stores = await Promise.all([open(url), open(url), open(url)]);
    expect(stores).toHaveLength(3);
    const rows = await applied(url);
    expect(rows).toHaveLength(journal.entries.length);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(journal.entries.length);
  });

  it('survives the server ending an idle connection, and tells onError', async () => {
    const { url, drop } = await freshPostgres({ empty: true });
    const errors: Error[] = [];
    const store = await openPgStore(url, { onError: (error) => errors.push(error) });
    try {
      await store.pool.query('SELECT 1');
      expect(store.pool.idleCount).toBeGreaterThan(0);
      // Ends every connection to the database, the pool's idle one included.
      await drop();
      await expect.poll(() => errors.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
