// A new, empty Postgres database per test, on the run's embedded Postgres (postgres-global.ts). Names carry the
// worker's pid, a counter and random digits, so the parallel workers never collide.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { TEMPLATE } from './postgres-global.js';

let counter = 0;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes a database of its own for a test, migrated (`empty`: with no table, for the tests of migrating itself);
 * `drop()` ends its connections and removes it.
 */
export async function freshPostgres(o: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`;
  // A copy of the migrated template (postgres-global.ts). FILE_COPY: with fsync off, copying its files is quicker than
  // writing them through the WAL.
  await admin((client) =>
    client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${o.empty ? 'template1' : TEMPLATE} STRATEGY FILE_COPY`,
    ),
  );
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}
