// Button state: a button on a week-old message still works after a restart; old, unused state is pruned.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeOf } from '../../src/ports/index.js';
import { createButtonStateRepo } from '../../src/store/button-state.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;

function clock(start = Date.UTC(2025, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('button state', () => {
  it('loads a week-old token after the store is closed and reopened', () => {
    const file = path.join(tempDir(), 'manzil.db');
    const time = clock();
    const payload = {
      query: { operation: 'search-rent', text: 'rent 2 bed marina' },
      page: 3,
      offset: -1,
      note: 'دبي 🏙️',
    };

    const first = openStore(file);
    const token = createButtonStateRepo(first, time.now).save('page', payload);
    first.close();

    time.advance(7 * DAY);
    const second = openStore(file);
    try {
      expect(createButtonStateRepo(second, time.now).load(token)).toEqual({ kind: 'page', payload });
    } finally {
      second.close();
    }
  });

  it('gives short, url-safe, distinct tokens', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const repo = createButtonStateRepo(store);
    const tokens = Array.from({ length: 200 }, (_, i) => repo.save('details', { i }));
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(repo.load(tokens[123]!)?.payload).toEqual({ i: 123 });
    store.close();
  });

  it('answers undefined for an unknown token', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const repo = createButtonStateRepo(store);
    repo.save('page', { page: 1 });
    expect(repo.load('no-such-token')).toBeUndefined();
    expect(repo.load('')).toBeUndefined();
    store.close();
  });

  it('prunes only state not used for the given time, counting use as well as creation', async () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const time = clock();
    const repo = createButtonStateRepo(store, time.now);
    const oldUnused = repo.save('page', { n: 1 });
    const oldButUsed = repo.save('page', { n: 2 });
    time.advance(20 * DAY);
    repo.load(oldButUsed);
    const recent = repo.save('page', { n: 3 });
    time.advance(15 * DAY);

    expect(repo.prune(30 * DAY)).toBe(1);
    expect(repo.load(oldUnused)).toBeUndefined();
    expect(repo.load(oldButUsed)).toEqual({ kind: 'page', payload: { n: 2 } });
    expect(repo.load(recent)).toEqual({ kind: 'page', payload: { n: 3 } });
    store.close();
  });

  it('scopes state by service: a token saved under one service does not load under another', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const sandbox = createButtonStateRepo(store, Date.now, 'sandbox');
    const live = createButtonStateRepo(store, Date.now, 'https://api.example.test');
    const token = sandbox.save('page', { n: 1 });
    expect(live.load(token)).toBeUndefined();
    expect(sandbox.load(token)).toEqual({ kind: 'page', payload: { n: 1 } });
    store.close();
  });

  it('binds state to the conversation it was posted in: pressed in another it is unknown; rows from before load anywhere', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const repo = createButtonStateRepo(store, Date.now, 'sandbox');
    const token = repo.save('page', { n: 1 }, 'slack:C1');
    expect(repo.load(token, 'slack:C2')).toBeUndefined();
    expect(repo.load(token, 'discord:C1')).toBeUndefined();
    expect(repo.load(token, 'slack:C1')).toEqual({ kind: 'page', payload: { n: 1 } });
    const before = repo.save('page', { n: 2 });
    expect(repo.load(before, 'slack:C9')).toEqual({ kind: 'page', payload: { n: 2 } });
    expect(scopeOf('slack:T1:C1')).toBe('slack:C1');
    expect(scopeOf('discord:G1:123')).toBe('discord:123');
    expect(scopeOf('console:local')).toBe('console:local');
    store.close();
  });

  it('never lets a real service load a row from before scoping (it may hold sandbox ids): only the sandbox adopts it', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const legacy = createButtonStateRepo(store).save('search', { page: 2 });
    const live = createButtonStateRepo(store, Date.now, 'https://api.example.test');
    expect(live.load(legacy)).toBeUndefined();
    const sandbox = createButtonStateRepo(store, Date.now, 'sandbox');
    expect(sandbox.load(legacy)).toEqual({ kind: 'search', payload: { page: 2 } });
    expect(sandbox.load(legacy)).toBeDefined(); // adopted: still the sandbox's
    expect(live.load(legacy)).toBeUndefined();
    store.close();
  });

  it('reads a damaged payload as undefined rather than failing', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const repo = createButtonStateRepo(store, Date.now, 'sandbox');
    const token = repo.save('page', { n: 1 });
    store.sqlite.prepare(`UPDATE button_state SET payload = '{oops' WHERE token = ?`).run(token);
    expect(repo.load(token)).toEqual({ kind: 'page', payload: undefined });
    expect(repo.load('x'.repeat(500))).toBeUndefined();
    store.close();
  });
});
