// Market digests on Postgres, as ../digests.ts on SQLite (the contract, ../contracts/digests.ts, tells what each method
// means; the same calls give the same results). SQLite has one writer at a time; here a save locks its channel
// (./standing-orders.ts) before it counts and numbers, a run's record locks its digest's row, and a removal takes the
// row first, so a run recorded meanwhile either finds it gone or has its queued digest removed with it.
import { and, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import type { DigestRepo, DigestRow, DigestRunRecord, NewDigest } from '../contracts/digests.js';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import { digestPostponed, digestRunDone, ownColumns } from '../alert-digest-writes.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { digestFields as d, outbox, standingOrder as o } from './schema.js';
import { pgStandingOrdersOn } from './standing-orders.js';
import type { PgRunner, PgTx } from './tx.js';

const DIGEST = 'digest';
const CHANNEL_LOCK = 0x64677374;
const columns = { ...ownColumns(o), ...ownColumns(d), id: o.id };
const joined = eq(d.id, o.id);
const ofKind = eq(o.kind, DIGEST);

/** Whether the digest is still there, locking its row until the commit (a removal waits for this transaction). */
async function lockDigest(tx: PgTx, id: number): Promise<boolean> {
  const rows = await tx
    .select({ id: o.id })
    .from(o)
    .where(and(ofKind, eq(o.id, id)))
    .for('no key update');
  return rows.length > 0;
}

const read = (r: PgRunner, where: SQL | undefined, order: SQL[]) =>
  r
    .select(columns)
    .from(o)
    .innerJoin(d, joined)
    .where(where)
    .orderBy(...order);

export function createPgDigestRepo(store: PgStore, now: () => number = Date.now): DigestRepo {
  const { db } = store;
  const orders = pgStandingOrdersOn(
    store,
    {
      kind: DIGEST,
      read,
      join: { table: d, on: joined },
      lock: CHANNEL_LOCK,
      part: sql<number>`${o.id}`,
      wait: sql`${o.nextRunAt}`,
      resumeNow: false,
    },
    now,
  );

  return {
    async create(input: NewDigest, limits: { perChannel: number }) {
      return db.transaction(async (tx): Promise<{ ok: true; row: DigestRow } | { ok: false; reason: 'channel' }> => {
        await orders.lockChannel(tx, input.channel);
        if ((await orders.countWhere(tx, eq(o.channel, input.channel))) >= limits.perChannel)
          return { ok: false, reason: 'channel' };
        const number = await orders.nextNumber(tx, input.channel);
        const { areas, timezone, ...order } = input;
        const [made] = await tx
          .insert(o)
          .values({ ...order, kind: DIGEST, number, createdAt: now() })
          .returning({ id: o.id });
        await tx.insert(d).values({ id: made!.id, areas, timezone });
        const [row] = await read(tx, eq(o.id, made!.id), []);
        return { ok: true, row: row! };
      });
    },

    ...orders.shared,

    async remove(id: number) {
      await db.transaction(async (tx) => {
        const gone = await tx
          .delete(o)
          .where(and(ofKind, eq(o.id, id)))
          .returning({ id: o.id });
        if (gone.length === 0) return;
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
        const done = digestRunDone(run);
        await tx.update(o).set(done.order).where(eq(o.id, id));
        await tx.update(d).set(done.digest).where(eq(d.id, id));
        return true;
      });
    },

    async postpone(id: number, nextRunAt: number, reason: string, notice: NewDelivery | undefined, fence?: Fence) {
      return db.transaction(async (tx) => {
        if (fence && !(await holdsLeaseIn(tx, fence))) return false;
        if (notice) await enqueueIn(tx, notice, now());
        await tx
          .update(o)
          .set(digestPostponed(nextRunAt, reason))
          .where(and(ofKind, eq(o.id, id)));
        return true;
      });
    },
  };
}
