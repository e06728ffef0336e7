// A part of vitest's global setup (./global-setup.ts): one embedded Postgres for the whole run
// (./embedded-postgres.ts), stopped and removed afterwards.
// Tests get its admin URL with inject('postgresUrl') and make a database each (./postgres.ts).
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPgStore } from '../../src/store/pg/open.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin connection URL of the run's Postgres (database `postgres`). */
    postgresUrl: string;
  }
}

/**
 * The template the test databases are copied from (test/support/postgres.ts): made here, with every migration applied.
 */
export const TEMPLATE = 'manzil_template';

async function migratedTemplate(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE}`;
  const store = await openPgStore(url.toString(), { poolSize: 1 });
  await store.close();
}

export async function setUpPostgres(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startEmbeddedPostgres();
  project.provide('postgresUrl', postgres.adminUrl);
  // One database migrated once: each test's database is a copy of it (CREATE DATABASE ... TEMPLATE), which takes a few
  // milliseconds where migrating a new one takes hundreds. openPgStore still checks the migrations on each.
  try {
    await migratedTemplate(postgres.adminUrl);
  } catch (error) {
    await postgres.stop().catch(() => undefined);
    throw error;
  }
  return () => postgres.stop();
}
