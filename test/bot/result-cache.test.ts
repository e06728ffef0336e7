// Bounded growth: the answer cache is an LRU with a TTL, and old button state is pruned at start and on a timer.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StateMaintenance } from '../../src/bot/index.js';
import { ResultCache } from '../../src/bot/result-cache.js';
import { silentLogger } from '../../src/log.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createButtonStateRepo, openStore } from '../../src/store/index.js';
import { ask, button, buttonRows, harness, press, removeTempDirs, tempDbPath, type Harness } from './harness.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('the answer cache', () => {
  it('reuses an answer until its TTL, then asks again; expired answers are dropped', async () => {
    const time = clock();
    const cache = new ResultCache<string>(5 * MINUTE, 100, time.now);
    let loads = 0;
    const load = async () => `answer ${++loads}`;
    expect(await cache.get('a', load)).toBe('answer 1');
    time.advance(4 * MINUTE);
    expect(await cache.get('a', load)).toBe('answer 1');
    await cache.get('b', load);
    time.advance(2 * MINUTE);
    // 'a' expired, 'b' not yet.
    expect(cache.size).toBe(1);
    expect(await cache.get('a', load)).toBe('answer 3');
  });

  it('keeps at most its size, dropping the least recently used', async () => {
    const cache = new ResultCache<string>(5 * MINUTE, 3);
    let loads = 0;
    const load = async () => `v${++loads}`;
    for (const k of ['a', 'b', 'c']) await cache.get(k, load);
    await cache.get('a', load); // 'a' used again: 'b' is now the oldest
    await cache.get('d', load);
    expect(cache.size).toBe(3);
    expect(loads).toBe(4);
    await cache.get('a', load);
    expect(loads).toBe(4);
    await cache.get('b', load);
    expect(loads).toBe(5);
  });

  it('shares one call between concurrent askers, and does not keep a failure', async () => {
    const cache = new ResultCache<string>(MINUTE);
    let loads = 0;
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve(`v${++loads}`), 10));
    expect(await Promise.all([cache.get('k', slow), cache.get('k', slow), cache.get('k', slow)])).toEqual([
      'v1',
      'v1',
      'v1',
    ]);
    await expect(cache.get('x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('x', slow)).toBe('v2');
  });
});

describe('the bot over the cache', () => {
  let sandbox: Sandbox;
  const open: Harness[] = [];
  beforeAll(async () => {
    sandbox = createSandbox();
    await sandbox.listen(0, '127.0.0.1');
  });
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
    removeTempDirs();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('pages back without a second call within the TTL, and calls again after it', async () => {
    const time = clock();
    const h = harness(sandbox, { bot: { now: time.now, resultTtlMs: 5 * MINUTE } });
    open.push(h);
    const first = await ask(h.bot, 'rent marina');
    const searches = () => sandbox.requests().filter((r) => r.path === '/search-rent').length;
    sandbox.clearRequests();
    const next = await press(h.bot, button(first, /Next/));
    await press(h.bot, button(next, /Previous/));
    expect(searches()).toBe(0);
    time.advance(6 * MINUTE);
    await press(h.bot, button(next, /Previous/));
    expect(searches()).toBe(1);
    expect(h.bot.searches.cachedAnswers).toBe(1);
  });
});

describe('pruning', () => {
  it('prunes unused button state at start and then on a timer, until stopped', async () => {
    const store = openStore(tempDbPath());
    const time = clock(Date.UTC(2026, 0, 1));
    const repo = createButtonStateRepo(store, time.now, 'sandbox');
    await repo.save('page', { n: 1 });
    time.advance(40 * DAY);
    const kept = await repo.save('page', { n: 2 });
    const maintenance = new StateMaintenance({ buttons: repo, buttonRetentionMs: 30 * DAY, logger: silentLogger });
    expect(await maintenance.runOnce()).toEqual({ buttons: 1, locations: 0 });

    maintenance.startPruning(10);
    await repo.save('page', { n: 3 });
    time.advance(31 * DAY);
    await vi.waitFor(() => expect(buttonRows(store).n).toBe(0), { timeout: 1000, interval: 5 });
    expect(await repo.load(kept)).toBeUndefined();

    maintenance.stop();
    await repo.save('page', { n: 4 });
    time.advance(31 * DAY);
    await new Promise((r) => setTimeout(r, 40));
    expect(buttonRows(store).n).toBe(1);
    store.close();
  });
});
