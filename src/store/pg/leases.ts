// Leases on named jobs and each instance's heartbeat on Postgres, implementing ../contracts/leases.ts (which says what
// each method promises) as ../leases.ts does on SQLite. SQLite has one writer at a time; here a take-over locks the
// lease's row (FOR UPDATE) in a transaction, so two instances racing for a free or expired lease never both take it.
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { lapsedIds } from '../claims.js';
import type { Fence, LeaseRepo } from '../contracts/leases.js';
import { nextGeneration } from './meta.js';
import type { PgStore } from './open.js';
import { instance, jobLease } from './schema.js';
import type { PgRunner } from './tx.js';

/** Whether `fence` still holds its lease (no fence: nothing to check). Call inside the transaction it guards. */
export async function holdsLeaseIn(tx: PgRunner, fence: Fence | undefined): Promise<boolean> {
  if (!fence) return true;
  // FOR SHARE: a take-over (which locks the row for update) waits until this transaction ends, so the lease cannot be
  // lost between this check and the writes it guards.
  const [row] = await tx
    .select({ holder: jobLease.holder, token: jobLease.token })
    .from(jobLease)
    .where(eq(jobLease.name, fence.name))
    .for('share');
  return row !== undefined && row.holder === fence.holder && row.token === fence.token;
}

export function createPgLeaseRepo(store: PgStore): LeaseRepo {
  const { db } = store;
  const fenced = (fence: Fence) =>
    and(eq(jobLease.name, fence.name), eq(jobLease.holder, fence.holder), eq(jobLease.token, fence.token));

  return {
    async acquire(name, holder, at, ttlMs, gone = []) {
      return db.transaction(async (tx) => {
        // The row first (a placeholder, free), then locked: two instances racing for a lease, even one never taken
        // before, queue on its row, and the second sees what the first wrote.
        await tx.insert(jobLease).values({ name, holder: '', until: 0 }).onConflictDoNothing({ target: jobLease.name });
        const [row] = await tx.select().from(jobLease).where(eq(jobLease.name, name)).for('update');
        if (row && row.until > at && !gone.includes(row.holder)) return undefined;
        const token = await nextGeneration(tx);
        await tx
          .update(jobLease)
          .set({ holder, until: at + ttlMs, token })
          .where(eq(jobLease.name, name));
        return { name, holder, token };
      });
    },

    async renew(fence, at, ttlMs) {
      const result = await db
        .update(jobLease)
        .set({ until: at + ttlMs })
        .where(fenced(fence));
      return result.rowCount === 1;
    },

    holds: (fence) => holdsLeaseIn(db, fence),

    async finish(fence, run) {
      const result = await db
        .update(jobLease)
        .set({ until: 0, ...(run ? { lastRunAt: run.at, lastRunMs: run.ms, lastRunOk: run.ok } : {}) })
        .where(fenced(fence));
      return result.rowCount === 1;
    },

    async probe(at) {
      await db
        .insert(jobLease)
        .values({ name: 'healthz', holder: 'healthz', until: 0, lastRunAt: at, lastRunMs: 0, lastRunOk: true })
        .onConflictDoUpdate({ target: jobLease.name, set: { lastRunAt: at } });
    },

    async lastRun(name) {
      const [row] = await db.select().from(jobLease).where(eq(jobLease.name, name));
      return row?.lastRunAt != null
        ? { at: row.lastRunAt, ms: row.lastRunMs ?? 0, ok: Boolean(row.lastRunOk) }
        : undefined;
    },

    async heartbeat(self, at) {
      await db
        .insert(instance)
        .values({ ...self, startedAt: at, heartbeatAt: at })
        .onConflictDoUpdate({ target: instance.id, set: { heartbeatAt: at } });
    },

    async lapsed(self, at, lapseMs, isAlive, processStartedAt = Infinity) {
      return lapsedIds(await db.select().from(instance), self, at, lapseMs, isAlive, processStartedAt);
    },

    async markGone(id, lapsedAt) {
      await db.update(instance).set({ heartbeatAt: lapsedAt }).where(eq(instance.id, id));
    },

    async forget(ids) {
      if (Array.isArray(ids))
        return ids.length === 0 ? 0 : ((await db.delete(instance).where(inArray(instance.id, [...ids]))).rowCount ?? 0);
      return (
        (await db.delete(instance).where(lt(instance.heartbeatAt, (ids as { olderThan: number }).olderThan)))
          .rowCount ?? 0
      );
    },

    async instances() {
      return db.select().from(instance).orderBy(desc(instance.heartbeatAt));
    },
  };
}
