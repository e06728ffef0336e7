// Fencing: an instance that stalled past its claim or its lease, and lost it to another instance sharing the database,
// can change nothing. Two drainers (and two pollers) on one real SQLite file; the sandbox on loopback.
import { describe, expect, it } from 'vitest';
import { POLL_JOB, pollOnce } from '../../src/alerts/index.js';
import { runLeased } from '../../src/jobs/index.js';
import { PostFailure } from '../../src/ports/index.js';
import { alertsRig, ctx, POLLER } from '../alerts/helpers.js';
import { Clock, notice, Platform, until } from './helpers.js';

describe('two drainers on one database, one stalled past its claim', () => {
  it('the entry is posted once, by the one that took it over; the stalled one’s late answer changes nothing', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    await rig.outbox.enqueue(notice('test:c1', 'one alert'), clock.t);
    const [queued] = await rig.outbox.list();
    // Instance A's post hangs (the network stalled): nothing reaches the platform until it gives up, much later.
    let giveUp!: (f: PostFailure) => void;
    const stalled = new Platform('test', () => new Promise<PostFailure>((r) => (giveUp = r)));
    const a = rig.newDrainer({ posters: [stalled], holder: 'a', now: clock.now, options: { leaseMs: 60_000 } });
    const aDrain = a.drain();
    await until(() => stalled.events.length === 1);
    const inFlight = (await rig.outbox.byId(queued!.id))!;
    expect(inFlight).toMatchObject({ state: 'sending', claimedBy: 'a' });
    const staleToken = inFlight.claimToken!;

    // A's claim runs out; instance B takes the entry over, looks for it (it was in flight), and posts it.
    clock.advance(60_001);
    const platform = new Platform('test');
    const b = rig.newDrainer({ posters: [platform], holder: 'b', now: clock.now, options: { leaseMs: 60_000 } });
    expect(await b.drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(platform.events.map((e) => e.split(':')[0])).toEqual(['look', 'post']);
    const delivered = (await rig.outbox.byId(queued!.id))!;
    expect(delivered).toMatchObject({ state: 'delivered', messageId: 'm1', claimedBy: null });

    // A's post finally gives up ("maybe posted"): its drainer records the failure under its old token. Nothing changes.
    giveUp(new PostFailure('timed out', 'maybe_posted'));
    const aReport = await aDrain;
    expect(aReport.delivered).toBe(0);
    expect(await rig.outbox.byId(queued!.id)).toEqual(delivered);

    // Every other late change with the old token is refused too, and so is a late markFailed under the new one.
    const id = queued!.id;
    expect(await rig.outbox.markDelivered(id, staleToken, 'late-message', clock.t)).toBe(false);
    expect(await rig.outbox.markFailed(id, staleToken, { error: 'late failure', retryAt: clock.t })).toBeUndefined();
    expect(
      await rig.outbox.markFailed(id, staleToken, { error: 'late failure, parked', retryAt: undefined }),
    ).toBeUndefined();
    expect(
      await rig.outbox.markFailed(id, inFlight.claimToken! + 1, { error: 'late failure', retryAt: clock.t }),
    ).toBeUndefined();
    expect(await rig.outbox.markPosting(id, staleToken, clock.t, clock.t + 60_000)).toBe(false);
    expect(await rig.outbox.extendClaims([{ id, token: staleToken }], clock.t + 60_000)).toBe(0);
    await rig.outbox.requeue([{ id, token: staleToken }], clock.t);
    expect(await rig.outbox.byId(id)).toEqual(delivered);

    // And nothing is ever posted again by either.
    clock.advance(3_600_000);
    await Promise.all([a.drain(), b.drain()]);
    expect(stalled.posts).toHaveLength(0);
    expect(platform.posts).toHaveLength(1);
    expect(await rig.outbox.stats(clock.t)).toMatchObject({
      delivered: 1,
      pending: 0,
      sending: 0,
      failed: 0,
      possibleDuplicates: 0,
    });
  });

  it('an entry that waited its turn past its claim is not posted by the stalled instance once another took it', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    await rig.outbox.enqueue(notice('test:c1', 'waiting its turn'), clock.t);
    // A claims it, then stalls before posting (its event loop blocked, a long GC): its claim runs out.
    const [mine] = await rig.outbox.claimDue({
      holder: 'a',
      at: clock.t,
      leaseMs: 1_000,
      perChannel: 10,
      channels: 10,
      platforms: ['test'],
    });
    clock.advance(1_001);
    const platform = new Platform('test');
    expect(await rig.newDrainer({ posters: [platform], holder: 'b', now: clock.now }).drain()).toMatchObject({
      delivered: 1,
    });
    // A wakes up: it may not start its post, and its late give-back or failure changes nothing.
    expect(await rig.outbox.markPosting(mine!.id, mine!.token, clock.t, clock.t + 1_000)).toBe(false);
    await rig.outbox.requeue([mine!], clock.t);
    expect(await rig.outbox.markFailed(mine!.id, mine!.token, { error: 'late', retryAt: clock.t })).toBeUndefined();
    expect(await rig.outbox.byId(mine!.id)).toMatchObject({ state: 'delivered', messageId: 'm1' });
    expect(platform.posts).toHaveLength(1);
  });
});

