// The write lock between the main thread and the delivery thread (src/store/write-lock.ts): every write of a guarded
// connection takes it, reads do not, a thread that died holding it cannot hang the other, and nothing is lost when
// both threads write at full speed. A real worker thread on a real SQLite file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, WriteLock, type Store } from '../../src/store/index.js';

const opened: Store[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function open(
  lock: WriteLock,
  file = join(mkdtempSync(join(tmpdir(), 'manzil-lock-')), 'm.db'),
): { store: Store; file: string } {
  const store = openStore(file, { writeLock: lock });
  opened.push(store);
  store.sqlite.exec('create table if not exists t (id integer primary key, who text)');
  return { store, file };
}

const holder = (lock: WriteLock) => new Int32Array(lock.buffer)[0]!;

/**
 * A worker thread that opens `file` with the lock (not first) and runs `script` (its `store`, `lock` and `port` in
 * scope).
 */
function worker(file: string, buffer: SharedArrayBuffer, script: string): Worker {
  const store = new URL('../../src/store/index.ts', import.meta.url).href;
  const code = `
    import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
    register();
    const { parentPort: port, threadId, workerData } = await import('node:worker_threads');
    const { openStore, WriteLock } = await import(${JSON.stringify(store)});
    const lock = new WriteLock(workerData.buffer, threadId, false);
    const store = openStore(workerData.file, { writeLock: lock });
    ${script}`;
  return new Worker(code, { eval: true, workerData: { file, buffer } });
}

const message = <T>(w: Worker) =>
  new Promise<T>((resolve, reject) => (w.once('message', resolve), w.once('error', reject)));

describe('the write lock', () => {
  it('is taken by transactions (drizzle’s too) and writing statements, re-entrantly, and left free after each', () => {
    const lock = new WriteLock(WriteLock.buffer(), threadId, true);
    const { store } = open(lock);
    const seen: number[] = [];
    const insert = store.sqlite.prepare('insert into t (who) values (?)');
    store.sqlite.transaction(() => {
      seen.push(holder(lock));
      insert.run('a');
      insert.run('b');
    })();
    insert.run('c');
    expect(seen).toEqual([threadId + 1]);
    expect(holder(lock)).toBe(0);
    expect(store.sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 3 });
  });

  it('lets reads through while another thread holds it', () => {
    const lock = new WriteLock(WriteLock.buffer(), threadId, true);
    const { store } = open(lock);
    new Int32Array(lock.buffer)[0] = 4242; // held by a thread elsewhere
    expect(store.sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 0 });
    lock.releaseIfHeldBy(4241);
    expect(holder(lock)).toBe(0);
  });

  it('a thread that died holding it does not hang the other: the write goes on under SQLite’s own locking', async () => {
    const lock = new WriteLock(WriteLock.buffer(), threadId, true);
    const { store, file } = open(lock);
    const w = worker(file, lock.buffer, `lock.run(() => { port.postMessage('holding'); for (;;) {} });`);
    await message(w);
    const id = w.threadId;
    await w.terminate();
    expect(holder(lock)).toBe(id + 1); // it never let go
    store.sqlite.prepare('insert into t (who) values (?)').run('after the wait');
    expect(store.sqlite.prepare('select who from t').all()).toEqual([{ who: 'after the wait' }]);
    // Freed by the one who saw it die (the delivery thread's handle does this on its exit).
    lock.releaseIfHeldBy(id);
    expect(holder(lock)).toBe(0);
  });

  it('both threads writing flat out: every row lands, none fails as busy', async () => {
    const lock = new WriteLock(WriteLock.buffer(), threadId, true);
    const { store, file } = open(lock);
    const w = worker(
      file,
      lock.buffer,
      `const insert = store.sqlite.prepare('insert into t (who) values (?)');
       const batch = store.sqlite.transaction(() => { for (let i = 0; i < 20; i++) insert.run('thread'); });
       for (let n = 0; n < 200; n++) { batch(); if (n % 10 === 0) await new Promise((r) => setImmediate(r)); }
       port.postMessage('done');`,
    );
    const done = message(w);
    const insert = store.sqlite.prepare('insert into t (who) values (?)');
    for (let n = 0; n < 300; n++) {
      insert.run('main');
      await new Promise((r) => setImmediate(r));
    }
    await done;
    await w.terminate();
    expect(store.sqlite.prepare('select who, count(*) as n from t group by who order by who').all()).toEqual([
      { who: 'main', n: 300 },
      { who: 'thread', n: 4_000 },
    ]);
    expect(holder(lock)).toBe(0);
  });
});
