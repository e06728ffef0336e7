// The database holds sealed tokens and people's ids: its file, its -wal and -shm, the folder Manzil makes for it, a
// backup (`manzil backup`) and the copy a restore keeps aside (`manzil restore`) are readable by their owner only.
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/index.js';
import { tempDir } from '../ops/helpers.js';
import { runManzil, type CliRun } from '../support/child.js';

const mode = (file: string) => statSync(file).mode & 0o777;
const modes = (files: string[]) => Object.fromEntries(files.map((f) => [f.replace(/.*\//, ''), mode(f)]));

const manzil = (args: string[], dbPath: string): Promise<CliRun> =>
  runManzil(args, { cwd: tempDir(), env: { MANZIL_DB_PATH: dbPath } });

/** A database as Manzil makes it (every migration applied), closed. */
async function databaseAt(dbPath: string): Promise<void> {
  await (await openDatabase({ dbPath })).close();
}

describe('the database files', () => {
  it('a new database, its -wal and -shm after a write, and the folder made for it are private', async () => {
    const folder = join(tempDir(), 'data', 'deeper');
    const dbPath = join(folder, 'manzil.db');
    const db = await openDatabase({ dbPath });
    try {
      db.sqlite!.sqlite.exec('CREATE TABLE scratch (n INTEGER); INSERT INTO scratch VALUES (1)');
      expect(existsSync(`${dbPath}-wal`)).toBe(true);
      expect(modes([dbPath, `${dbPath}-wal`, `${dbPath}-shm`])).toEqual({
        'manzil.db': 0o600,
        'manzil.db-wal': 0o600,
        'manzil.db-shm': 0o600,
      });
      expect(mode(folder)).toBe(0o700);
      expect(mode(join(folder, '..'))).toBe(0o700);
    } finally {
      await db.close();
    }
  });

  it('a database readable by everyone (made by an older release) is narrowed when Manzil opens it, with its -wal and -shm', async () => {
    const dbPath = join(tempDir(), 'manzil.db');
    // An older release's files: made by SQLite with the umask's mode, then opened wide, the WAL still there.
    const old = new Database(dbPath);
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE scratch (n INTEGER); INSERT INTO scratch VALUES (1)');
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) chmodSync(f, 0o644);
    const db = await openDatabase({ dbPath });
    try {
      expect(modes([dbPath, `${dbPath}-wal`, `${dbPath}-shm`])).toEqual({
        'manzil.db': 0o600,
        'manzil.db-wal': 0o600,
        'manzil.db-shm': 0o600,
      });
    } finally {
      await db.close();
      old.close();
    }
  });
});

describe('copies of the database', () => {
  it('`manzil backup` writes a private file, in a private folder when it makes one', async () => {
    const dbPath = join(tempDir(), 'manzil.db');
    await databaseAt(dbPath);
    const target = join(tempDir(), 'backups', 'monday.db');
    const r = await manzil(['backup', target], dbPath);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(mode(target)).toBe(0o600);
    expect(mode(join(target, '..'))).toBe(0o700);
  }, 60_000);

  it('`manzil restore` keeps the replaced database private, even one an older release left readable by everyone', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'manzil.db');
    await databaseAt(dbPath);
    const backup = join(dir, 'backup.db');
    expect((await manzil(['backup', backup], dbPath)).status).toBe(0);
    chmodSync(dbPath, 0o644);
    const r = await manzil(['restore', backup, '--json'], dbPath);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const { keptAs } = JSON.parse(r.stdout) as { keptAs: string };
    expect(keptAs).toMatch(/manzil\.db\.before-restore-/);
    expect(mode(keptAs)).toBe(0o600);
    expect(mode(dbPath)).toBe(0o600);
  }, 90_000);
});
