// `manzil migrate-to-postgres`: copies the SQLite file (MANZIL_DB_PATH) into the Postgres database (DATABASE_URL),
// alerts, what they have seen, the outbox and all, then says each table's counts. Safe to run twice.
import fs from 'node:fs';
import type { Where } from './database.js';
import { copyToPostgres, openPgStore, openStore, type TableCount } from '../store/index.js';

type Out = (line: string) => void;

export async function runMigrateToPostgresCli(args: string[], config: Where, out: Out, err: Out): Promise<number> {
  if (args.length > 0) {
    err('Usage: manzil migrate-to-postgres   (copies MANZIL_DB_PATH into DATABASE_URL; stop Manzil first)');
    return 2;
  }
  if (!config.postgres) {
    err('manzil migrate-to-postgres: DATABASE_URL is not set: set it to the Postgres database to copy into (postgres://user:password@host:5432/manzil)');
    return 1;
  }
  if (config.dbPath === ':memory:' || !fs.existsSync(config.dbPath)) {
    err(`manzil migrate-to-postgres: there is no database at ${config.dbPath} (MANZIL_DB_PATH) to copy`);
    return 1;
  }
  const from = openStore(config.dbPath);
  try {
    const to = await openPgStore(config.postgres.url, { poolSize: 1 });
    try {
      const counts = await copyToPostgres(from, to);
      for (const line of report(counts)) out(line);
      const short = counts.filter((c) => c.postgres < c.sqlite);
      if (short.length > 0) {
        err(`manzil migrate-to-postgres: fewer rows in Postgres than in SQLite for ${short.map((c) => c.table).join(', ')}`);
        return 1;
      }
      return 0;
    } finally {
      await to.close();
    }
  } finally {
    from.close();
  }
}

function report(counts: readonly TableCount[]): string[] {
  const width = Math.max(...counts.map((c) => c.table.length), 5);
  const copied = counts.reduce((n, c) => n + c.copied, 0);
  return [
    `  ${'table'.padEnd(width)}  ${'sqlite'.padStart(7)}  ${'postgres'.padStart(8)}  ${'copied'.padStart(7)}`,
    ...counts.map((c) => `  ${c.table.padEnd(width)}  ${String(c.sqlite).padStart(7)}  ${String(c.postgres).padStart(8)}  ${String(c.copied).padStart(7)}`),
    copied === 0
      ? 'Nothing to copy: Postgres has every row already. Start Manzil with DATABASE_URL.'
      : `Copied ${copied} rows into Postgres. Start Manzil with DATABASE_URL; keep the SQLite file as a backup until you are sure.`,
  ];
}
