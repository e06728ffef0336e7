// MARKET_CACHE_H and DIGEST_MAX_PAGES from the environment.
import { describe, expect, it } from 'vitest';
import { marketSettingsFromEnv } from '../../src/market/index.js';

describe('market settings', () => {
  it('defaults to 6 hours and 8 pages; reads both; names every bad value', () => {
    expect(marketSettingsFromEnv({})).toEqual({ cacheTtlMs: 6 * 3_600_000, maxPages: 8 });
    expect(marketSettingsFromEnv({ MARKET_CACHE_H: ' 1.5 ', DIGEST_MAX_PAGES: '3' })).toEqual({
      cacheTtlMs: 5_400_000,
      maxPages: 3,
    });
    expect(marketSettingsFromEnv({ MARKET_CACHE_H: '', DIGEST_MAX_PAGES: '' })).toEqual({
      cacheTtlMs: 6 * 3_600_000,
      maxPages: 8,
    });
    expect(() => marketSettingsFromEnv({ MARKET_CACHE_H: '0', DIGEST_MAX_PAGES: '2.5' })).toThrow(
      /MARKET_CACHE_H must be .*"0".*DIGEST_MAX_PAGES must be a whole number from 1 to 50 \(got "2.5"\)/,
    );
  });
});
