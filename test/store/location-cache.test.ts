// Location cache: answers come back until they expire, under any spelling of the same words, across restarts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { createLocationCacheRepo } from '../../src/store/location-cache.js';
import { tempDir } from './helpers.js';

const HOUR = 60 * 60 * 1000;
const marina = [{ id: 5002, name: 'Dubai Marina', path: 'Dubai > Dubai Marina' }];

function clock(start = Date.UTC(2025, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('location cache', () => {
  it('returns what was put, with when it was fetched, and misses unknown queries', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const time = clock();
    const cache = createLocationCacheRepo(store, time.now);
    cache.put('dubai marina', marina, HOUR);
    expect(cache.get('dubai marina')).toEqual({ results: marina, fetchedAt: time.now() });
    expect(cache.get('jvc')).toBeUndefined();
    store.close();
  });

  it('expires entries by the clock, and a fresh put replaces them', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const time = clock();
    const cache = createLocationCacheRepo(store, time.now);
    cache.put('marina', marina, HOUR);
    time.advance(HOUR - 1);
    expect(cache.get('marina')?.results).toEqual(marina);
    time.advance(1);
    expect(cache.get('marina')).toBeUndefined();

    cache.put('marina', [], HOUR);
    expect(cache.get('marina')).toEqual({ results: [], fetchedAt: time.now() });
    time.advance(2 * HOUR);
    cache.put('jvc', [], HOUR);
    expect(cache.prune()).toBe(1);
    expect(cache.get('jvc')).toEqual({ results: [], fetchedAt: time.now() });
    store.close();
  });

  it('treats case and spacing variants as the same query', () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const cache = createLocationCacheRepo(store);
    cache.put('  Dubai   MARINA ', marina, HOUR);
    expect(cache.get('dubai marina')?.results).toEqual(marina);
    expect(cache.get('DUBAI\tMarina')?.results).toEqual(marina);
    cache.put('dubai marina', [], HOUR);
    expect(cache.get(' Dubai Marina')?.results).toEqual([]);
    store.close();
  });

  it('survives a restart', () => {
    const file = path.join(tempDir(), 'manzil.db');
    const time = clock();
    const first = openStore(file);
    createLocationCacheRepo(first, time.now).put('Al Reem Island', marina, 24 * HOUR);
    first.close();

    time.advance(HOUR);
    const second = openStore(file);
    expect(createLocationCacheRepo(second, time.now).get('al reem island')).toEqual({
      results: marina,
      fetchedAt: time.now() - HOUR,
    });
    second.close();
  });
});
