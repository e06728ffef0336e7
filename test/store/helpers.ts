// Temp directories and hand-written migration folders in drizzle-kit's format.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-store-'));
  dirs.push(dir);
  return dir;
}

/** Writes `meta/_journal.json` and one `<tag>.sql` per migration (statements joined by breakpoints). */
export function writeMigrations(folder: string, migrations: { tag: string; statements: string[] }[]): void {
  fs.mkdirSync(path.join(folder, 'meta'), { recursive: true });
  const entries = migrations.map((m, idx) => ({
    idx,
    version: '6',
    when: 1_700_000_000_000 + idx,
    tag: m.tag,
    breakpoints: true,
  }));
  fs.writeFileSync(
    path.join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'sqlite', entries }),
  );
  for (const m of migrations)
    fs.writeFileSync(path.join(folder, `${m.tag}.sql`), m.statements.join('\n--> statement-breakpoint\n'));
}
