// What the saved-search, seen and digest repositories write, decided once for both databases: SQLite (../store/*.ts)
// and Postgres (./pg/*.ts) run different statements, but the values they write come from here, so they cannot drift.
// Pure: no database, no clock.
import { getTableColumns, inArray, sql, type SQL, type SQLWrapper, type Table } from 'drizzle-orm';
import type { RunOutcome } from './contracts/seen.js';

/** A search or a digest numbered in its channel: the first number after the highest there (the counter may be higher). */
export const firstFreeNumber = (top: number | null | undefined): number => (top ?? 0) + 1;

/** A due scan's parts: one part, or a batch's in one statement (an empty batch matches nothing); all when undefined. */
export function partsWhere<Part>(column: SQLWrapper, part: Part | readonly Part[] | undefined): SQL | undefined {
  if (part === undefined) return undefined;
  if (!Array.isArray(part)) return sql`${column} = ${part}`;
  return part.length === 0 ? sql`0 = 1` : inArray(column, [...(part as readonly Part[])]);
}

/** The error a failed run keeps on its search, bounded. */
export const failureText = (error: string): string => error.slice(0, 500);

/** One seen row as a run writes it, with how an existing row's reported price is treated. */
export interface SeenWrite {
  searchId: number;
  propertyId: string;
  at: number;
  price: number | null;
  /** The reported price a new row gets; an existing row gets it too unless `keepReported`. */
  reported: number | null;
  /** No reported price given: an existing row keeps the one it has (or its last price, on rows from before it). */
  keepReported: boolean;
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  posted: boolean;
}

/** The seen rows of one run, in its order. */
export function seenWrites(outcome: Pick<RunOutcome, 'searchId' | 'at' | 'seen'>): SeenWrite[] {
  return outcome.seen.map((s) => {
    const keepReported = s.reportedPrice === undefined;
    return {
      searchId: outcome.searchId,
      propertyId: s.propertyId,
      at: outcome.at,
      price: s.price,
      reported: keepReported ? s.price : (s.reportedPrice ?? null),
      keepReported,
      locationKey: s.locationKey,
      bedrooms: s.bedrooms,
      size: s.size,
      posted: s.posted,
    };
  });
}

/**
 * After a restore, a search's first run since may queue facts the replaced database had already posted: they are
 * marked to be looked for on the platform first, back to the backup's time.
 */
export function uncertainAfterRestore(
  restore: { at: number; backupAt: number } | undefined,
  lastRunAt: number | null,
): { uncertainSince?: number } {
  return restore && (lastRunAt ?? 0) < restore.at ? { uncertainSince: restore.backupAt } : {};
}

/** An alert's schedule: every run of the alerts job (room for daily and weekly summaries later). */
export const ALERT_SCHEDULE = JSON.stringify({ every: 'run' });

/**
 * A run that writes nothing but its search's times (most runs of most alerts): nothing seen, posted, missed or
 * refreshed, not a first run, no error to clear. The times of a query's runs are written in one statement.
 */
export const onlyTimes = (o: RunOutcome): boolean =>
  o.seen.length === 0 &&
  o.deliveries.length === 0 &&
  !o.missed?.length &&
  !o.refreshed?.length &&
  !o.primed &&
  !o.clearError;

/** What a recorded run changes on its search: on its standing order, and on its own fields. */
export function runDone(outcome: Pick<RunOutcome, 'at' | 'primed' | 'clearError' | 'nextRunAt'>) {
  return {
    // A summary is due at its next slot. An instant alert is due at every run: its next_run_at, never later than the run
    // that took it, is left as it is, so recording its run changes no indexed column (on Postgres a HOT update, on
    // SQLite no move in the due index): most of the 10,000 writes of a run.
    order: {
      lastRunAt: outcome.at,
      ...(outcome.nextRunAt !== undefined ? { nextRunAt: outcome.nextRunAt } : {}),
      ...(outcome.clearError ? { lastError: null } : {}),
    },
    alert: {
      ...(outcome.primed ? { primedAt: outcome.at } : {}),
      ...(outcome.clearError ? { errorSince: null, errorReported: false } : {}),
    },
  };
}

/** What a digest's recorded run changes on it: on its standing order, and on its own fields. */
export function digestRunDone(run: { slot: number; nextRunAt: number; at: number; calls: number; error?: string }) {
  return {
    order: { lastRunAt: run.at, nextRunAt: run.nextRunAt, lastError: run.error ?? null },
    digest: { lastSlot: run.slot, lastCalls: run.calls },
  };
}

/** What postponing a digest changes on its standing order. */
export const digestPostponed = (nextRunAt: number, reason: string) => ({ nextRunAt, lastError: reason.slice(0, 300) });

/** A table's columns but its id: a kind's row reads the standing order's id beside its side table's own columns. */
export function ownColumns<T extends Table>(table: T): Omit<T['_']['columns'], 'id'> {
  const { id: _id, ...own } = getTableColumns(table);
  return own;
}
