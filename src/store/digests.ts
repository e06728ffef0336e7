// Market digests: which areas a channel follows and when each digest is due, their shared columns in standing_order and
// their own in digest. src/digests decides; this file stores. A run's record (the digest queued in the outbox and the
// next due time) is one transaction under the job's fence, so a digest is queued once per slot, across crashes and
// instances.
import { and, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import type { Store } from './db.js';
import type { DigestRepo, DigestRunRecord, NewDigest } from './contracts/digests.js';
import type { Synced } from './contracts/synced.js';
import type { Fence } from './contracts/leases.js';
import { fenceCheck } from './leases.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import { digestPostponed, digestRunDone, ownColumns } from './alert-digest-writes.js';
import { digestFields as d, outbox, standingOrder as o } from './schema.js';
import { standingOrdersOn } from './standing-orders.js';

export const DIGEST = 'digest';
const columns = { ...ownColumns(o), ...ownColumns(d), id: o.id };
const joined = eq(d.id, o.id);

/** The dedupe key prefix of a digest's outbox entries: `digest:<id>:<slot>`. */
export const digestKey = (id: number, slot: number) => `digest:${id}:${slot}`;

export function createDigestRepo(store: Store, now: () => number = Date.now): Synced<DigestRepo> {
  const { db, sqlite } = store;
  const select = (where: SQL | undefined, order: SQL[]) =>
    db
      .select(columns)
      .from(o)
      .innerJoin(d, joined)
      .where(where)
      .orderBy(...order);
  const orders = standingOrdersOn(
    store,
    {
      kind: DIGEST,
      read: (where: SQL | undefined, order: SQL[]) => select(where, order).all(),
      prepareRead: (where, order) => {
        const q = select(where, order).prepare();
        return (params) => q.all(params);
      },
      join: { table: d, on: joined },
      part: sql<number>`${o.id}`,
      wait: sql`${o.nextRunAt}`,
      resumeNow: false,
    },
    now,
  );
  const ofKind = eq(o.kind, DIGEST);
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox_ = createOutboxRepo(store, now);
  const holds = fenceCheck(store);
  const exists = (id: number) =>
    db
      .select({ id: o.id })
      .from(o)
      .where(and(ofKind, eq(o.id, id)))
      .get() !== undefined;

  return {
    /** Saves a digest with the next free number in its channel, unless the channel has `perChannel` already. */
    create(input: NewDigest, limits: { perChannel: number }) {
      return tx(() => {
        if (orders.countIn(input.channel) >= limits.perChannel)
          return { ok: false as const, reason: 'channel' as const };
        const number = orders.nextNumber(input.channel);
        const { areas, timezone, ...order } = input;
        const { id } = db
          .insert(o)
          .values({ ...order, kind: DIGEST, number, createdAt: now() })
          .returning({ id: o.id })
          .get();
        db.insert(d).values({ id, areas, timezone }).run();
        return { ok: true as const, row: orders.shared.byId(id)! };
      });
    },

    ...orders.shared,

    /** Removes a digest and its digests not yet posted. */
    remove(id: number): void {
      tx(() => {
        if (!exists(id)) return;
        db.delete(outbox)
          .where(and(like(outbox.dedupeKey, `digest:${id}:%`), inArray(outbox.state, ['pending', 'failed'])))
          .run();
        db.delete(o).where(eq(o.id, id)).run();
      });
    },

    /**
     * A run composed the digest of `slot`: it is queued (once: its dedupe key is the slot) and the digest moves on to
     * `nextRunAt`, in one transaction, only while `fence` still holds the digests job. False when it no longer does.
     */
    recordRun(id: number, run: DigestRunRecord, fence?: Fence): boolean {
      return tx(() => {
        if (fence && !holds(fence)) return false;
        if (!exists(id)) return true; // removed meanwhile
        if (run.delivery) outbox_.enqueue(run.delivery, run.at);
        const done = digestRunDone(run);
        db.update(o).set(done.order).where(eq(o.id, id)).run();
        db.update(d).set(done.digest).where(eq(d.id, id)).run();
        return true;
      });
    },

    /** Moves a digest's next try (postponed for the call budget) without recording a run. */
    postpone(id: number, nextRunAt: number, reason: string, notice: NewDelivery | undefined, fence?: Fence): boolean {
      return tx(() => {
        if (fence && !holds(fence)) return false;
        if (notice) outbox_.enqueue(notice);
        db.update(o)
          .set(digestPostponed(nextRunAt, reason))
          .where(and(ofKind, eq(o.id, id)))
          .run();
        return true;
      });
    },
  };
}
