// Opening the store: the file and its directory appear, WAL is on, and the repo's migrations are applied.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

describe('openStore', () => {
  it('creates missing directories and opens in WAL mode with a busy timeout and foreign keys', () => {
    const file = path.join(tempDir(), 'nested', 'deeper', 'manzil.db');
    const store = openStore(file);
    try {
      expect(fs.existsSync(file)).toBe(true);
      expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      store.close();
    }
  });

  it("applies the repo's migrations by default, whatever the working directory", () => {
    const file = path.join(tempDir(), 'manzil.db');
    const cwd = process.cwd();
    process.chdir(tempDir());
    try {
      const store = openStore(file);
      const tables = store.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all();
      expect(tables).toEqual(expect.arrayContaining(['button_state', 'location_cache']));
      store.close();
    } finally {
      process.chdir(cwd);
    }
  });

  it('works in memory for quick tools', () => {
    const store = openStore(':memory:');
    expect(store.sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'button_state'").pluck().get()).toBe(
      1,
    );
    store.close();
  });
});
