// The digests' repository as both databases keep it (SQLite ../digests.ts, Postgres ../pg/digests.ts): a standing
// order (./standing-orders.ts) whose kind is a scheduled market summary. Plain types, in a module that imports no
// implementation.
import type { Fence } from './leases.js';
import type { NewDelivery } from './outbox.js';
import type { Created, StandingOrderRepo, StandingOrderRow } from './standing-orders.js';

/** A digest's own fields, in its side table (`digest`) beside its standing order (the schemas' row: a type test). */
export interface DigestFieldsRow {
  /** Its standing order's id. */
  id: number;
  /** The areas followed: JSON `[{ "id": 5002, "name": "Dubai Marina" }]`. */
  areas: string;
  timezone: string;
  /** The slot last composed and queued (a digest's `nextRunAt` is a slot: composed and queued once per slot). */
  lastSlot: number | null;
  /** Upstream calls the last run cost. */
  lastCalls: number | null;
}

/** A channel's market digest: its standing order's columns (its `schedule` JSON included) and its own. */
export interface DigestRow extends StandingOrderRow, DigestFieldsRow {}

export interface NewDigest {
  service: string;
  channel: string;
  owner: string;
  /** JSON of the areas followed. */
  areas: string;
  /** JSON of the schedule. */
  schedule: string;
  timezone: string;
  nextRunAt: number;
}

/** What one run of a digest did: the slot composed, when the next is due, and the digest queued (if any). */
export interface DigestRunRecord {
  slot: number;
  nextRunAt: number;
  at: number;
  calls: number;
  delivery: NewDelivery | undefined;
  error?: string;
}

/**
 * Market digests. A part of a run is a digest's id (one digest); a resumed digest keeps its next time unless given one.
 */
export interface DigestRepo extends StandingOrderRepo<DigestRow, number> {
  /** Saves a digest as `Created` promises (./standing-orders.ts), held to a limit per channel only. */
  create(
    input: NewDigest,
    limits: { perChannel: number },
  ): Promise<Created<DigestRow, { ok: false; reason: 'channel' }>>;
  /** Removes a digest with its digests not yet posted. */
  remove(id: number): Promise<void>;
  /**
   * A run composed the digest of `run.slot`: it is queued (once: its dedupe key is the slot) and the digest moves on to
   * `run.nextRunAt`, in one transaction, only while `fence` still holds the digests job (false when it no longer
   * does; true, queuing nothing, when the digest was removed meanwhile).
   */
  recordRun(id: number, run: DigestRunRecord, fence?: Fence): Promise<boolean>;
  /**
   * Moves a digest's next try (postponed for the call budget, or after a failure) without recording a run, queuing
   * `notice` when given, in one transaction under the fence (false when it no longer holds).
   */
  postpone(
    id: number,
    nextRunAt: number,
    reason: string,
    notice: NewDelivery | undefined,
    fence?: Fence,
  ): Promise<boolean>;
}
