// Leases on named jobs (one poller run at a time across instances sharing the database) and each instance's
// heartbeat. A lease carries a fencing token, new at each take-over: renewing, finishing or committing under it checks
// the token, so an instance that stalled past its lease and lost it can change nothing.
import { and, eq, lt, sql } from 'drizzle-orm';
import { lapsedIds } from './claims.js';
import type { Fence, InstanceInfo, InstanceRow, LastRun, LeaseRepo } from './contracts/leases.js';
import type { Synced } from './contracts/synced.js';
import type { Store } from './db.js';
import { nextGeneration } from './meta.js';
import { instance, jobLease } from './schema.js';

/**
 * Whether a fence still holds its lease (no fence: nothing to check), prepared once for a repository: a run's commit
 * asks it in every transaction. Call it inside the transaction it guards.
 */
export function fenceCheck(store: Pick<Store, 'db'>): (fence: Fence | undefined) => boolean {
  const lease = store.db
    .select({ holder: jobLease.holder, token: jobLease.token })
    .from(jobLease)
    .where(eq(jobLease.name, sql.placeholder('name')))
    .prepare();
  return (fence) => {
    if (!fence) return true;
    const row = lease.get({ name: fence.name });
    return row !== undefined && row.holder === fence.holder && row.token === fence.token;
  };
}

export function createLeaseRepo(store: Store): Synced<LeaseRepo> {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();

  const holds = fenceCheck(store);

  return {
    /**
     * Takes the lease when it is free or expired, or held by one of `gone` (instances whose heartbeat lapsed): a new
     * token. Undefined while another holds it.
     */
    acquire(name: string, holder: string, at: number, ttlMs: number, gone: readonly string[] = []): Fence | undefined {
      return tx(() => {
        const row = db.select().from(jobLease).where(eq(jobLease.name, name)).get();
        if (row && row.until > at && !gone.includes(row.holder)) return undefined;
        const token = nextGeneration(sqlite);
        db.insert(jobLease)
          .values({ name, holder, until: at + ttlMs, token })
          .onConflictDoUpdate({ target: jobLease.name, set: { holder, until: at + ttlMs, token } })
          .run();
        return { name, holder, token };
      });
    },

    /** Extends the lease; only its holder under the same token can. False: it was lost (taken over). */
    renew(fence: Fence, at: number, ttlMs: number): boolean {
      return (
        db
          .update(jobLease)
          .set({ until: at + ttlMs })
          .where(and(eq(jobLease.name, fence.name), eq(jobLease.holder, fence.holder), eq(jobLease.token, fence.token)))
          .run().changes === 1
      );
    },

    holds,

    /** Ends the run: frees the lease and records it, only under the same token (a stale run records nothing). */
    finish(fence: Fence, run: LastRun | undefined): boolean {
      return (
        db
          .update(jobLease)
          .set({ until: 0, ...(run ? { lastRunAt: run.at, lastRunMs: run.ms, lastRunOk: run.ok } : {}) })
          .where(and(eq(jobLease.name, fence.name), eq(jobLease.holder, fence.holder), eq(jobLease.token, fence.token)))
          .run().changes === 1
      );
    },

    /**
     * A real committed write (the job table's row named 'healthz'), for /healthz: a read-only file, a full disk or a
     * read-only connection all fail it.
     */
    probe(at: number): void {
      db.insert(jobLease)
        .values({ name: 'healthz', holder: 'healthz', until: 0, lastRunAt: at, lastRunMs: 0, lastRunOk: true })
        .onConflictDoUpdate({ target: jobLease.name, set: { lastRunAt: at } })
        .run();
    },

    lastRun(name: string): LastRun | undefined {
      const row = db.select().from(jobLease).where(eq(jobLease.name, name)).get();
      return row?.lastRunAt != null
        ? { at: row.lastRunAt, ms: row.lastRunMs ?? 0, ok: Boolean(row.lastRunOk) }
        : undefined;
    },

    /** This instance is alive. */
    heartbeat(self: InstanceInfo, at: number): void {
      db.insert(instance)
        .values({ ...self, startedAt: at, heartbeatAt: at })
        .onConflictDoUpdate({ target: instance.id, set: { heartbeatAt: at } })
        .run();
    },

    /**
     * Instances that are surely gone: their heartbeat lapsed, or they ran on this host under a process id that no
     * longer
     * runs, or under this very process's id but before it started (a container restarted under the same pid; another
     * instance started since, such as the delivery thread, is a sibling). Their claims are taken over at once.
     */
    lapsed(
      self: InstanceInfo,
      at: number,
      lapseMs: number,
      isAlive: (pid: number) => boolean,
      processStartedAt = Infinity,
    ): string[] {
      return lapsedIds(db.select().from(instance).all(), self, at, lapseMs, isAlive, processStartedAt);
    },

    /**
     * An instance known to be gone (a delivery thread that died): its heartbeat set back to `lapsedAt`, a lapsed time.
     */
    markGone(id: string, lapsedAt: number): void {
      db.update(instance).set({ heartbeatAt: lapsedAt }).where(eq(instance.id, id)).run();
    },

    /** Forgets instances gone for longer than `olderThanMs` (bounded growth), and this one at a clean stop. */
    forget(ids: readonly string[] | { olderThan: number }): number {
      if (Array.isArray(ids))
        return ids.reduce((n, id) => n + db.delete(instance).where(eq(instance.id, id)).run().changes, 0);
      return db
        .delete(instance)
        .where(lt(instance.heartbeatAt, (ids as { olderThan: number }).olderThan))
        .run().changes;
    },

    instances(): InstanceRow[] {
      return db
        .select()
        .from(instance)
        .orderBy(sql`${instance.heartbeatAt} desc`)
        .all();
    },
  };
}