describe('the poller’s lease', () => {
  it('is renewed only by its holder under its token; once taken over, the old fence renews, commits and records nothing', async () => {
    const { leases } = await alertsRig();
    const t = 1_000_000;
    const a = (await leases.acquire(POLL_JOB, 'a', t, 1_000))!;
    expect(a).toBeDefined();
    expect(await leases.acquire(POLL_JOB, 'b', t + 500, 1_000)).toBeUndefined();
    // Another instance cannot extend it, under A's name with another token or under its own name with A's token.
    expect(await leases.renew({ ...a, holder: 'b' }, t + 500, 60_000)).toBe(false);
    expect(await leases.renew({ ...a, token: a.token + 1 }, t + 500, 60_000)).toBe(false);
    expect(await leases.acquire(POLL_JOB, 'b', t + 999, 1_000)).toBeUndefined();
    // A itself can (to t + 1000 here), and then it runs out: B takes it.
    expect(await leases.renew(a, t + 200, 800)).toBe(true);
    expect(await leases.acquire(POLL_JOB, 'b', t + 999, 1_000)).toBeUndefined();
    expect(await leases.acquire(POLL_JOB, 'b', t + 1_000, 1_000)).toBeDefined();
    // (B now holds it; A's renewal is refused from here on, however late.)
    expect(await leases.renew(a, t + 1_001, 60_000)).toBe(false);
    expect(await leases.holds(a)).toBe(false);
    expect(await leases.finish(a, { at: t, ms: 1_234, ok: true })).toBe(false);
    expect(await leases.lastRun(POLL_JOB)).toBeUndefined();
  });

  it('a run that stalled past its lease is told to stop, and its finish records no run: the last run stays the other’s', async () => {
    const rig = await alertsRig();
    const clock = new Clock();
    // An earlier run, recorded.
    const earlier = (await rig.leases.acquire(POLL_JOB, 'b', clock.t, 60_000))!;
    expect(await rig.leases.finish(earlier, { at: clock.t, ms: 42, ok: true })).toBe(true);
    const before = await rig.leases.lastRun(POLL_JOB);
    expect(before).toEqual({ at: clock.t, ms: 42, ok: true });

    let proceed: (() => void) | undefined;
    let aborted = false;
    const run = runLeased(
      { leases: rig.leases, name: POLL_JOB, holder: 'a', logger: rig.logger, ttlMs: 200, now: clock.now },
      async (_fence, signal) => {
        await new Promise<void>((r) => (proceed = r));
        aborted = signal.aborted;
        return { ok: true };
      },
    );
    await until(() => proceed !== undefined); // A holds the lease and its run is under way
    // A stalls (as the other instance's clock sees it): its lease runs out and B takes it over.
    clock.advance(10_000);
    expect(await rig.leases.acquire(POLL_JOB, 'b', clock.t, 60_000)).toBeDefined();
    await until(() => rig.logs.some((l) => /another instance took over this job’s lease/.test(l)));
    proceed!();
    expect(await run).toMatchObject({ ran: true });
    expect(aborted).toBe(true);
    expect(await rig.leases.lastRun(POLL_JOB)).toEqual(before);
    // The lease is still B's: A cannot take it back before it runs out.
    expect(await rig.leases.acquire(POLL_JOB, 'a', clock.t + 1_000, 60_000)).toBeUndefined();
  });

  /** A primed alert with new listings waiting, and an earlier run recorded; the lease free. */
  async function pollerWithNews() {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    await rig.commands.handle(ctx(), 'add buy dubai marina');
    await rig.poll();
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    const searches = await rig.repo.listByChannel('test:c1');
    const lastRun = await rig.leases.lastRun(POLL_JOB);
    expect(lastRun).toBeDefined();
    rig.sandbox.clearRequests();
    return { rig, searches, lastRun };
  }

  /** A poller run on a fake clock whose queries stall; once they are in flight, another instance takes the lease. */
  async function staleRun(rig: Awaited<ReturnType<typeof pollerWithNews>>['rig']) {
    const clock = new Clock();
    const leaseMs = 400; // renewed every 100 ms
    const run = pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, concurrency: 2 },
      now: clock.now,
      leaseMs,
      holder: 'stalled',
    });
    await until(() => rig.sandbox.requests().length >= 2);
    clock.advance(leaseMs + 1);
    const other = await rig.leases.acquire(POLL_JOB, 'other', clock.t, 60_000);
    expect(other).toBeDefined();
    return { report: await run, other: other!, at: clock.t };
  }

  it('a stale run whose queries answered records nothing (no seen listings, no deliveries, no last run); the new holder does', async () => {
    const { rig, searches, lastRun } = await pollerWithNews();
    rig.sandbox.addFault({ latencyMs: 600, count: 2 });
    const { report, other } = await staleRun(rig);
    expect(report.queued).toBe(0);
    expect(await rig.outbox.list()).toEqual([]);
    expect(await rig.repo.listByChannel('test:c1')).toEqual(searches);
    expect(await rig.leases.lastRun(POLL_JOB)).toEqual(lastRun);
    // The instance that took over runs them (so the stale run had something to record).
    expect(await rig.leases.finish(other, undefined)).toBe(true);
    expect((await rig.poll()).queued).toBeGreaterThan(0);
  });

  it('a stale run whose queries failed records no failure either: the searches do not turn “failing” behind the new holder’s back', async () => {
    const { rig, searches, lastRun } = await pollerWithNews();
    rig.sandbox.addFault({ latencyMs: 600, status: 503 }); // every attempt of both queries, slowly
    const { report } = await staleRun(rig);
    rig.sandbox.clearFaults();
    expect(report.queued).toBe(0);
    expect(await rig.leases.lastRun(POLL_JOB)).toEqual(lastRun);
    expect(
      (await rig.repo.listByChannel('test:c1')).map((s) => ({
        lastError: s.lastError,
        errorSince: s.errorSince,
        lastRunAt: s.lastRunAt,
        nextRunAt: s.nextRunAt,
      })),
    ).toEqual(
      searches.map((s) => ({
        lastError: s.lastError,
        errorSince: s.errorSince,
        lastRunAt: s.lastRunAt,
        nextRunAt: s.nextRunAt,
      })),
    );
    const list = await rig.commands.handle(ctx(), 'list');
    expect(list.text).not.toMatch(/failing/);
  });
});

// The poller's worker pool (eachLimited, Promise.allSettled) is not tested here: nothing a run does can make one
// query's worker throw through pollOnce honestly. runQuery catches every failure of the fetch, and what is left is
// SQLite, which throws only past the 5 s busy timeout of a lock held by another process, a wait that blocks the whole
// event loop, so whether the other workers were waited for cannot be told from outside.
