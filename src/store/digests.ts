// Market digests: which areas a channel follows and when each digest is due. src/digests decides; this file stores.
// A run's record (the digest queued in the outbox and the next due time) is one transaction under the job's fence,
// so a digest is queued once per slot, across crashes and instances.
import { and, asc, eq, inArray, like, lte, notInArray, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import type { Fence } from './contracts/leases.js';
import { holdsLease } from './leases.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import { digestPostponed, digestRunDone, firstFreeNumber } from './alert-digest-writes.js';
import { digest, digestNumber, outbox, channelHold } from './schema.js';

export type DigestRow = typeof digest.$inferSelect;

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

/** The dedupe key prefix of a digest's outbox entries: `digest:<id>:<slot>`. */
export const digestKey = (id: number, slot: number) => `digest:${id}:${slot}`;

export function createDigestRepo(store: Store, now: () => number = Date.now) {
  const { db, sqlite } = store;
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
        const count = db
          .select({ n: sql<number>`count(*)` })
          .from(digest)
          .where(eq(digest.channel, input.channel))
          .get()!.n;
        if (count >= limits.perChannel) return { ok: false as const, reason: 'channel' as const };
        const top = db
          .select({ n: sql<number | null>`max(${digest.number})` })
          .from(digest)
          .where(eq(digest.channel, input.channel))
          .get()!.n;
        const { last: number } = db
          .insert(digestNumber)
          .values({ channel: input.channel, last: firstFreeNumber(top) })
          .onConflictDoUpdate({
            target: digestNumber.channel,
            set: { last: sql`max(${digestNumber.last} + 1, ${firstFreeNumber(top)})` },
          })
          .returning()
          .get();
        const row = db
          .insert(digest)
          .values({ ...input, number, createdAt: now() })
          .returning()
          .get();
        return { ok: true as const, row };
      });
    },

    listByChannel(channel: string): DigestRow[] {
      return db.select().from(digest).where(eq(digest.channel, channel)).orderBy(asc(digest.number)).all();
    },

    byNumber(channel: string, number: number): DigestRow | undefined {
      return db
        .select()
        .from(digest)
        .where(and(eq(digest.channel, channel), eq(digest.number, number)))
        .get();
    },

    byId(id: number): DigestRow | undefined {
      return db.select().from(digest).where(eq(digest.id, id)).get();
    },

    setPaused(id: number, paused: boolean, nextRunAt?: number): void {
      db.update(digest)
        .set({ paused, ...(nextRunAt !== undefined ? { nextRunAt } : {}) })
        .where(eq(digest.id, id))
        .run();
    },

    /** Removes a digest and its digests not yet posted. */
    remove(id: number): void {
      tx(() => {
        db.delete(outbox)
          .where(and(like(outbox.dedupeKey, `digest:${id}:%`), inArray(outbox.state, ['pending', 'failed'])))
          .run();
        db.delete(digest).where(eq(digest.id, id)).run();
      });
    },

    /** Active digests of this service whose slot has come, the longest-waiting first (`id`: only that one). */
    due(service: string, at: number, id?: number): DigestRow[] {
      return (
        db
          .select()
          .from(digest)
          // A channel held because it cannot receive (or whose workspace removed Manzil) waits: no digest piles up for
          // it.
          .where(
            and(
              eq(digest.service, service),
              id === undefined ? undefined : eq(digest.id, id),
              eq(digest.paused, false),
              lte(digest.nextRunAt, at),
              notInArray(digest.channel, db.select({ channel: channelHold.channel }).from(channelHold)),
            ),
          )
          .orderBy(asc(digest.nextRunAt), asc(digest.id))
          .all()
      );
    },

    count(service?: string): number {
      const q = db.select({ n: sql<number>`count(*)` }).from(digest);
      return (service ? q.where(eq(digest.service, service)) : q).get()!.n;
    },

    /**
     * A run composed the digest of `slot`: it is queued (once: its dedupe key is the slot) and the digest moves on to
     * `nextRunAt`, in one transaction, only while `fence` still holds the digests job. False when it no longer does.
     */
    recordRun(
      id: number,
      run: {
        slot: number;
        nextRunAt: number;
        at: number;
        calls: number;
        delivery: NewDelivery | undefined;
        error?: string;
      },
      fence?: Fence,
    ): boolean {
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

export type SyncDigestRepo = ReturnType<typeof createDigestRepo>;
