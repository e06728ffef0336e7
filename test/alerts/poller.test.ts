// The poller against the sandbox's market clock, the real client and a real SQLite file (a shared run: on Postgres).
import { describe, expect, it } from 'vitest';
import { dueQueries, POLL_JOB, pollOnce, type RunReport } from '../../src/alerts/index.js';
import { SharedScheduler } from '../../src/jobs/index.js';
import { PostFailure } from '../../src/ports/index.js';
import type { OutboxRepo } from '../../src/store/index.js';
import { freshPostgres } from '../support/postgres.js';
import { alertsRig, ctx, onCleanup, pgInstance, POLLER } from './helpers.js';

const text = (r: { text: string }) => r.text;

describe('saving a search as an alert', () => {
  it('says what happens next and how many match today, and posts nothing on the first look', async () => {
    const rig = await alertsRig();
    const reply = await rig.commands.handle(ctx(), 'add rent marina 2br');
    expect(text(reply)).toMatch(
      /^Saved as alert #1: .*Dubai Marina.*I'll post new listings here as they appear; \d+( or more)? listings? match(es)? today/,
    );
    const report = await rig.poll();
    expect(report.queued).toBe(0);
    await rig.drainer.drain();
    expect(rig.poster.posts).toHaveLength(0);
  });

  it('refuses what the poller cannot run, with the reason', async () => {
    const rig = await alertsRig();
    expect(text(await rig.commands.handle(ctx(), 'add agents marina'))).toMatch(/Only listing searches can be alerts/);
    expect(text(await rig.commands.handle(ctx(), 'add rent 2br'))).toMatch(/Where\? Add a place/);
    expect(text(await rig.commands.handle(ctx(), 'add rent zzqqxx 2br'))).toMatch(/couldn't find a place/);
    expect(await rig.repo.listByChannel('test:c1')).toHaveLength(0);
  });
});

describe('new listings', () => {
  it('posts each new listing exactly once over many runs, and never one that existed before the save', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    const savedAt = rig.sandbox.now().getTime();
    for (let run = 0; run < 8; run++) {
      rig.sandbox.advance(180);
      await rig.poll();
      await rig.drainer.drain();
    }
    const delivered = (await rig.outbox.list({ state: 'delivered' })).filter((d) => d.kind === 'new');
    const ids = delivered.map((d) => `${d.searchId}:${d.propertyId}`);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rig.poster.posts.length).toBe((await rig.outbox.list({ state: 'delivered' })).length);
    // Everything posted was listed after the alert was saved.
    for (const d of delivered) {
      const listing = JSON.parse(d.payload).listing as { listed_date: string };
      expect(Date.parse(listing.listed_date)).toBeGreaterThan(savedAt);
    }
    // More runs with nothing new post nothing more.
    const before = rig.poster.posts.length;
    await rig.poll();
    await rig.drainer.drain();
    expect(rig.poster.posts.length).toBe(before);
  });

  it('folds the same flat from two agents into one card, and says so', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    await rig.commands.handle(ctx(), 'add rent commercial marina');
    await rig.commands.handle(ctx(), 'add buy commercial marina');
    for (let i = 0; i < 4; i++) {
      rig.sandbox.advance(10);
      await rig.poll();
    }
    await rig.drainer.drain();
    // The copy named by its agent, and linked (or its Details offered), as in search results.
    const folded = rig.poster.posts.filter((p) =>
      p.reply.blocks.some(
        (b) =>
          b.kind === 'card' &&
          b.card.fields.some((f) => f.label === 'Also listed by' && /^1 other agent: \S/.test(f.value)) &&
          (b.card.links ?? []).some((l) => l.label.startsWith('Listing by ')),
      ),
    );
    // Every advance lists its first Dubai Marina flat twice: four copies, four folded cards, no copy posted alone.
    expect(folded).toHaveLength(4);
    const news = (await rig.outbox.list()).filter((d) => d.kind === 'new');
    const flats = news.map(
      (d) =>
        JSON.parse(d.payload).listing as { address: { full_name: string }; bedrooms: string; size: { value: number } },
    );
    const keys = flats.map((f) => `${f.address.full_name}|${f.bedrooms}|${f.size.value}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('30 new listings in one run: 5 cards and one summary, at most one message a second in the channel', async () => {
    const rig = await alertsRig({ perChannelIntervalMs: 1_000 });
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    // A quiet market for a day and a half: new listings pile up for the next run.
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    const report = await rig.poll();
    expect(report.newListings).toBeGreaterThan(5);
    await rig.drainer.drain();
    const posts = rig.poster.posts;
    expect(posts).toHaveLength(6);
    expect(posts.slice(0, 5).every((p) => p.reply.blocks.some((b) => b.kind === 'card'))).toBe(true);
    expect(posts[5]!.reply.text).toMatch(new RegExp(`and ${report.newListings - 5} more new listings for alert #1`));
    for (let i = 1; i < posts.length; i++) expect(posts[i]!.at - posts[i - 1]!.at).toBeGreaterThanOrEqual(990);
  }, 20_000);
});

