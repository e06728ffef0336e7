// `manzil backup <file>`: an online copy of the SQLite database with SQLite's backup API (through better-sqlite3),
// safe while Manzil runs: its own connection reads a consistent snapshot while the running Manzil keeps writing
// (WAL lets a reader and a writer work at once). The copy is written beside the target and renamed into place only
// once it is complete and checked, so a failed backup never leaves a half file under the name asked for.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDirFor, PRIVATE_FILE } from '../store/private-files.js';
import { countOf } from '../views/format.js';

export interface BackupReport {
  source: string;
  target: string;
  /** The copy's size. */
  bytes: number;
  pages: number;
  ms: number;
  /** Rows in the tables a person would miss: saved searches and pending alert messages. */
  alerts: number;
  outbox: number;
}

export class BackupError extends Error {
  override readonly name = 'BackupError';
}

export async function backupDatabase(
  source: string,
  target: string,
  options: { overwrite?: boolean } = {},
): Promise<BackupReport> {
  const started = performance.now();
  if (source === ':memory:' || source === '')
    throw new BackupError('the database is in memory (MANZIL_DB_PATH=:memory:): there is nothing on disk to back up');
  if (!fs.existsSync(source)) throw new BackupError(`there is no database at ${source} (MANZIL_DB_PATH)`);
  if (path.resolve(source) === path.resolve(target))
    throw new BackupError('the backup would overwrite the database itself: choose another file');
  if (fs.existsSync(target) && !options.overwrite)
    throw new BackupError(`${target} exists already: choose a new file, or add --force to replace it`);
  makePrivateDirFor(target);

  const partial = `${target}.partial-${process.pid}`;
  // The copy holds what the database holds: created 0600 before SQLite writes to it (renaming keeps the mode).
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'wx', PRIVATE_FILE));
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // Every page in one step after the first: each step reads one snapshot, and a write by Manzil between steps
    // restarts the copy rather than mixing two states.
    await db.backup(partial, { progress: () => 1_000_000 });
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`the backup failed: ${(e as Error).message}`);
  } finally {
    db.close();
  }

  let report: Omit<BackupReport, 'ms' | 'source' | 'target' | 'bytes'>;
  try {
    report = check(partial);
  } catch (e) {
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) fs.rmSync(f, { force: true });
    throw e;
  }
  fs.renameSync(partial, target);
  return { source, target, ...report, bytes: fs.statSync(target).size, ms: Math.round(performance.now() - started) };
}

/** Opens the copy, makes it one self-contained file (no WAL beside it), checks it and counts what matters. */
function check(file: string): Omit<BackupReport, 'ms' | 'source' | 'target' | 'bytes'> {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const verdict = copy.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') throw new BackupError(`the copy failed its integrity check (${String(verdict)})`);
    const count = (table: string) => {
      const exists = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      return exists ? (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
    };
    return {
      pages: copy.pragma('page_count', { simple: true }) as number,
      alerts: count('saved_search'),
      outbox: count('outbox'),
    };
  } finally {
    copy.close();
  }
}

/** The command: `manzil backup <file> [--force]`. */
export async function runBackupCli(
  args: string[],
  dbPath: string,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const force = args.includes('--force');
  const files = args.filter((a) => a !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('-')) {
    err('Usage: manzil backup <file> [--force]   (an online copy of the database, safe while Manzil runs)');
    return 2;
  }
  try {
    const r = await backupDatabase(dbPath, files[0]!, { overwrite: force });
    out(
      `Backed up ${r.source} to ${r.target}: ${(r.bytes / 1024).toFixed(0)} KiB, ${countOf(r.alerts, 'saved search', 'saved searches')}, ${countOf(r.outbox, 'alert message')}, checked, in ${r.ms} ms.`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof BackupError)) throw e;
    err(`manzil backup: ${e.message}`);
    return 1;
  }
}
