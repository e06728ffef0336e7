// `manzil backup <file>` while Manzil runs and another process keeps writing: the writes never stop or fail, and the
// copy opens on its own, passes SQLite's check and holds the rows (saved searches, and the writes made before it
// began).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/ops/backup.js';
import { ask, boot, tempDir } from './helpers.js';
import { runManzil, type CliRun } from '../support/child.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

const runCli = (args: string[], env: Record<string, string>): Promise<CliRun> => runManzil(args, { env });

/** Another process writing one row every couple of milliseconds; it reports its count and any error on stdout. */
function startWriter(dbPath: string) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE IF NOT EXISTS load_rows (n INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO load_rows (body) VALUES (?)');
    const filler = 'x'.repeat(400);
    db.transaction(() => { for (let i = 0; i < 20000; i++) insert.run(filler); })();
    let errors = 0;
    setInterval(() => { try { insert.run(filler); } catch (e) { errors++; console.log('ERR ' + e.message); } }, 2);
    setInterval(() => console.log('COUNT ' + db.prepare('SELECT count(*) AS n FROM load_rows').get().n + ' ' + errors), 20);
  `;
  const child = spawn(process.execPath, ['-e', script, dbPath], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const last = () => {
    const m = [...out.matchAll(/COUNT (\d+) (\d+)/g)].at(-1);
    return m ? { count: Number(m[1]), errors: Number(m[2]) } : { count: 0, errors: 0 };
  };
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  };
  return { child, last, output: () => out, until };
}

describe('manzil backup', () => {
  it('copies the database while Manzil runs and another process writes, and the copy has the rows', async () => {
    const { manzil, dbPath } = await boot();
    await ask(manzil, 'alerts add rent marina 2br');
    await ask(manzil, 'alerts add buy downtown');
    const writer = startWriter(dbPath);
    try {
      await writer.until(() => writer.last().count >= 20_000);
      const before = writer.last().count;
      const target = join(tempDir(), 'backups', 'manzil-copy.db');
      // Async, so this process keeps reading the writer's reports while the backup runs.
      const run = await runCli(['backup', target], { MANZIL_DB_PATH: dbPath });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /^Backed up .*manzil\.db to .*manzil-copy\.db: \d+ KiB, 2 saved searches, 0 alert messages, checked, in \d+ ms\.\n$/,
      );

      // The writes went on, without a single error, while the backup ran (and after).
      const after = writer.last().count;
      await writer.until(() => writer.last().count > after + 5);
      expect(writer.last().count).toBeGreaterThan(after);
      expect(after).toBeGreaterThan(before);
      expect(writer.last().errors).toBe(0);
      expect(writer.output()).not.toMatch(/ERR|Error/);

      // The copy stands alone (no -wal beside it), passes the check, and has what existed when it began.
      expect(existsSync(`${target}-wal`)).toBe(false);
      const copy = new Database(target, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
        expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
        expect((copy.prepare('SELECT count(*) AS n FROM saved_search').get() as { n: number }).n).toBe(2);
        const rows = (copy.prepare('SELECT count(*) AS n FROM load_rows').get() as { n: number }).n;
        expect(rows).toBeGreaterThanOrEqual(before);
        expect(rows).toBeLessThanOrEqual(writer.last().count);
      } finally {
        copy.close();
      }
      // And Manzil itself never noticed.
      expect((await ask(manzil, 'alerts list')).text).toMatch(/#2/);
    } finally {
      writer.child.kill('SIGKILL');
    }
  });

  it('refuses to overwrite a file, or to copy a database that is not there, in plain words', async () => {
    const dir = tempDir();
    const { dbPath } = await boot();
    const target = join(dir, 'copy.db');
    await backupDatabase(dbPath, target);
    await expect(backupDatabase(dbPath, target)).rejects.toThrow(/exists already: choose a new file, or add --force/);
    await expect(backupDatabase(dbPath, target, { overwrite: true })).resolves.toMatchObject({ target });
    await expect(backupDatabase(join(dir, 'nothing.db'), join(dir, 'x.db'))).rejects.toThrow(/there is no database at/);
    await expect(backupDatabase(dbPath, dbPath)).rejects.toThrow(/overwrite the database itself/);
  });
});

describe('on Postgres', () => {
  it('backup and restore refuse, pointing at pg_dump, and never touch a SQLite file or print the password', async () => {
    const dbPath = join(tempDir(), 'manzil.db');
    const env = { MANZIL_DB_PATH: dbPath, DATABASE_URL: 'postgres://manzil:pw-never-shown@127.0.0.1:1/manzil' };
    for (const command of ['backup', 'restore']) {
      const run = await runCli([command, join(tempDir(), 'copy.db')], env);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^manzil ${command}: the database is Postgres \\(DATABASE_URL\\): back it up and restore it with pg_dump`,
        ),
      );
      expect(run.stderr).not.toContain('pw-never-shown');
    }
    expect(existsSync(dbPath)).toBe(false);
  });
});
