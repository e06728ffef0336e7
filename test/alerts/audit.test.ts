// The outbox's claims, alert numbers, price drops, pruning, shutdown mid-run, and the poller's paging and budget:
// the sandbox, the real client and a real SQLite file.
import { describe, expect, it } from 'vitest';
import { POLL_JOB, pollOnce } from '../../src/alerts/index.js';
import { JobScheduler } from '../../src/jobs/index.js';
import { pruneOutbox } from '../../src/outbox/index.js';
import type { LookupRequest, LookupResult } from '../../src/ports/index.js';
import { deliveryIdOf } from '../../src/store/index.js';
import { ApiClient } from '../../src/api/index.js';
import { StateMaintenance } from '../../src/bot/index.js';
import { createLogger } from '../../src/log.js';
import { alertsRig, claimsRunOut, ctx, POLLER, RecordingPoster } from './helpers.js';

const text = (r: { text: string }) => r.text;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;

/** A platform whose posts hang (the process "dies" mid-post) and one that answers findDelivered and records it. */
class HangingPoster extends RecordingPoster {
  readonly started: string[] = [];
  override async post(_channel: string, _reply: unknown, deliveryId: string): Promise<{ messageId: string }> {
    this.started.push(deliveryId);
    return new Promise(() => {});
  }
}
class CheckingPoster extends RecordingPoster {
  readonly asked: string[] = [];
  async findDelivered(request: LookupRequest): Promise<LookupResult> {
    this.asked.push(request.deliveryId);
    return { kind: 'absent' };
  }
}

describe('outbox claims', () => {
  it('after a crash mid-post only the entry whose post was in flight is looked for; the rest of the claimed batch is just sent', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    const report = await rig.poll();
    expect(report.queued).toBeGreaterThan(2);
    const hanging = new HangingPoster();
    const dying = rig.newDrainer({ posters: [hanging], holder: 'dying', options: { leaseMs: 150 } });
    void dying.drain();
    while (hanging.started.length === 0) await sleep(5);
    // The whole batch is claimed, one entry is in flight.
    expect(await rig.outbox.stats()).toMatchObject({ sending: report.queued, inFlight: 1 });
    expect((await rig.outbox.list({ state: 'sending' })).map(deliveryIdOf)).toEqual(hanging.started);
    await claimsRunOut(rig.outbox); // the dead instance's claims run out
    const checking = new CheckingPoster('test');
    const next = rig.newDrainer({ posters: [checking], holder: 'next', options: { leaseMs: 150 } });
    const drained = await next.drain();
    expect(checking.asked).toEqual(hanging.started);
    expect(drained).toMatchObject({ delivered: report.queued, possibleDuplicates: 0 });
    expect(new Set(checking.posts.map((p) => p.deliveryId)).size).toBe(report.queued);
  });
});

describe('a post found in flight after a crash, given back before its turn', () => {
  it('is still looked for on the platform at its next claim, not sent blindly', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    expect((await rig.poll()).queued).toBeGreaterThan(1);
    const hanging = new HangingPoster();
    const dying = rig.newDrainer({ posters: [hanging], holder: 'dying', options: { leaseMs: 150 } });
    void dying.drain();
    while (hanging.started.length === 0) await sleep(5);
    await claimsRunOut(rig.outbox); // the dead instance's claims run out
    // The next instance claims the batch, the one found in flight among it, and gives it all back before posting
    // anything (a shutdown; a channel held by a 429 does the same).
    const claimed = await rig.outbox.claimDue({
      holder: 'between',
      at: Date.now(),
      leaseMs: 60_000,
      perChannel: 200,
      channels: 100,
      platforms: ['test'],
    });
    expect(claimed.filter((e) => e.recovered).map((e) => e.deliveryId)).toEqual(hanging.started);
    await rig.outbox.release('between');
    const checking = new CheckingPoster('test');
    const next = rig.newDrainer({ posters: [checking], holder: 'next', options: { leaseMs: 150 } });
    await next.drain();
    expect(checking.asked).toEqual(hanging.started);
  });
});

