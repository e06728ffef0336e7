// The market cache's settings from the environment: MARKET_CACHE_H (hours answers are used, default 6) and
// DIGEST_MAX_PAGES (pages of one period's transactions read at most, default 8). Problems are reported, not guessed.
import { DEFAULT_CACHE_HOURS, DEFAULT_MAX_PAGES, type MarketOptions } from './types.js';

export const MARKET_VARIABLES = ['MARKET_CACHE_H', 'DIGEST_MAX_PAGES'] as const;

export interface MarketSettings {
  cacheTtlMs: number;
  maxPages: number;
}

/** Reads the two variables; throws a RangeError naming every bad one (unset or empty: the default). */
export function marketSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): MarketSettings & Pick<MarketOptions, 'cacheTtlMs' | 'maxPages'> {
  const problems: string[] = [];
  const read = (name: string, fallback: number, check: (n: number) => boolean, words: string) => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || !check(n)) {
      problems.push(`${name} must be ${words} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const hours = read(
    'MARKET_CACHE_H',
    DEFAULT_CACHE_HOURS,
    (n) => n > 0 && n <= 168,
    'a number of hours above 0 and at most 168',
  );
  const maxPages = read(
    'DIGEST_MAX_PAGES',
    DEFAULT_MAX_PAGES,
    (n) => Number.isInteger(n) && n >= 1 && n <= 50,
    'a whole number from 1 to 50',
  );
  if (problems.length > 0) throw new RangeError(problems.join('; '));
  return { cacheTtlMs: Math.round(hours * 3_600_000), maxPages };
}
