// The alerts' repository as both databases keep it (SQLite ../alert-definitions.ts, Postgres ../pg/alert-definitions.ts):
// a standing order (./standing-orders.ts) whose kind is a saved search. What each alert has seen is ./seen.ts's.
// Plain types, in a module that imports no implementation.
import type { Fence } from './leases.js';
import type { NewDelivery } from './outbox.js';
import type { StandingOrderRepo } from './standing-orders.js';

/** A saved search (the SQLite schema's row: held equal by a type test). */
export interface AlertRow {
  id: number;
  service: string;
  channel: string;
  number: number;
  owner: string;
  /** The command as typed. */
  text: string;
  /** The parsed query and resolved location, versioned JSON. */
  query: string;
  operation: string;
  /** Canonical endpoint parameters (no page, no sort): searches with the same key are fetched once per run. */
  paramsKey: string;
  summary: string;
  paused: boolean;
  createdAt: number;
  /** Set by the first run, which records what exists and posts nothing. */
  primedAt: number | null;
  lastRunAt: number | null;
  nextRunAt: number;
  lastError: string | null;
  errorSince: number | null;
  /** True once the channel was told that this search keeps failing. */
  errorReported: boolean;
}

/** What a save gives: the row's own fields, the store numbering, timing and stating the rest. */
export type NewAlert = Pick<
  AlertRow,
  'service' | 'channel' | 'owner' | 'text' | 'query' | 'operation' | 'paramsKey' | 'summary'
>;

export interface AlertLimits {
  perChannel: number;
  perOwner: number;
}

/** Why a save was refused: a limit, or the same search saved in the channel already (`existing`). */
export type AlertRefusal =
  { ok: false; reason: 'channel' | 'owner' } | { ok: false; reason: 'duplicate'; existing: AlertRow };

export type CreateResult = { ok: true; row: AlertRow } | AlertRefusal;

/**
 * Saved searches. `create` refuses the same search (same service and canonical query) saved in the channel already, a
 * double click on "Save as alert", before the limits; `due`'s `only` is a params key (one query's part of a run); a
 * resumed alert is due at once.
 */
export interface AlertDefinitionRepo extends StandingOrderRepo<AlertRow, NewAlert, AlertLimits, AlertRefusal, string> {
  /**
   * When a search of this query (service and params key) last polled it successfully, or undefined: what the chat's
   * answer cache must not be older than, since the poll may have found new listings (the poller may run elsewhere).
   */
  lastPolled(service: string, paramsKey: string): Promise<number | undefined>;
  /** Every search not paused, of any service and channel: what the start-up checks (src/alerts/impossible.ts). */
  active(): Promise<AlertRow[]>;
  /** Saved searches of another property service than `service` (they are not run), in all channels or one. */
  countElsewhere(service: string, channel?: string): Promise<number>;
  /**
   * A run that could not fetch: the error is kept (and since when), nothing is marked seen, and the search is due again
   * at `at`. With a `fence`, only while it still holds its lease, checked in the write's transaction: a stale run
   * records nothing (undefined).
   */
  recordFailure(searchId: number, error: string, at: number, fence?: Fence): Promise<AlertRow | undefined>;
  /** Queues the "this search keeps failing" notice and marks it told, in one transaction (under the fence, when given). */
  reportFailing(searchId: number, delivery: NewDelivery, fence?: Fence): Promise<void>;
}