describe('alert numbers', () => {
  it('are never reused in a channel: save 1, 2, 3, remove 3, save: #4', async () => {
    const rig = await alertsRig();
    expect(text(await rig.commands.handle(ctx(), 'add rent marina'))).toMatch(/^Saved as alert #1/);
    expect(text(await rig.commands.handle(ctx(), 'add buy marina'))).toMatch(/^Saved as alert #2/);
    expect(text(await rig.commands.handle(ctx(), 'add rent jvc'))).toMatch(/^Saved as alert #3/);
    expect(text(await rig.commands.handle(ctx(), 'remove 3'))).toMatch(/Removed alert #3/);
    expect(text(await rig.commands.handle(ctx(), 'add rent jlt'))).toMatch(/^Saved as alert #4/);
    // Another channel counts on its own; a restart keeps the count.
    expect(text(await rig.commands.handle(ctx('test:c2'), 'add rent jlt'))).toMatch(/^Saved as alert #1/);
    expect(text(await rig.commands.handle(ctx(), 'remove 4'))).toMatch(/Removed alert #4/);
    rig.store.close();
    const again = rig.reopen();
    expect(text(await again.commands.handle(ctx(), 'add buy jvc'))).toMatch(/^Saved as alert #5/);
    expect((await again.repo.listByChannel('test:c1')).map((r) => r.number)).toEqual([1, 2, 5]);
  });
});

describe('price drops and last seen', () => {
  it('three 0.5 % cuts add up to one drop card, measured from the price the channel was told', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    const newest = (await rig.repo.seen(search.id))
      .filter((s) => s.lastPrice !== null)
      .sort((x, y) => Number(y.propertyId) - Number(x.propertyId))[0]!;
    const told = newest.lastPrice!;
    let price = told;
    for (let cut = 1; cut <= 3; cut++) {
      price = Math.round(price * 0.995);
      rig.sandbox.reprice(newest.propertyId, price);
      const report = await rig.poll();
      expect(report.priceDrops, `after cut ${cut}`).toBe(cut < 3 ? 0 : 1);
    }
    await rig.drainer.drain();
    const drops = rig.poster.posts.filter((p) => /Price dropped/.test(p.reply.text));
    expect(drops).toHaveLength(1);
    expect(drops[0]!.reply.text).toContain(
      `Price dropped from AED ${told.toLocaleString('en-US')} to AED ${price.toLocaleString('en-US')}`,
    );
    // The next small cut is measured from the price just posted: not a drop yet.
    rig.sandbox.reprice(newest.propertyId, Math.round(price * 0.995));
    expect((await rig.poll()).priceDrops).toBe(0);
  });

  it('marks every listing a run reads as seen now in its story, changed or not, without rewriting each alert row', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    const later = Date.now() + 3_600_000;
    rig.sandbox.clearRequests();
    await pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, maxPages: 1 },
      now: () => later,
    });
    const rows = await rig.repo.seen(search.id);
    const stories = await rig.repo.history(
      rig.service,
      rows.map((r) => r.propertyId),
    );
    const read = new Set(
      rig.sandbox.requests().length > 0 ? stories.filter((h) => h.lastSeenAt === later).map((h) => h.propertyId) : [],
    );
    // Page 1 (25 listings, none changed) was read: each of them is seen now; the alert's rows, unchanged, are not written.
    expect(read.size).toBe(25);
    expect(rows.filter((r) => r.lastSeenAt === later)).toEqual([]);
  });
});

describe('pruning', () => {
  it('deletes delivered entries older than 30 days on the maintenance pass, and never what a live search has seen', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.advance(60);
    const t0 = Date.now();
    await rig.poll();
    await rig.drainer.drain();
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    const seenBefore = (await rig.repo.seen(search.id)).length;
    const delivered = (await rig.outbox.list({ state: 'delivered' })).length;
    expect(delivered).toBeGreaterThan(0);
    // Sixty days later a run reads page 1 again; the listings deeper down are not read, yet may still be live.
    await pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, maxPages: 1 },
      now: () => t0 + 60 * DAY,
    });
    const ids = (await rig.repo.seen(search.id)).map((r) => r.propertyId);
    expect((await rig.repo.history(rig.service, ids)).filter((h) => h.lastSeenAt === t0 + 60 * DAY)).toHaveLength(25);
    expect(seenBefore).toBeGreaterThan(25);
    await rig.outbox.enqueue({
      searchId: search.id,
      channel: 'test:c1',
      kind: 'recovered',
      dedupeKey: 'still-pending',
      payload: '{}',
    });

    // 29 days after the deliveries: nothing is old enough to go.
    expect(await pruneOutbox(rig.outbox, t0 + 29 * DAY)).toEqual({ outbox: 0 });
    // On the maintenance pass 100 days after t0: old deliveries go, the pending entry stays, and the seen set is whole:
    // a listing unread for 100 days that comes back to page 1 is not posted as new.
    const maintenance = new StateMaintenance({
      buttons: { prune: () => 0 },
      buttonRetentionMs: DAY,
      logger: rig.logger,
      alerts: { prune: () => pruneOutbox(rig.outbox, t0 + 100 * DAY) },
    });
    expect(await maintenance.runOnce()).toEqual({ buttons: 0, locations: 0, alerts: { outbox: delivered } });
    expect(await rig.repo.seen(search.id)).toHaveLength(seenBefore);
    expect((await rig.outbox.list()).map((r) => r.dedupeKey)).toEqual(['still-pending']);
  });
});

