// What the button-state, location-cache, team and installation repositories decide, once for both databases: SQLite
// (./button-state.ts, ./location-cache.ts, ./teams.ts, ./installations.ts) and Postgres (./pg/*.ts) run different
// statements around these, so the answers cannot drift; and the constants both use, so neither imports the other.
// No database, no clock.
import { createHash, randomBytes } from 'node:crypto';
import { teamOf } from '../ports/channel.js';
import type { MarketCacheEntry } from './contracts/caches.js';
import type { InstallationKey } from './contracts/installations.js';
import type { TeamLine } from './contracts/usage.js';
import type { Sealer } from './sealing.js';

/**
 * A button's token: 128 random bits, url-safe (22 characters), so a token cannot be forged to reach someone else's
 * state.
 */
export const newButtonToken = (): string => randomBytes(16).toString('base64url');

/**
 * What identifies a button state's content (its kind and payload's JSON): an identical reply in the same conversation
 * reuses the row that has it instead of writing another, so repeating a search grows nothing.
 */
export const payloadHashOf = (kind: string, payloadText: string): string =>
  createHash('sha256').update(`${kind}\n${payloadText}`).digest('base64url');

/** A JSON column's text; undefined is stored as null. */
export const jsonText = (value: unknown): string => JSON.stringify(value ?? null);

/**
 * The services whose button state `service` loads. Rows from before the column existed (service '') could only have
 * been saved on the sandbox or on a service we cannot tell apart, so only the sandbox adopts them.
 */
export const buttonOwners = (service: string): string[] => (service === 'sandbox' ? [service, ''] : [service]);

/** A damaged JSON column reads as undefined: the bot's schemas then refuse it politely instead of failing. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The columns a location-cache entry is written with, fetched at `at` and kept for `ttlMs`. */
export const cacheEntry = (results: unknown, at: number, ttlMs: number) => ({
  results: jsonText(results),
  fetchedAt: at,
  expiresAt: at + ttlMs,
});

/** A cached row as `get` answers it at `at`: undefined when missing or expired. */
export function cacheHit(
  row: { results: string; fetchedAt: number; expiresAt: number } | undefined,
  at: number,
): { results: unknown; fetchedAt: number } | undefined {
  if (!row || row.expiresAt <= at) return undefined;
  return { results: JSON.parse(row.results) as unknown, fetchedAt: row.fetchedAt };
}

/** The cached answers, in the rows' order. */
export function cachedAnswers(rows: readonly { results: string }[]): unknown[] {
  const out: unknown[] = [];
  for (const row of rows) {
    try {
      out.push(JSON.parse(row.results) as unknown);
    } catch {
      // A row that is not JSON teaches nothing; the next lookup replaces it.
    }
  }
  return out;
}

/**
 * Every team known from the channels of its alerts and digests (one row each), its spend in the month and its own
 * share; the biggest spenders first, then by name.
 */
export function teamLines(
  alerts: readonly { channel: string }[],
  digests: readonly { channel: string }[],
  usage: readonly { team: string; calls: number }[],
  budgets: readonly { team: string; monthlyCalls: number }[],
): TeamLine[] {
  const teams = new Map<string, TeamLine>();
  const entry = (team: string) =>
    teams.get(team) ?? teams.set(team, { team, alerts: 0, digests: 0, calls: 0, budget: undefined }).get(team)!;
  for (const r of alerts) entry(teamOf(r.channel)).alerts++;
  for (const r of digests) entry(teamOf(r.channel)).digests++;
  // A person's part of a shared pool (`discord:@me:U1`) is counted in the ledger too, but is no team.
  for (const r of usage) if (teamOf(r.team) === r.team) entry(r.team).calls = r.calls;
  for (const r of budgets) entry(r.team).budget = r.monthlyCalls;
  return [...teams.values()].sort((a, b) => b.calls - a.calls || a.team.localeCompare(b.team));
}

/**
 * An installation sealed by an older key, sealed again with the current one; undefined when the current key sealed it.
 */
export function resealed(
  sealer: Sealer,
  row: { sealed: string; keyId: string },
): { sealed: string; keyId: string } | undefined {
  return row.keyId === sealer.keyId ? undefined : sealer.seal(sealer.open(row.sealed));
}

/** The columns a market-cache entry is written with, kept for `ttlMs` after its first page was fetched. */
export const marketCacheColumns = (entry: MarketCacheEntry, ttlMs: number) => ({
  pages: JSON.stringify(entry.pages),
  pageCount: entry.pages.length,
  totalItems: entry.totalItems ?? null,
  totalPages: entry.totalPages ?? null,
  done: entry.done,
  fetchedAt: entry.fetchedAt,
  expiresAt: entry.fetchedAt + ttlMs,
});

/** A market-cache row as `get` answers it at `at`: undefined when missing, expired or damaged. */
export function marketCacheHit(
  row:
    | {
        pages: string;
        totalItems: number | null;
        totalPages: number | null;
        done: boolean;
        fetchedAt: number;
        expiresAt: number;
      }
    | undefined,
  at: number,
): MarketCacheEntry | undefined {
  if (!row || row.expiresAt <= at) return undefined;
  const pages = parseJsonOrUndefined(row.pages);
  if (!Array.isArray(pages) || !pages.every(Array.isArray)) return undefined;
  return {
    pages: pages as unknown[][],
    done: row.done,
    fetchedAt: row.fetchedAt,
    ...(row.totalItems !== null ? { totalItems: row.totalItems } : {}),
    ...(row.totalPages !== null ? { totalPages: row.totalPages } : {}),
  };
}

/** Button tokens are 22 url-safe characters; anything else is not worth a query. */
export const TOKEN = /^[A-Za-z0-9_-]{1,40}$/;

/** "  Dubai   MARINA " and "dubai marina" are one location-cache entry. */
export const normaliseQuery = (query: string) => query.trim().toLowerCase().replace(/\s+/g, ' ');

/** `YYYY-MM` of `at`, UTC: the window a team's call counts in. */
export const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

/** The reason held channels of a removed workspace show (`/alerts list`, `manzil outbox`). */
export const REMOVED_REASON =
  'Manzil was removed from this workspace; its alerts and digests resume when it is added again';
/** A removed workspace's channels are not tried again on a timer: adding Manzil again releases them. */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** An installation's row key: its enterprise and team. */
export const keyOf = (k: InstallationKey) => `${k.enterpriseId ?? '-'}:${k.teamId ?? '-'}`;
