// The database and its copies hold sealed tokens and people's ids: only the account Manzil runs as may read them.
// Files are created 0600 and folders 0700 (the umask can only narrow that); files made before, by an older release or
// by hand, are narrowed when Manzil opens them.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** SQLite's files beside a database: it gives each the database file's mode when it creates it. */
export const sqliteSiblings = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

/** Makes the folder of `file` (and any missing parent) 0700; a folder that exists already is the operator's. */
export function makePrivateDirFor(file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_DIR });
}

/**
 * Before SQLite opens `file`: creates it empty and 0600 when missing (SQLite takes an empty file as a new database, and
 * creates its -wal and -shm with the same mode), and narrows it and its siblings to 0600 when they exist.
 */
export function prepareDatabaseFile(file: string): void {
  makePrivateDirFor(file);
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  makePrivate(sqliteSiblings(file));
}

/** Narrows each of `files` that exists to 0600. */
export function makePrivate(files: readonly string[]): void {
  for (const f of files) {
    try {
      fs.chmodSync(f, PRIVATE_FILE);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Missing: nothing to narrow. Not ours (EPERM): its owner decides, and SQLite's own access checks still apply.
      if (code !== 'ENOENT' && code !== 'EPERM') throw e;
    }
  }
}
