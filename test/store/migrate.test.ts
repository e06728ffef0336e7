// Migrations keep every row: a drizzle-kit table rebuild does not cascade-delete children,
// and a migration that would leave dangling references is refused and rolled back.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ForeignKeyViolationError, openStore } from '../../src/store/index.js';
import { tempDir, writeMigrations } from './helpers.js';

const createParentAndChild = {
  tag: '0000_parent_child',
  statements: [
    'CREATE TABLE `parent` (`id` integer PRIMARY KEY NOT NULL, `name` text NOT NULL);',
    'CREATE TABLE `child` (`id` integer PRIMARY KEY NOT NULL, `parent_id` integer NOT NULL REFERENCES `parent`(`id`) ON DELETE CASCADE, `note` text NOT NULL);',
  ],
};

// What drizzle-kit generates when a column is added with a constraint SQLite cannot ALTER in.
const rebuildParent = (where = '') => ({
  tag: '0001_rebuild_parent',
  statements: [
    'PRAGMA foreign_keys=OFF;',
    "CREATE TABLE `__new_parent` (`id` integer PRIMARY KEY NOT NULL, `name` text NOT NULL, `label` text DEFAULT '' NOT NULL);",
    `INSERT INTO \`__new_parent\`("id", "name") SELECT "id", "name" FROM \`parent\`${where};`,
    'DROP TABLE `parent`;',
    'ALTER TABLE `__new_parent` RENAME TO `parent`;',
    'PRAGMA foreign_keys=ON;',
  ],
});

function seeded() {
  const dir = tempDir();
  const folder = path.join(dir, 'migrations');
  const file = path.join(dir, 'test.db');
  writeMigrations(folder, [createParentAndChild]);
  const store = openStore(file, { migrationsFolder: folder });
  store.sqlite.exec(`
    INSERT INTO parent (id, name) VALUES (1, 'Dubai Marina'), (2, 'JVC');
    INSERT INTO child (id, parent_id, note) VALUES (10, 1, 'a'), (11, 1, 'b'), (12, 2, 'c');
  `);
  store.close();
  return { folder, file };
}

const count = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('migrations', () => {
  it('rebuilds a parent table without deleting its children', () => {
    const { folder, file } = seeded();
    writeMigrations(folder, [createParentAndChild, rebuildParent()]);

    const store = openStore(file, { migrationsFolder: folder });
    try {
      expect(store.sqlite.prepare('SELECT id, parent_id, note FROM child ORDER BY id').all()).toEqual([
        { id: 10, parent_id: 1, note: 'a' },
        { id: 11, parent_id: 1, note: 'b' },
        { id: 12, parent_id: 2, note: 'c' },
      ]);
      expect(store.sqlite.prepare('SELECT label FROM parent WHERE id = 1').get()).toEqual({ label: '' });
      // Foreign keys are enforced again once migrations are done.
      expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(() => store.sqlite.exec("INSERT INTO child (id, parent_id, note) VALUES (13, 99, 'x')")).toThrow(
        /FOREIGN KEY/,
      );
      store.sqlite.exec('DELETE FROM parent WHERE id = 2');
      expect(store.sqlite.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 2 });
    } finally {
      store.close();
    }
  });

  it('refuses a migration that leaves dangling references, names the table, and changes nothing', () => {
    const { folder, file } = seeded();
    writeMigrations(folder, [createParentAndChild, rebuildParent(' WHERE "id" <> 1')]);

    let error: unknown;
    try {
      openStore(file, { migrationsFolder: folder });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ForeignKeyViolationError);
    expect((error as Error).message).toMatch(/child: 2 rows -> parent/);
    expect((error as ForeignKeyViolationError).violations).toEqual([{ table: 'child', parent: 'parent', rows: 2 }]);

    // Rolled back: both parents, all children, the old shape, and the migration not recorded.
    expect(count(file, 'SELECT count(*) AS n FROM parent')).toBe(2);
    expect(count(file, 'SELECT count(*) AS n FROM child')).toBe(3);
    expect(count(file, "SELECT count(*) AS n FROM pragma_table_info('parent') WHERE name = 'label'")).toBe(0);
    expect(count(file, 'SELECT count(*) AS n FROM __drizzle_migrations')).toBe(1);

    // Once the migration is fixed, the next start applies it.
    writeMigrations(folder, [createParentAndChild, rebuildParent()]);
    const store = openStore(file, { migrationsFolder: folder });
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 3 });
    store.close();
  });

  it('applies each migration once across restarts', () => {
    const { folder, file } = seeded();
    writeMigrations(folder, [createParentAndChild, rebuildParent()]);
    openStore(file, { migrationsFolder: folder }).close();
    // A re-run of the CREATE TABLE would fail, so opening again proves nothing is re-applied.
    const store = openStore(file, { migrationsFolder: folder });
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: 2 });
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 3 });
    store.close();
  });

  it("recognises a database migrated by drizzle's own migrator", async () => {
    const { drizzle } = await import('drizzle-orm/better-sqlite3');
    const { migrate } = await import('drizzle-orm/better-sqlite3/migrator');
    const dir = tempDir();
    const folder = path.join(dir, 'migrations');
    const file = path.join(dir, 'test.db');
    writeMigrations(folder, [createParentAndChild]);
    const raw = new Database(file);
    migrate(drizzle(raw), { migrationsFolder: folder });
    raw.exec(
      "INSERT INTO parent (id, name) VALUES (1, 'Marina'); INSERT INTO child (id, parent_id, note) VALUES (10, 1, 'a');",
    );
    raw.close();

    writeMigrations(folder, [createParentAndChild, rebuildParent()]);
    const store = openStore(file, { migrationsFolder: folder });
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 1 });
    store.close();
  });
});