describe('a shutdown mid-run', () => {
  it('starts no query after the abort, records the one under way whole, and the rest run next time', async () => {
    const rig = await alertsRig();
    for (const q of ['rent marina', 'buy marina', 'rent jvc', 'buy jvc']) await rig.commands.handle(ctx(), `add ${q}`);
    rig.sandbox.advance(60);
    rig.sandbox.clearRequests();
    rig.sandbox.addFault({ latencyMs: 300, count: 100 });
    const aborter = new AbortController();
    const at = Date.now() + 60_000;
    const started = Date.now();
    const run = pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, concurrency: 1 },
      now: () => at,
      signal: aborter.signal,
    });
    while (rig.sandbox.requests().length === 0) await sleep(5);
    aborter.abort();
    const report = await run;
    // Only the query under way was run: the three others were never sent upstream.
    expect(report).toMatchObject({ queries: 1, skipped: 3 });
    expect(rig.sandbox.requests().filter((r) => r.path.startsWith('/search-'))).toHaveLength(report.calls);
    const rows = await rig.repo.listByChannel('test:c1');
    const ran = rows.filter((r) => r.lastRunAt === at);
    expect(ran).toHaveLength(1);
    // The query under way read its page(s) and recorded them with its search's bookkeeping, in one transaction.
    expect((await rig.repo.seen(ran[0]!.id)).some((s) => s.lastSeenAt === at)).toBe(true);
    rig.sandbox.clearFaults();
    // The next run takes the three not reached (the one that ran is not due again until its next turn).
    const next = await rig.poll();
    expect(next).toMatchObject({ searches: 3, queries: 3, skipped: 0 });
    expect(
      (await rig.repo.listByChannel('test:c1'))
        .filter((r) => r.id !== ran[0]!.id)
        .every((r) => r.lastRunAt! > started && r.lastRunAt !== at),
    ).toBe(true);
  });
});