describe('price drops', () => {
  it('posts a drop of at least the threshold once, and ignores a rise or a tiny change', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    // The newest listings (page 1, which every run reads) have the highest ids.
    const seen = (await rig.repo.seen((await rig.repo.listByChannel('test:c1'))[0]!.id))
      .filter((s) => s.lastPrice !== null)
      .sort((x, y) => Number(y.propertyId) - Number(x.propertyId));
    const [a, b, c] = seen;
    rig.sandbox.reprice(a!.propertyId, a!.lastPrice! * 0.9);
    rig.sandbox.reprice(b!.propertyId, b!.lastPrice! * 1.1);
    rig.sandbox.reprice(c!.propertyId, c!.lastPrice! * 0.998);
    await rig.poll();
    await rig.poll();
    await rig.drainer.drain();
    const drops = rig.poster.posts.filter((p) => /Price dropped/.test(p.reply.text));
    expect(drops).toHaveLength(1);
    expect(drops[0]!.reply.text).toContain(
      `Price dropped from AED ${a!.lastPrice!.toLocaleString('en-US')} to AED ${Math.round(a!.lastPrice! * 0.9).toLocaleString('en-US')}`,
    );
  });
});

describe('coalescing', () => {
  it('two channels saving the same search in different words cost one upstream call per run', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx('test:c1', 'U1'), 'add rent marina 2br under 200k');
    await rig.commands.handle(ctx('test:c2', 'U2'), 'add rent "Dubai Marina" 2 bed max 200000');
    const rows = [...(await rig.repo.listByChannel('test:c1')), ...(await rig.repo.listByChannel('test:c2'))];
    expect(rows[0]!.paramsKey).toBe(rows[1]!.paramsKey);
    rig.sandbox.clearRequests();
    rig.sandbox.advance(60);
    const report = await rig.poll();
    expect(report.searches).toBe(2);
    expect(report.queries).toBe(1);
    expect(rig.upstreamCalls('/search-rent')).toBe(1);
  });

  it('a run shared by instances (pg-boss on Postgres) lists each due query once, and a job runs only its own searches', async () => {
    const rig = await alertsRig();
    const pg = await freshPostgres();
    onCleanup(() => pg.drop());
    const [a, b] = [await pgInstance(rig, pg.url, 'instance-a'), await pgInstance(rig, pg.url, 'instance-b')];
    await a.commands.handle(ctx('test:c1', 'U1'), 'add rent marina 2br under 200k');
    await b.commands.handle(ctx('test:c2', 'U2'), 'add rent "Dubai Marina" 2 bed max 200000');
    await a.commands.handle(ctx('test:c1', 'U1'), 'add buy jvc');
    await b.commands.handle(ctx('other:c9', 'U3'), 'add buy jlt');
    const [marina, , jvc] = [
      ...(await a.db.alerts.listByChannel('test:c1')),
      ...(await a.db.alerts.listByChannel('test:c2')),
    ].sort((x, y) => x.id - y.id);
    const jlt = (await a.db.alerts.listByChannel('other:c9'))[0]!;
    rig.sandbox.clearRequests();
    // Each instance's scheduler runs the poller as the server registers it (src/app/background.ts), a batch a job.
    const listed: string[][] = [];
    const parts: { query: string; report: RunReport }[] = [];
    const schedulers: SharedScheduler[] = [];
    for (const i of [a, b]) {
      const scheduler = new SharedScheduler({
        url: pg.url,
        timezone: 'UTC',
        logger: rig.logger,
        pollSeconds: 0.2,
        partsPerJob: 1,
      });
      scheduler.register({
        name: POLL_JOB,
        cron: '0 0 1 1 *', // never within the test: runSoon starts the run
        run: () => Promise.reject(new Error('a shared run runs its parts')),
        parts: {
          list: async () => {
            const queries = await dueQueries(i.deps);
            listed.push(queries);
            return queries;
          },
          run: async (batch) => {
            parts.push({ query: batch, report: await pollOnce({ ...i.deps, options: POLLER, batch }) });
          },
        },
      });
      onCleanup(() => scheduler.stop());
      await scheduler.start();
      schedulers.push(scheduler);
    }
    schedulers[0]!.runSoon(POLL_JOB);
    await expect.poll(() => listed.length, { timeout: 30_000, interval: 50 }).toBe(1);
    const jobs = listed[0]!;
    await expect.poll(() => parts.length, { timeout: 30_000, interval: 50 }).toBe(jobs.length);

    // One listing, each query once however many searches share it, in the jobs of its bucket (one job a bucket); the
    // platform not served here left out.
    const queriesOf = (job: string) => (job.startsWith('[') ? (JSON.parse(job) as string[]) : [job]);
    expect(jobs.flatMap(queriesOf).sort()).toEqual([marina!.paramsKey, jvc!.paramsKey].sort());
    // Each job run once, by whichever instance took it: its own searches only, one upstream call a query.
    expect(parts.map((p) => p.query).sort()).toEqual([...jobs].sort());
    const total = (k: 'searches' | 'queries' | 'calls') => parts.reduce((n, p) => n + p.report[k], 0);
    expect(parts.every((p) => p.report.ran)).toBe(true);
    expect([total('searches'), total('queries'), total('calls')]).toEqual([3, 2, 2]);
    expect(rig.upstreamCalls('/search-rent')).toBe(1);
    expect(rig.upstreamCalls('/search-buy')).toBe(1);
    // Recorded on Postgres: the searches run have their run; the other platform's search was not run.
    for (const s of [marina!, jvc!]) expect((await b.db.alerts.byId(s.id))!.lastRunAt).toBeGreaterThan(s.nextRunAt);
    expect((await b.db.alerts.byId(jlt.id))!.lastRunAt).toBe(jlt.lastRunAt);
  }, 60_000);
});

