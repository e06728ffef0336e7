// The market cache shared through the store: what the background side (the delivery thread, another instance) fetched
// is read by the chat side's own MarketData from the same database file, with no call to the service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CallMeter, composeAreaDigest, type MarketData } from '../../src/market/index.js';
import { createMarketCacheRepo, openStore, type Store } from '../../src/store/index.js';
import { marketRig } from './helpers.js';

const DAY = 86_400_000;
const MARINA = { id: '50', name: 'Dubai Marina' };
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A database file, and a new connection to it per call (as each thread or instance has its own). */
function databaseFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-market-'));
  dirs.push(dir);
  const file = path.join(dir, 'manzil.db');
  return () => {
    const store = openStore(file);
    stores.push(store);
    return createMarketCacheRepo(store, Date.now, 'sandbox');
  };
}

/** What a digest of Marina reads, through `market`. */
async function digestOf(market: MarketData, now: Date) {
  const meter = new CallMeter();
  const digest = await composeAreaDigest(market, MARINA, { since: new Date(now.getTime() - 7 * DAY), now, meter });
  return { digest, meter };
}

describe('the market cache shared through the store', () => {
  it('a second MarketData on the same file answers a digest with no upstream call, with the same figures', async () => {
    const connect = databaseFile();
    const rig = await marketRig();
    const background = rig.newMarket({ shared: connect() });
    const now = rig.sandbox.now();
    const first = await digestOf(background, now);
    expect(first.digest.state).toBe('ok');
    const fetched = rig.upstream();
    expect(fetched).toBeGreaterThan(0);

    const chat = rig.newMarket({ shared: connect() });
    const second = await digestOf(chat, now);
    expect(rig.upstream()).toBe(fetched);
    expect(second.meter.calls).toBe(0);
    expect(chat.stats().calls).toBe(0);
    expect(second.digest.sold).toEqual(first.digest.sold);
    expect(second.digest.rented).toEqual(first.digest.rented);
    expect(second.digest.trend).toEqual(first.digest.trend);
  });

  it('an answer older than the cache hours is fetched again; a shared cache that fails costs only the sharing', async () => {
    let clock = Date.now();
    const connect = databaseFile();
    const rig = await marketRig();
    const at = { now: () => clock };
    await rig.newMarket({ ...at, shared: connect() }).trend('50');
    expect(rig.upstream('/price-trend-of-location')).toBe(1);
    await rig.newMarket({ ...at, shared: connect() }).trend('50');
    expect(rig.upstream('/price-trend-of-location')).toBe(1);
    clock += 6 * 3_600_000 + 1;
    await rig.newMarket({ ...at, shared: connect() }).trend('50');
    expect(rig.upstream('/price-trend-of-location')).toBe(2);

    const errors: unknown[] = [];
    const broken = {
      get: () => Promise.reject(new Error('database is locked')),
      put: () => Promise.reject(new Error('database is locked')),
    };
    const market = rig.newMarket({ ...at, shared: broken, onSharedError: (e) => errors.push(e) });
    const trend = await market.trend('50');
    expect(trend.points.length).toBeGreaterThan(0);
    expect(rig.upstream('/price-trend-of-location')).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual(['database is locked', 'database is locked']);
  });
});
