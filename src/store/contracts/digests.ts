// The digests' repository as both databases keep it (SQLite ../digests.ts, Postgres ../pg/digests.ts): a standing
// order (./standing-orders.ts) whose kind is a scheduled market summary. Plain types, in a module that imports no
// implementation.
import type { Fence } from './leases.js';
import type { NewDelivery } from './outbox.js';
import type { StandingOrderRepo } from './standing-orders.js';

/** A channel's market digest (the SQLite schema's row: held equal by a type test). */
export interface DigestRow {
  id: number;
  service: string;
  channel: string;
  number: number;
  owner: string;
  /** The areas followed: JSON `[{ "id": 5002, "name": "Dubai Marina" }]`. */
  areas: string;
  /** JSON: `{ "every": "week", "day": 1, "time": "09:00" }` (src/digests/schedule.ts). */
  schedule: string;
  timezone: string;
  paused: boolean;
  createdAt: number;
  /** The next due time (a slot): composed and queued once per slot. */
  nextRunAt: number;
  /** The slot last composed and queued, and when. */
  lastSlot: number | null;
  lastRunAt: number | null;
  /** Upstream calls the last run cost. */
  lastCalls: number | null;
  lastError: string | null;
}

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
 * Market digests. `create` is held to a limit per channel only; `due`'s `only` is a digest's id (one digest's part of
 * a run); a resumed digest keeps its next time unless given one; `remove` takes its digests not yet posted with it.
 */
export interface DigestRepo extends StandingOrderRepo<
  DigestRow,
  NewDigest,
  { perChannel: number },
  { ok: false; reason: 'channel' },
  number
> {
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
