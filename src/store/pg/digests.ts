// Market digests on Postgres, as ../digests.ts on SQLite (the contract, ../contracts/digests.ts, tells what each method
// means; the same calls give the same results). SQLite has one writer at a time; here a save locks its channel
// (./standing-orders.ts) before it counts and numbers, a run's record locks its digest's row, and a removal takes the
// row first, so a run recorded meanwhile either finds it gone or has its queued digest removed with it.
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import type { DigestRepo, DigestRow, DigestRunRecord, NewDigest } from '../contracts/digests.js';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import { digestPostponed, digestRunDone } from '../alert-digest-writes.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { digest, digestNumber, outbox } from './schema.js';
import { pgStandingOrdersOn } from './standing-orders.js';
import type { PgTx } from './tx.js';

// The advisory lock namespace of digest saves (the first key of pg_advisory_xact_lock(int, int)): 'dgst' in ASCII.
const CHANNEL_LOCK = 0x64677374;

/** Whether the digest is still there, locking its row until the commit (a removal waits for this transaction). */
async function lockDigest(tx: PgTx, id: number): Promise<boolean> {
  const rows = await tx.select({ id: digest.id }).from(digest).where(eq(digest.id, id)).for('no key update');
  return rows.length > 0;
}

export function createPgDigestRepo(store: PgStore, now: () => number = Date.now): DigestRepo {
  const { db } = store;
  const orders = pgStandingOrdersOn<DigestRow, number>(
    store,
    {
      table: digest,
      numbers: digestNumber,
      lock: CHANNEL_LOCK,
      only: (id: number) => eq(digest.id, id),
      dueOrder: [asc(digest.nextRunAt), asc(digest.id)],
      resumeNow: false,
    },
    now,
  );

  return {
    async create(input: NewDigest, limits: { perChannel: number }) {
      return db.transaction(async (tx): Promise<{ ok: true; row: DigestRow } | { ok: false; reason: 'channel' }> => {
        await orders.lockChannel(tx, input.channel);
        if ((await orders.countWhere(tx, eq(digest.channel, input.channel))) >= limits.perChannel)
          return { ok: false, reason: 'channel' };
        const number = await orders.nextNumber(tx, input.channel);
        const [row] = await tx
          .insert(digest)
          .values({ ...input, number, createdAt: now() })
          .returning();
        return { ok: true, row: row! };
      });
    },

    ...orders.shared,

    async remove(id: number) {
      await db.transaction(async (tx) => {
        // The row first: a run being recorded holds it, and its queued digest is then seen and removed below.
        await tx.delete(digest).where(eq(digest.id, id));
        await tx
          .delete(outbox)
          .where(and(like(outbox.dedupeKey, `digest:${id}:%`), inArray(outbox.state, ['pending', 'failed'])));
      });
    },

    async recordRun(id: number, run: DigestRunRecord, fence?: Fence) {
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
