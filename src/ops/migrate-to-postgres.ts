// `manzil migrate-to-postgres`: copies the SQLite file (MANZIL_DB_PATH) into the Postgres database (DATABASE_URL),
// alerts, what they have seen, the outbox and all, then says each table's counts.
// - Refuses while Manzil runs on the SQLite file (what it writes after the copy would be lost), checked again just
//   before the copy commits.
// - Copies only into an empty database. Run again, into one in use, it changes nothing and says which rows a copy
//   would add: each may be one removed in Postgres since (an alert deleted, a delivered post pruned).
import fs from 'node:fs';
import type { Where } from './database.js';
import { runningInstancesOnFile, runningInstances, runningOn } from './running-instance.js';
import { copyToPostgres, openPgStore, openStore, type CopyResult, type TableCount } from '../store/index.js';

type Out = (line: string) => void;

const NAME = 'manzil migrate-to-postgres';
/** Keys listed per table in a refusal; the rest are counted. */
const KEYS_SHOWN = 5;

class Refused extends Error {}

export async function runMigrateToPostgresCli(args: string[], config: Where, out: Out, err: Out): Promise<number> {
  if (args.length > 0) {
    err(`Usage: ${NAME}   (copies MANZIL_DB_PATH into DATABASE_URL, an empty database; stop Manzil first)`);
    return 2;
  }
  if (!config.postgres) {
    err(
      `${NAME}: DATABASE_URL is not set: set it to the Postgres database to copy into (postgres://user:password@host:5432/manzil)`,
    );
    return 1;
  }
  if (config.dbPath === ':memory:' || !fs.existsSync(config.dbPath)) {
    err(`${NAME}: there is no database at ${config.dbPath} (MANZIL_DB_PATH) to copy`);
    return 1;
  }
  const dbPath = config.dbPath;
  // Before anything is opened for writing (opening the store may migrate the file under the running instance).
  let running;
  try {
    running = runningInstancesOnFile(dbPath, Date.now());
  } catch (e) {
    err(
      `${NAME}: ${dbPath} (MANZIL_DB_PATH) cannot be read (${e instanceof Error ? e.message : String(e)}): nothing was copied`,
    );
    return 1;
  }
  if (running.length > 0) {
    err(`${NAME}: ${runningOn(dbPath, running[0]!, Date.now())}: stop it first, then migrate (nothing was copied)`);
    return 1;
  }
  const from = openStore(dbPath);
  try {
    const to = await openPgStore(config.postgres.url, { poolSize: 1 });
    try {
      // An instance started during the copy: the copy is rolled back.
      const beforeCommit = () => {
        const [started] = runningInstances(from.sqlite, Date.now());
        if (started)
          throw new Refused(
            `${runningOn(dbPath, started, Date.now())}: it started during the copy; stop it, then migrate (nothing was copied)`,
          );
      };
      let result: CopyResult;
      try {
        result = await copyToPostgres(from, to, { beforeCommit });
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        err(`${NAME}: ${e.message}`);
        return 1;
      }
      return result.applied ? reportCopy(result.counts, out, err) : reportInUse(result, out, err);
    } finally {
      await to.close();
    }
  } finally {
    from.close();
  }
}

function reportCopy(counts: readonly TableCount[], out: Out, err: Out): number {
  for (const line of countTable(counts, 'copied')) out(line);
  const copied = counts.reduce((n, c) => n + c.copied, 0);
  out(
    `Copied ${copied} rows into Postgres. Start Manzil with DATABASE_URL; keep the SQLite file as a backup until you are sure.`,
  );
  const short = counts.filter((c) => c.postgres < c.sqlite);
  if (short.length > 0) {
    err(`${NAME}: fewer rows in Postgres than in SQLite for ${short.map((c) => c.table).join(', ')}`);
    return 1;
  }
  return 0;
}

/** Postgres was in use: nothing was written; what a copy would have added, if anything. */
function reportInUse(result: CopyResult, out: Out, err: Out): number {
  for (const line of countTable(result.counts, 'would copy')) out(line);
  const changes = result.counts.filter((c) => c.copied > 0);
  if (changes.length === 0) {
    out(
      'Nothing to copy: Postgres already holds every row of the SQLite file, and nothing was changed. Start Manzil with DATABASE_URL.',
    );
    return 0;
  }
  out(
    'A copy would add these rows, each missing in Postgres (never copied, or removed there since: a deleted alert, a delivered post pruned):',
  );
  for (const c of changes) {
    const more = c.keys.length > KEYS_SHOWN ? `, and ${c.keys.length - KEYS_SHOWN} more` : '';
    out(
      `  ${c.table}: ${c.copied} ${c.copied === 1 ? 'row' : 'rows'} (${c.keys.slice(0, KEYS_SHOWN).join('; ')}${more})`,
    );
  }
  const inUse = result.inUse.map((t) => `${t.table} ${t.rows}`).join(', ');
  err(
    `${NAME}: Postgres (DATABASE_URL) is already in use (rows in ${inUse}), and the copy goes only into an empty database: nothing was changed. ` +
      'To copy the SQLite file afresh, point DATABASE_URL at a new, empty database; to keep what Postgres holds, start Manzil with DATABASE_URL.',
  );
  return 1;
}

function countTable(counts: readonly TableCount[], copied: string): string[] {
  const width = Math.max(...counts.map((c) => c.table.length), 5);
  return [
    `  ${'table'.padEnd(width)}  ${'sqlite'.padStart(7)}  ${'postgres'.padStart(8)}  ${copied.padStart(7)}`,
    ...counts.map(
      (c) =>
        `  ${c.table.padEnd(width)}  ${String(c.sqlite).padStart(7)}  ${String(c.postgres).padStart(8)}  ${String(c.copied).padStart(copied.length < 7 ? 7 : copied.length)}`,
    ),
  ];
}
