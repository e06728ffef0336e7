// Market digests: which areas a channel follows and when each digest is due. src/digests decides; this file stores.
// A run's record (the digest queued in the outbox and the next due time) is one transaction under the job's fence,
// so a digest is queued once per slot, across crashes and instances.
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import type { Store } from './db.js';
import type { DigestRepo, DigestRow, DigestRunRecord, NewDigest } from './contracts/digests.js';
import type { Synced } from './contracts/synced.js';
import type { Fence } from './contracts/leases.js';
import { holdsLease } from './leases.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import { digestPostponed, digestRunDone } from './alert-digest-writes.js';
import { digest, digestNumber, outbox } from './schema.js';
import { standingOrdersOn } from './standing-orders.js';

/** The dedupe key prefix of a digest's outbox entries: `digest:<id>:<slot>`. */
export const digestKey = (id: number, slot: number) => `digest:${id}:${slot}`;

export function createDigestRepo(store: Store, now: () => number = Date.now): Synced<DigestRepo> {
  const { db, sqlite } = store;
  const orders = standingOrdersOn<DigestRow, number>(
    store,
    {
      table: digest,
      numbers: digestNumber,
      only: (id: number) => eq(digest.id, id),
      dueOrder: [asc(digest.nextRunAt), asc(digest.id)],
      resumeNow: false,
    },
    now,
  );
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox_ = createOutboxRepo(store, now);
  const holds = (fence: Fence | undefined) => holdsLease(store, fence);

  return {
    /** Saves a digest with the next free number in its channel, unless the channel has `perChannel` already. */
    create(
      input: NewDigest,
      limits: { perChannel: number },
    ): { ok: true; row: DigestRow } | { ok: false; reason: 'channel' } {
      return tx(() => {
        if (orders.countIn(input.channel) >= limits.perChannel)
          return { ok: false as const, reason: 'channel' as const };
        const number = orders.nextNumber(input.channel);
        const row = db
          .insert(digest)
          .values({ ...input, number, createdAt: now() })
          .returning()
          .get();
        return { ok: true as const, row };
      });
    },

    ...orders.shared,

    /** Removes a digest and its digests not yet posted. */
    remove(id: number): void {
      tx(() => {
        db.delete(outbox)
          .where(and(like(outbox.dedupeKey, `digest:${id}:%`), inArray(outbox.state, ['pending', 'failed'])))
          .run();
        db.delete(digest).where(eq(digest.id, id)).run();
      });
    },

    /**
     * A run composed the digest of `slot`: it is queued (once: its dedupe key is the slot) and the digest moves on to
     * `nextRunAt`, in one transaction, only while `fence` still holds the digests job. False when it no longer does.
     */
    recordRun(id: number, run: DigestRunRecord, fence?: Fence): boolean {
      return tx(() => {
        if (fence && !holds(fence)) return false;
        if (!db.select({ id: digest.id }).from(digest).where(eq(digest.id, id)).get()) return true; // removed meanwhile
        if (run.delivery) outbox_.enqueue(run.delivery, run.at);
        db.update(digest).set(digestRunDone(run)).where(eq(digest.id, id)).run();
        return true;
      });
    },

    /** Moves a digest's next try (postponed for the call budget) without recording a run. */
    postpone(id: number, nextRunAt: number, reason: string, notice: NewDelivery | undefined, fence?: Fence): boolean {
      return tx(() => {
        if (fence && !holds(fence)) return false;
        if (notice) outbox_.enqueue(notice);
        db.update(digest).set(digestPostponed(nextRunAt, reason)).where(eq(digest.id, id)).run();
        return true;
      });
    },
  };
}