describe('upstream trouble', () => {
  it('a 503 marks nothing seen and records the error; the listing is posted once the service recovers', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    rig.sandbox.advance(60);
    rig.sandbox.addFault({ status: 503, count: 100 });
    const failing = await rig.poll();
    expect(failing.failedQueries).toBe(2);
    expect(failing.queued).toBe(0);
    const listed = await rig.repo.listByChannel('test:c1');
    expect(listed.every((r) => r.lastError !== null && r.errorSince !== null)).toBe(true);
    expect(await rig.commands.handle(ctx(), 'list').then(text)).toMatch(/failing/);
    rig.sandbox.clearFaults();
    const ok = await rig.poll();
    expect(ok.newListings).toBeGreaterThan(0);
    await rig.drainer.drain();
    expect(rig.poster.posts.length).toBe(ok.newListings);
    expect((await rig.repo.listByChannel('test:c1')).every((r) => r.lastError === null)).toBe(true);
  });

  it('a search failing for a day is reported once in its channel, and once more when it recovers', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.addFault({ status: 503, count: 1000 });
    let t = Date.now();
    const poll = () =>
      pollOnce({
        api: rig.api,
        repo: rig.repo,
        leases: rig.leases,
        service: rig.sandbox.url!,
        logger: rig.logger,
        options: { maxPages: 1, priceDropPct: 1, deadlineMs: 2_000 },
        now: () => t,
      });
    await poll();
    t += 25 * 3_600_000;
    await poll();
    t += 3_600_000;
    await poll();
    await rig.drainer.drain();
    expect(rig.poster.posts.map((p) => p.reply.text).filter((x) => /has not been able to check/.test(x))).toHaveLength(
      1,
    );
    rig.sandbox.clearFaults();
    await new Promise((r) => setTimeout(r, 60)); // the client's circuit breaker closes after its cooldown
    t += 3_600_000;
    await poll();
    await poll();
    await rig.drainer.drain();
    expect(rig.poster.posts.map((p) => p.reply.text).filter((x) => /is working again/.test(x))).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('retries a failed post (rate limit, server error) and posts it once', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    rig.sandbox.advance(60);
    const report = await rig.poll();
    expect(report.queued).toBeGreaterThan(0);
    // Retry-After (300 ms) is far longer than the backoff (1-2 ms) and than the polling below (5 ms): if it were
    // ignored, the refused entry, or the rest of its channel, would be posted within a few milliseconds.
    rig.poster.failNext(new PostFailure('ratelimited', 'wait', 300), new PostFailure('server error', 'retry'));
    for (let i = 0; i < 400 && (await rig.outbox.stats()).pending + (await rig.outbox.stats()).sending > 0; i++) {
      await rig.drainer.drain();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(rig.poster.posts).toHaveLength(report.queued);
    expect(new Set(rig.poster.posts.map((p) => p.deliveryId)).size).toBe(report.queued);
    expect((await rig.outbox.stats()).failed).toBe(0);
    const [limited, ...rest] = rig.poster.attempts;
    expect(limited!.ok).toBe(false);
    // Nothing in that channel, the refused entry included, went out before Retry-After had passed.
    expect(rest.length).toBe(report.queued + 1); // the server error's retry, and each entry once
    for (const a of rest) expect(a.at - limited!.at).toBeGreaterThanOrEqual(295);
  });

  it('never parks an alert for being rate-limited: a 429 spends no attempt, however often it comes', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.advance(60);
    const report = await rig.poll();
    expect(report.queued).toBeGreaterThan(0);
    rig.poster.failNext(...Array.from({ length: 5 }, () => new PostFailure('ratelimited', 'wait', 5)));
    for (let i = 0; i < 400 && (await rig.outbox.stats()).pending + (await rig.outbox.stats()).sending > 0; i++) {
      await rig.drainer.drain();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(rig.poster.attempts.filter((a) => !a.ok)).toHaveLength(5);
    expect((await rig.outbox.stats()).failed).toBe(0);
    expect(new Set(rig.poster.posts.map((p) => p.deliveryId)).size).toBe(report.queued);
  });

  it('parks a message the platform refuses for good at once, counted and logged, never silently dropped', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.advance(60);
    await rig.poll();
    rig.poster.failNext(new PostFailure('msg_too_long', 'rejected'));
    await rig.drainer.drain();
    expect((await rig.outbox.stats()).failed).toBe(1);
    expect(rig.logs.some((l) => /delivery parked/.test(l))).toBe(true);
  });

  it('a restart resumes the outbox: entries queued before a stop are posted after it, once', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.advance(60);
    const report = await rig.poll();
    expect(report.queued).toBeGreaterThan(0);
    rig.store.close(); // stopped before delivering anything
    const again = rig.reopen();
    await again.drainer.drain();
    expect(again.poster.posts).toHaveLength(report.queued);
    await again.drainer.drain();
    expect(again.poster.posts).toHaveLength(report.queued);
  });
});