describe('an instance that loses the poller lease mid-run', () => {
  it('starts no further query and records none once another instance has taken the lease over, and leaves the lease to it', async () => {
    const rig = await alertsRig();
    for (const q of ['rent marina', 'buy marina', 'rent jvc', 'buy jvc']) await rig.commands.handle(ctx(), `add ${q}`);
    rig.sandbox.clearRequests();
    rig.sandbox.addFault({ latencyMs: 600, count: 100 }); // a query outlasts several renewals
    const at = Date.now() + 60_000;
    const leaseMs = 400; // renewed every 100 ms
    const run = pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, concurrency: 1 },
      now: () => at,
      leaseMs,
      holder: 'stalled',
    });
    while (rig.sandbox.requests().length === 0) await sleep(5);
    // This instance stalled past its lease (as seen from the other one's clock), and the other took the lease over.
    expect(await rig.leases.acquire(POLL_JOB, 'other', at + leaseMs + 1, 60_000)).toBeDefined();
    const report = await run;
    expect(report.queries).toBeLessThan(4);
    expect(report.skipped).toBe(4 - report.queries);
    expect(rig.logs.join('\n')).toMatch(/another instance took over this job’s lease/);
    // Not even the query that was under way is recorded: the other instance runs those searches.
    expect((await rig.repo.listByChannel('test:c1')).filter((r) => r.lastRunAt === at)).toEqual([]);
    expect(report.queued).toBe(0);
    // The lease stays the other instance's: the stalled one cannot take it back before it runs out.
    expect(await rig.leases.acquire(POLL_JOB, 'stalled', at, leaseMs)).toBeUndefined();
    rig.sandbox.clearFaults();
  });
});

describe('the scheduler', () => {
  it('never overlaps runs on a six-field (seconds) cron; an overrun tick is logged and skipped', async () => {
    const logs: string[] = [];
    const logger = createLogger({ level: 'debug', write: (l) => logs.push(l) });
    let running = 0;
    let most = 0;
    let runs = 0;
    const overran = () => logs.some((l) => /still going at its next tick/.test(l));
    // Until it holds, or 8 s (the assertions then say what went wrong).
    const until = async (cond: () => boolean) => {
      for (const end = Date.now() + 8_000; !cond() && Date.now() < end;) await sleep(10);
    };
    const scheduler = new JobScheduler({ timezone: 'Asia/Dubai', logger });
    scheduler.register({
      name: 'every-second',
      cron: '* * * * * *',
      run: async () => {
        runs++;
        most = Math.max(most, ++running);
        // A run that outlasts the period whatever the load: it ends once the next tick has come (skipped, or
        // overlapping).
        await until(() => overran() || most > 1);
        running--;
      },
    });
    scheduler.start();
    await until(() => overran() || most > 1);
    await scheduler.stop();
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(most).toBe(1);
    expect(logs.some((l) => /still going at its next tick/.test(l))).toBe(true);
  }, 10_000);
});

describe('the call budget', () => {
  it('counts pages, not queries: the oldest-run queries go first, the rest wait, and the shortfall is logged', async () => {
    const rig = await alertsRig();
    // Alert #1's first look fails: unprimed, it reads every page it may (3) on its first run, and it is the oldest-run.
    rig.sandbox.addFault({ status: 503, count: 4, path: '/search-rent' });
    expect(text(await rig.commands.handle(ctx(), 'add rent marina'))).toMatch(/first look on the next check/);
    rig.sandbox.clearFaults();
    await sleep(60); // the client's breaker cools down
    await rig.commands.handle(ctx(), 'add buy marina');
    await rig.commands.handle(ctx(), 'add buy jvc');
    const [oldest, middle, newest] = await rig.repo.listByChannel('test:c1');
    const budgeted = new ApiClient({
      baseUrl: rig.sandbox.url!,
      key: rig.sandbox.key,
      budget: { perDay: 4, maxWaitMs: 0 },
      logger: rig.logger,
    });
    try {
      rig.sandbox.clearRequests();
      const at = Date.now() + 1_000;
      const report = await pollOnce({
        api: budgeted,
        repo: rig.repo,
        leases: rig.leases,
        service: rig.service,
        logger: rig.logger,
        options: POLLER,
        now: () => at,
      });
      // #1 costs 3 calls, #2 the fourth; #3 waits for the next run instead of failing mid-way.
      expect(rig.sandbox.requests()).toHaveLength(4);
      expect(report).toMatchObject({ queries: 2, deferred: 1, failedQueries: 0 });
      const after = await rig.repo.listByChannel('test:c1');
      expect(after.find((r) => r.id === oldest!.id)!.lastRunAt).toBe(at);
      expect(after.find((r) => r.id === middle!.id)!.lastRunAt).toBe(at);
      expect(after.find((r) => r.id === newest!.id)!.lastRunAt).toBe(newest!.lastRunAt);
      expect(rig.logs.some((l) => /call budget cannot cover every due query/.test(l))).toBe(true);
      expect(rig.logs.some((l) => /not sent/.test(l))).toBe(false);
    } finally {
      await budgeted.close();
    }
  });
});

