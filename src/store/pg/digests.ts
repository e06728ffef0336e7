// Market digests on Postgres, as ../digests.ts on SQLite (which tells what each method means; the same calls give the
// same results). SQLite has one writer at a time; here a save locks its place (a transaction-scoped advisory lock)
// before
// it counts and numbers, a run's record locks its digest's row, and a removal takes the row first, so a run recorded
// meanwhile either finds it gone or has its queued digest removed with it.
import { and, asc, count, eq, inArray, like, lte, max, notInArray, sql } from 'drizzle-orm';
import type { DigestRow, NewDigest, SyncDigestRepo } from '../digests.js';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import type { DigestRepo } from '../promised.js';
import { digestPostponed, digestRunDone, firstFreeNumber } from '../alert-digest-writes.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { digest, digestNumber, outbox, channelHold } from './schema.js';
import type { PgTx } from './tx.js';

// The advisory lock namespace of digest saves (the first key of pg_advisory_xact_lock(int, int)): 'dgst' in ASCII.
const CHANNEL_LOCK = 0x64677374;

type RunRecord = Parameters<SyncDigestRepo['recordRun']>[1];

/** The next number in `channel`, never one given before there. Call holding the channel's lock. */
async function nextNumber(tx: PgTx, channel: string): Promise<number> {
  const [top] = await tx
    .select({ n: max(digest.number) })
    .from(digest)
    .where(eq(digest.channel, channel));
  const next = firstFreeNumber(top?.n);
  const [row] = await tx
    .insert(digestNumber)
    .values({ channel, last: next })
    .onConflictDoUpdate({
      target: digestNumber.channel,
      set: { last: sql`greatest(${digestNumber.last} + 1, ${next}::int)` },
    })
    .returning({ last: digestNumber.last });
  return row!.last;
}

/** Whether the digest is still there, locking its row until the commit (a removal waits for this transaction). */
async function lockDigest(tx: PgTx, id: number): Promise<boolean> {
  const rows = await tx.select({ id: digest.id }).from(digest).where(eq(digest.id, id)).for('no key update');
  return rows.length > 0;
}

export function createPgDigestRepo(store: PgStore, now: () => number = Date.now): DigestRepo {
  const { db } = store;

  return {
    async create(input: NewDigest, limits: { perChannel: number }) {
      return db.transaction(async (tx): Promise<{ ok: true; row: DigestRow } | { ok: false; reason: 'channel' }> => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHANNEL_LOCK}::int, hashtext(${input.channel}))`);
        const [inChannel] = await tx.select({ n: count() }).from(digest).where(eq(digest.channel, input.channel));
        if (inChannel!.n >= limits.perChannel) return { ok: false, reason: 'channel' };
        const number = await nextNumber(tx, input.channel);
        const [row] = await tx
          .insert(digest)
          .values({ ...input, number, createdAt: now() })
          .returning();
        return { ok: true, row: row! };
      });
    },

    async listByChannel(channel: string) {
      return db.select().from(digest).where(eq(digest.channel, channel)).orderBy(asc(digest.number));
    },

    async byNumber(channel: string, number: number) {
      const [row] = await db
        .select()
        .from(digest)
        .where(and(eq(digest.channel, channel), eq(digest.number, number)));
      return row;
    },

    async byId(id: number) {
      const [row] = await db.select().from(digest).where(eq(digest.id, id));
      return row;
    },

    async setPaused(id: number, paused: boolean, nextRunAt?: number) {
      await db
        .update(digest)
        .set({ paused, ...(nextRunAt !== undefined ? { nextRunAt } : {}) })
        .where(eq(digest.id, id));
    },

    async remove(id: number) {
      await db.transaction(async (tx) => {
        // The row first: a run being recorded holds it, and its queued digest is then seen and removed below.
        await tx.delete(digest).where(eq(digest.id, id));
        await tx
          .delete(outbox)
          .where(and(like(outbox.dedupeKey, `digest:${id}:%`), inArray(outbox.state, ['pending', 'failed'])));
      });
    },

    async due(service: string, at: number, id?: number) {
      const held = db.select({ channel: channelHold.channel }).from(channelHold);
      return db
        .select()
        .from(digest)
        .where(
          and(
            eq(digest.service, service),
            id === undefined ? undefined : eq(digest.id, id),
            eq(digest.paused, false),
            lte(digest.nextRunAt, at),
            notInArray(digest.channel, held),
          ),
        )
        .orderBy(asc(digest.nextRunAt), asc(digest.id));
    },

    async count(service?: string) {
      const [row] = await db
        .select({ n: count() })
        .from(digest)
        .where(service ? eq(digest.service, service) : undefined);
      return row!.n;
    },

    async recordRun(id: number, run: RunRecord, fence?: Fence) {
      return db.transaction(async (tx) => {
        if (fence && !(await holdsLeaseIn(tx, fence))) return false;
        if (!(await lockDigest(tx, id))) return true; // removed meanwhile
        if (run.delivery) await enqueueIn(tx, run.delivery, run.at);
        await tx.update(digest).set(digestRunDone(run)).where(eq(digest.id, id));
        return true;
      });
    },

    async postpone(id: number, nextRunAt: number, reason: string, notice: NewDelivery | undefined, fence?: Fence) {
      return db.transaction(async (tx) => {
        if (fence && !(await holdsLeaseIn(tx, fence))) return false;
        if (notice) await enqueueIn(tx, notice, now());
        await tx.update(digest).set(digestPostponed(nextRunAt, reason)).where(eq(digest.id, id));
        return true;
      });
    },
  };
}