describe('platforms and instances', () => {
  it('runs only the searches whose platform can receive them', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx('test:c1'), 'add rent marina');
    await rig.commands.handle(ctx('elsewhere:c9'), 'add buy marina');
    rig.sandbox.clearRequests();
    const report = await pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.sandbox.url!,
      logger: rig.logger,
      options: POLLER,
      platforms: ['test'],
    });
    expect(report.searches).toBe(1);
    expect(rig.upstreamCalls('/search-buy')).toBe(0);
  });

  it('lets one instance run at a time, and the next one once the run is over', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    rig.sandbox.addFault({ latencyMs: 300, count: 1 });
    const deps = {
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.sandbox.url!,
      logger: rig.logger,
      options: POLLER,
    };
    const [a, b] = await Promise.all([pollOnce({ ...deps, holder: 'one' }), pollOnce({ ...deps, holder: 'two' })]);
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect((await pollOnce({ ...deps, holder: 'two' })).ran).toBe(true);
  });
});

describe('two drainers on one outbox', () => {
  it('never post one entry twice, even when a channel queue outlasts the claim', async () => {
    const rig = await alertsRig({ perChannelIntervalMs: 150 });
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    const report = await rig.poll();
    expect(report.queued).toBe(6);
    // Every claim as asked for: by whom, when, and when its lease runs out unless extended.
    const claims: { holder: string; at: number; until: number; taken: number }[] = [];
    const watched: OutboxRepo = {
      ...rig.outbox,
      async claimDue(o) {
        const rows = await rig.outbox.claimDue(o);
        claims.push({ holder: o.holder, at: o.at, until: o.at + o.leaseMs, taken: rows.length });
        return rows;
      },
    };
    // A claim of 200 ms, shorter than the queue (6 posts 150 ms apart).
    const options = { perChannelIntervalMs: 150, leaseMs: 200 };
    const first = rig.newDrainer({ holder: 'first', outbox: watched, options });
    const other = rig.newDrainer({ holder: 'other', outbox: watched, options });
    const draining = first.drain();
    // The second drainer starts mid-queue: after the third post, 300 ms or more into the first claim.
    await expect.poll(() => rig.poster.posts.length, { interval: 5, timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await Promise.all([draining, other.drain()]);

    // The race happened: the second claimed once the first claim's lease had run out, while its queue was still
    // posting.
    expect(claims[0]).toMatchObject({ holder: 'first', taken: 6 });
    const second = claims.find((c) => c.holder === 'other')!;
    expect(second.at).toBeGreaterThanOrEqual(claims[0]!.until);
    expect(rig.poster.posts.filter((p) => p.at > second.at).length).toBeGreaterThan(0);
    const ids = rig.poster.posts.map((p) => p.deliveryId);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