describe('paging', () => {
  it('reads the next page only while every listing is new, up to maxPages', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    // Quiet: page 1 has seen listings, so one call.
    rig.sandbox.clearRequests();
    await rig.poll({ maxPages: 3 });
    expect(rig.upstreamCalls('/search-rent')).toBe(1);
    // A few new listings: page 1 is not all new, still one call.
    rig.sandbox.advance(60);
    rig.sandbox.clearRequests();
    await rig.poll({ maxPages: 3 });
    expect(rig.upstreamCalls('/search-rent')).toBe(1);
    // Forget what it has seen: every page is all new, so it reads up to maxPages, and no further.
    rig.store.sqlite.prepare('delete from search_seen').run();
    expect(await rig.repo.seen(search.id)).toHaveLength(0);
    rig.sandbox.clearRequests();
    await rig.poll({ maxPages: 2 });
    expect(
      rig.sandbox
        .requests()
        .filter((r) => r.path === '/search-rent')
        .map((r) => r.params.page),
    ).toEqual(['1', '2']);
  });
});

describe('upstream 429', () => {
  it('marks nothing seen and the listing is posted after recovery', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    const seenBefore = (await rig.repo.seen(search.id)).length;
    rig.sandbox.advance(60);
    rig.sandbox.addFault({ status: 429, retryAfter: 0, count: 100 });
    const failing = await rig.poll();
    expect(failing).toMatchObject({ failedQueries: 1, queued: 0 });
    expect(await rig.repo.seen(search.id)).toHaveLength(seenBefore);
    expect((await rig.repo.listByChannel('test:c1'))[0]!.lastError).toMatch(/rate-limiting/);
    rig.sandbox.clearFaults();
    await sleep(60);
    const ok = await rig.poll();
    expect(ok.newListings).toBeGreaterThan(0);
    await rig.drainer.drain();
    expect(rig.poster.posts).toHaveLength(ok.queued);
    expect((await rig.repo.seen(search.id)).length).toBeGreaterThan(seenBefore);
  });
});

describe('/alerts test and pause', () => {
  it('`/alerts test <n>` shows what would be posted and posts and records nothing', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.advance(60);
    const search = (await rig.repo.listByChannel('test:c1'))[0]!;
    const seen = (await rig.repo.seen(search.id)).length;
    const preview = await rig.commands.handle(ctx('test:c1', 'U2'), 'test 1');
    const m = /would post (\d+) messages? now\. This is a preview: nothing was posted\./.exec(preview.text);
    expect(m).not.toBeNull();
    expect(preview.ephemeral).toBe(true);
    const cards = preview.blocks.filter((b) => b.kind === 'card').length;
    expect(cards).toBeGreaterThan(0);
    await rig.drainer.drain();
    expect(rig.poster.posts).toHaveLength(0);
    expect(await rig.outbox.list()).toHaveLength(0);
    expect(await rig.repo.seen(search.id)).toHaveLength(seen);
    // The run that follows posts exactly what the preview showed.
    const report = await rig.poll();
    expect(report.queued).toBe(Number(m![1]));
  });

  it('a paused alert is not polled, and a resumed one is', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    expect(text(await rig.commands.handle(ctx(), 'pause 2'))).toMatch(/Paused alert #2/);
    rig.sandbox.advance(60);
    rig.sandbox.clearRequests();
    const paused = await rig.poll();
    expect(paused.searches).toBe(1);
    expect(rig.upstreamCalls('/search-buy')).toBe(0);
    expect(text(await rig.commands.handle(ctx(), 'resume 2'))).toMatch(/Resumed alert #2/);
    const resumed = await rig.poll();
    expect(resumed.searches).toBe(2);
    expect(rig.upstreamCalls('/search-buy')).toBe(1);
  });
});
