// The leases' contract, through the port only, so it runs the same on SQLite and on Postgres
// (the .test.ts file of the same name): one holder of a job at a time, fenced by a token new at each take-over; the
// health
// probe; each instance's heartbeat and who is surely gone. And two instances racing for one lease.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InstanceInfo } from '../../../src/store/index.js';
import type { LeaseRepo } from '../../../src/store/contracts/leases.js';
import type { Stores } from './databases.js';

const T = 1_000_000;
const JOB = 'poller';

export function leasesContract(open: () => Promise<Stores>): void {
  describe('leases', () => {
    let db: Stores;
    let leases: LeaseRepo;
    beforeEach(async () => {
      db = await open();
      leases = db.leases;
    });
    afterEach(() => db.close());

    describe('a job’s lease', () => {
      it('is taken when free and refused while held, even to its holder', async () => {
        const a = await leases.acquire(JOB, 'a', T, 1_000);
        expect(a).toEqual({ name: JOB, holder: 'a', token: expect.any(Number) });
        expect(await leases.holds(a!)).toBe(true);
        expect(await leases.acquire(JOB, 'b', T + 999, 1_000)).toBeUndefined();
        expect(await leases.acquire(JOB, 'a', T + 999, 1_000)).toBeUndefined();
        // Another job's lease is its own.
        expect(await leases.acquire('digests', 'b', T, 1_000)).toMatchObject({ holder: 'b' });
      });

      it('is taken over when it ran out, or when its holder is gone, under a new larger token', async () => {
        const a = (await leases.acquire(JOB, 'a', T, 1_000))!;
        const b = (await leases.acquire(JOB, 'b', T + 1_000, 1_000))!;
        expect(b.token).toBeGreaterThan(a.token);
        expect(await leases.holds(a)).toBe(false);
        expect(await leases.holds(b)).toBe(true);
        expect(await leases.acquire(JOB, 'c', T + 1_500, 1_000, ['a'])).toBeUndefined();
        const c = (await leases.acquire(JOB, 'c', T + 1_500, 1_000, ['b']))!;
        expect(c).toMatchObject({ name: JOB, holder: 'c' });
        expect(c.token).toBeGreaterThan(b.token);
        // Tokens never repeat, whichever job.
        const other = (await leases.acquire('digests', 'a', T, 1_000))!;
        expect(other.token).toBeGreaterThan(c.token);
      });

      it('is renewed only by its holder under the same token', async () => {
        const a = (await leases.acquire(JOB, 'a', T, 1_000))!;
        expect(await leases.renew({ ...a, holder: 'b' }, T + 500, 60_000)).toBe(false);
        expect(await leases.renew({ ...a, token: a.token + 1 }, T + 500, 60_000)).toBe(false);
        expect(await leases.renew(a, T + 500, 1_000)).toBe(true);
        expect(await leases.acquire(JOB, 'b', T + 1_499, 1_000)).toBeUndefined();
        const b = await leases.acquire(JOB, 'b', T + 1_500, 1_000);
        expect(b).toBeDefined();
        expect(await leases.renew(a, T + 1_501, 60_000)).toBe(false);
        expect(await leases.holds(b!)).toBe(true);
      });

      it('finish frees it and records the run, only under the same token', async () => {
        expect(await leases.lastRun(JOB)).toBeUndefined();
        const a = (await leases.acquire(JOB, 'a', T, 60_000))!;
        expect(await leases.finish(a, { at: T, ms: 42, ok: true })).toBe(true);
        expect(await leases.lastRun(JOB)).toEqual({ at: T, ms: 42, ok: true });
        // Free at once for anyone.
        const b = (await leases.acquire(JOB, 'b', T + 1, 60_000))!;
        expect(await leases.finish(a, { at: T + 1, ms: 1, ok: false })).toBe(false);
        expect(await leases.lastRun(JOB)).toEqual({ at: T, ms: 42, ok: true });
        expect(await leases.finish(b, { at: T + 2, ms: 7, ok: false })).toBe(true);
        expect(await leases.lastRun(JOB)).toEqual({ at: T + 2, ms: 7, ok: false });
        // A run that recorded nothing frees it and leaves the last run.
        const c = (await leases.acquire(JOB, 'c', T + 3, 60_000))!;
        expect(await leases.finish(c, undefined)).toBe(true);
        expect(await leases.lastRun(JOB)).toEqual({ at: T + 2, ms: 7, ok: false });
        expect(await leases.acquire(JOB, 'd', T + 4, 60_000)).toBeDefined();
      });

      it('a lease never taken is held by no one', async () => {
        expect(await leases.holds({ name: 'never', holder: 'a', token: 1 })).toBe(false);
        expect(await leases.lastRun('never')).toBeUndefined();
      });
    });

    it('probe writes and records a run of its own', async () => {
      await leases.probe(T);
      expect(await leases.lastRun('healthz')).toEqual({ at: T, ms: 0, ok: true });
      await leases.probe(T + 5);
      expect(await leases.lastRun('healthz')).toEqual({ at: T + 5, ms: 0, ok: true });
    });

    describe('instances', () => {
      const self: InstanceInfo = { id: 'self', host: 'h1', pid: 100 };

      it('a heartbeat records an instance once, with when it started and when it was last alive; newest first', async () => {
        await leases.heartbeat(self, T);
        await leases.heartbeat({ id: 'other', host: 'h2', pid: 7 }, T + 1);
        await leases.heartbeat(self, T + 5_000);
        expect(await leases.instances()).toEqual([
          { id: 'self', host: 'h1', pid: 100, startedAt: T, heartbeatAt: T + 5_000 },
          { id: 'other', host: 'h2', pid: 7, startedAt: T + 1, heartbeatAt: T + 1 },
        ]);
      });

      it('lapsed lists the surely gone: a heartbeat too old, a dead process on this host, this pid before this process', async () => {
        const at = T + 100_000;
        await leases.heartbeat(self, at);
        await leases.heartbeat({ id: 'old', host: 'h2', pid: 1 }, at - 15_001);
        await leases.heartbeat({ id: 'recent', host: 'h2', pid: 1 }, at - 15_000);
        await leases.heartbeat({ id: 'dead', host: 'h1', pid: 200 }, at);
        await leases.heartbeat({ id: 'alive', host: 'h1', pid: 300 }, at);
        await leases.heartbeat({ id: 'restarted', host: 'h1', pid: 100 }, at - 10);
        await leases.heartbeat({ id: 'sibling', host: 'h1', pid: 100 }, at - 5);
        const isAlive = (pid: number) => pid !== 200;
        const lapsed = async (processStartedAt?: number) =>
          (await leases.lapsed(self, at, 15_000, isAlive, processStartedAt)).sort();
        expect(await lapsed(at - 5)).toEqual(['dead', 'old', 'restarted']);
        expect(await lapsed()).toEqual(['dead', 'old', 'restarted', 'sibling']);
      });

      it('markGone lapses one at once; forget removes by id or by age', async () => {
        await leases.heartbeat(self, T);
        await leases.heartbeat({ id: 'thread', host: 'h1', pid: 100 }, T);
        await leases.heartbeat({ id: 'old', host: 'h2', pid: 1 }, T - 50_000);
        expect(await leases.lapsed(self, T, 15_000, () => true, T - 1)).toEqual(['old']);
        await leases.markGone('thread', T - 20_000);
        expect((await leases.lapsed(self, T, 15_000, () => true, T - 1)).sort()).toEqual(['old', 'thread']);
        expect(await leases.forget({ olderThan: T - 20_000 })).toBe(1);
        expect(await leases.forget(['thread', 'nobody'])).toBe(1);
        expect(await leases.forget([])).toBe(0);
        expect((await leases.instances()).map((i) => i.id)).toEqual(['self']);
      });
    });

    it('two instances racing for a free or expired lease: exactly one takes it', async () => {
      const other = await db.connect();
      for (let i = 0; i < 20; i++) {
        const name = `job-${i}`;
        if (i % 2 === 1) await leases.acquire(name, 'old', T - 2_000, 1_000);
        const got = await Promise.all([leases.acquire(name, 'a', T, 1_000), other.leases.acquire(name, 'b', T, 1_000)]);
        expect(got.filter((f) => f !== undefined)).toHaveLength(1);
        const winner = got.find((f) => f !== undefined)!;
        expect(await other.leases.holds(winner)).toBe(true);
      }
    });
  });
}
