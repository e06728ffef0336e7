// The alerts' repository as both databases keep it (SQLite ../alert-definitions.ts, Postgres ../pg/alert-definitions.ts):
// a standing order (./standing-orders.ts) whose kind is a saved search. What each alert has seen is ./seen.ts's.
// Plain types, in a module that imports no implementation.
import type { ChannelSettingsRepo } from './channel-settings.js';
import type { Fence } from './leases.js';
import type { NewDelivery } from './outbox.js';
import type { SeenRepo } from './seen.js';
import type { Created, StandingOrderRepo, StandingOrderRow } from './standing-orders.js';

/** An alert's own fields, in its side table (`saved_search`) beside its standing order (the schemas' row: a type test). */
export interface AlertFieldsRow {
  /** Its standing order's id. */
  id: number;
  /** The command as typed. */
  text: string;
  /** The parsed query and resolved location, versioned JSON. */
  query: string;
  operation: string;
  /** Canonical endpoint parameters (no page, no sort): searches with the same key are fetched once per run. */
  paramsKey: string;
  summary: string;
  /** Its words in and out as one key (query/words.ts wordsKey), '' for none: never part of the params key. */
  words: string;
  /**
   * The lifecycle events it also posts (issue 40), as a key (alerts/lifecycle.ts): '' for none (new listings and price
   * drops), `back` (back on the market), `gone`, or `back,gone`.
   */
  lifecycle: string;
  /** Set by the first run, which records what exists and posts nothing. */
  primedAt: number | null;
  errorSince: number | null;
  /** True once the channel was told that this search keeps failing. */
  errorReported: boolean;
}

/** A saved search: its standing order's columns and its own, read as one row. */
export interface AlertRow extends StandingOrderRow, AlertFieldsRow {}

/** What a save gives: the row's own fields, the store numbering, timing and stating the rest (its schedule: every run). */
export type NewAlert = Pick<
  AlertRow,
  'service' | 'channel' | 'owner' | 'text' | 'query' | 'operation' | 'paramsKey' | 'summary'
> &
  Partial<Pick<AlertRow, 'words' | 'lifecycle'>> & {
    /** How often it posts (JSON, src/alerts/frequency.ts); every run (instant) when not given. */
    schedule?: string;
    /** When it is first due (default: at once, for its first look). */
    nextRunAt?: number;
  };

export interface AlertLimits {
  perChannel: number;
  perOwner: number;
}

/** Why a save was refused: a limit, or the same search saved in the channel already (`existing`). */
export type AlertRefusal =
  { ok: false; reason: 'channel' | 'owner' } | { ok: false; reason: 'duplicate'; existing: AlertRow };

export type CreateResult = Created<AlertRow, AlertRefusal>;

/**
 * Saved searches. A part of a run is a params key (one query, fetched once for every alert that asks it); a resumed
 * alert is due at once.
 */
export interface AlertDefinitionRepo extends StandingOrderRepo<AlertRow, string> {
  /**
   * Saves a search as `Created` promises (./standing-orders.ts), refusing first the same search (same service,
   * canonical query and words) saved in the channel already, a double click on "Save as alert", then the per-channel and
   * per-owner limits.
   */
  create(input: NewAlert, limits: AlertLimits): Promise<CreateResult>;
  /** Removes a search with what it has seen and its deliveries not yet posted. */
  remove(id: number): Promise<void>;
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
  /** How often it posts (its schedule, JSON: src/alerts/frequency.ts) and when it is due next; a person's change. */
  setSchedule(id: number, schedule: string, nextRunAt: number): Promise<void>;
}

/** What src/alerts reaches of the store: saved searches and what each has seen (./seen.ts), as one port. */
export type AlertsRepo = AlertDefinitionRepo & SeenRepo & ChannelSettingsRepo;
