// How claims are decided, once for both databases: which of the due entries a claim takes, what a claimed entry tells
// its drainer, how the outbox's counts read, and whose heartbeat lapsed. SQLite (./outbox.ts, ./leases.ts) and
// Postgres (./pg/outbox.ts, ./pg/leases.ts) run different statements around these, so the answers cannot drift.
// Pure: no database, no clock.
import { createHash } from 'node:crypto';
import type { InstanceInfo, InstanceRow } from './contracts/leases.js';
import type { ClaimedEntry, NewDelivery, OutboxRow, OutboxStats } from './contracts/outbox.js';

/** The row of a new entry, but its origin (the database's lineage, which each dialect reads its own way). */
export function newEntry(d: NewDelivery, at: number) {
  return {
    searchId: d.searchId ?? null,
    channel: d.channel,
    kind: d.kind,
    propertyId: d.propertyId ?? null,
    dedupeKey: d.dedupeKey,
    payload: d.payload,
    createdAt: at,
    nextAttemptAt: d.holdUntil ?? at,
    // Quiet hours: never claimed until released (releaseHeld), then posted or folded into one summary.
    ...(d.holdUntil !== undefined ? { state: 'held' } : {}),
    // A fact a restored-over database may have posted: looked for on the platform before it is sent.
    ...(d.uncertainSince !== undefined ? { maybeDelivered: true, uncertainSince: d.uncertainSince } : {}),
  };
}

/** The error recorded on a post given back in flight at a stop. */
export const INTERRUPTED = 'interrupted: the process stopped while this was being posted';

/**
 * The id the platform sees: the database's lineage and a hash of the fact (the dedupe key), so it is unique across
 * databases and the same for the same fact queued again after a restore. Rows from before it carry their row id.
 */
export const deliveryIdOf = (row: Pick<OutboxRow, 'id' | 'origin' | 'dedupeKey'>): string =>
  row.origin
    ? `${row.origin}-${createHash('sha256').update(row.dedupeKey).digest('hex').slice(0, 12)}`
    : String(row.id);

/**
 * Of the entries picked (oldest first overall, at most perChannel per channel), the ids of those in the first `channels`
 * channels to appear: channels by their oldest entry, so one busy channel never fills a whole claim.
 */
export function firstChannels(picked: readonly { id: number; channel: string }[], channels: number): number[] {
  const taken = new Set<string>();
  const ids: number[] = [];
  for (const r of picked) {
    if (!taken.has(r.channel) && taken.size >= channels) continue;
    taken.add(r.channel);
    ids.push(r.id);
  }
  return ids;
}

/**
 * An entry as its claim hands it over, from its row before the claim: one found in flight (`sending`: a crash) may be
 * on the platform already and was cut off; one given back at a stop while in flight was cut off too.
 * `channelLastAttemptAt`: the latest post started in its channel, by any instance.
 */
function claimedEntry(r: OutboxRow, token: number, channelLastAttemptAt: number | null): ClaimedEntry {
  const crashed = r.state === 'sending';
  return {
    ...r,
    token,
    deliveryId: deliveryIdOf(r),
    recovered: crashed || r.maybeDelivered,
    maybeDelivered: crashed || r.maybeDelivered,
    uncertainSince: crashed ? (r.uncertainSince ?? r.lastAttemptAt ?? r.createdAt) : r.uncertainSince,
    interrupted: crashed || r.lastError === INTERRUPTED,
    channelLastAttemptAt,
  };
}

/** The outbox's counts per state (`oldest`: the oldest entry's creation time; `dups`: its possible duplicates). */
export interface StateCount {
  state: string;
  n: number;
  oldest: number | null;
  dups: number | null;
}

export function statsOf(rows: readonly StateCount[], heldChannels: number, at: number): OutboxStats {
  const by = (s: string) => rows.find((r) => r.state === s);
  const oldest = Math.min(...['pending', 'claimed', 'sending'].map((s) => by(s)?.oldest ?? Infinity));
  return {
    pending: by('pending')?.n ?? 0,
    sending: (by('claimed')?.n ?? 0) + (by('sending')?.n ?? 0),
    inFlight: by('sending')?.n ?? 0,
    failed: by('failed')?.n ?? 0,
    delivered: by('delivered')?.n ?? 0,
    possibleDuplicates: rows.reduce((sum, r) => sum + (r.dups ?? 0), 0),
    oldestPendingMs: Number.isFinite(oldest) ? Math.max(0, at - oldest) : 0,
    heldChannels,
  };
}

/**
 * The ids of instances surely gone: their heartbeat lapsed, or they ran on this host under a process id that no longer
 * runs, or under this very process's id but before it started (see ./leases.ts, `lapsed`).
 */
export function lapsedIds(
  instances: readonly InstanceRow[],
  self: InstanceInfo,
  at: number,
  lapseMs: number,
  isAlive: (pid: number) => boolean,
  processStartedAt: number,
): string[] {
  const gone = (i: InstanceRow) =>
    i.heartbeatAt < at - lapseMs ||
    (i.host === self.host && (i.pid === self.pid ? i.startedAt < processStartedAt : !isAlive(i.pid)));
  return instances.filter((i) => i.id !== self.id && gone(i)).map((i) => i.id);
}

/**
 * A claim's entries as handed over, each with its channel's latest post started (`lastAttempts`: per channel, by anyone).
 */
export function claimedEntries(
  rows: readonly OutboxRow[],
  token: number,
  lastAttempts: readonly { channel: string; at: number | null }[],
): ClaimedEntry[] {
  const lastAt = new Map(lastAttempts.map((l) => [l.channel, l.at]));
  return rows.map((r) => claimedEntry(r, token, lastAt.get(r.channel) ?? null));
}

/** What an entry that only points to others (a drops line) reads of each of them. */
export interface FollowedRow {
  state: string;
  firstAttemptAt: number | null;
}

/**
 * Whether an entry that only points to others is posted: when one of them was sent by this database ('post': its
 * first attempt is recorded, whatever answered it); later while one may still be ('wait'); never when every one was
 * found on the platform without an attempt, or given up ('fold': a restore re-decided what had been posted, and what
 * pointed to it was posted then too).
 */
export function followedVerdict(rows: readonly FollowedRow[]): 'post' | 'wait' | 'fold' {
  if (rows.some((r) => r.state === 'delivered' && r.firstAttemptAt !== null)) return 'post';
  if (rows.some((r) => !['delivered', 'failed', 'folded'].includes(r.state))) return 'wait';
  return 'fold';
}
