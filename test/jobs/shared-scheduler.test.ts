// The shared scheduler on a real Postgres: three instances ticking on the same schedule make one run per slot, and
// that run's parts are spread over the instances, each part run once.
import { afterEach, describe, expect, it } from 'vitest';
import { SharedScheduler, slotJobId } from '../../src/jobs/index.js';
import { createLogger } from '../../src/log.js';
import { freshPostgres } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `cond` holds, or gives up after 15 s (the assertions then say what went wrong). */
const until = async (cond: () => boolean) => {
  for (const end = Date.now() + 15_000; !cond() && Date.now() < end;) await sleep(10);
};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('slot job ids', () => {
  it('are the same UUID for a job and slot on every instance, and differ between slots and jobs', () => {
    const slot = new Date('2026-11-24T10:00:00.000Z');
    expect(slotJobId('alerts-poll', slot)).toBe(slotJobId('alerts-poll', new Date(slot.getTime() + 400)));
    expect(slotJobId('alerts-poll', slot)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(slotJobId('alerts-poll', slot)).not.toBe(slotJobId('alerts-poll', new Date(slot.getTime() + 1000)));
    expect(slotJobId('alerts-poll', slot)).not.toBe(slotJobId('digests', slot));
  });
});

describe('three instances sharing one Postgres', () => {
  it('make one run per slot, and share its parts: each part runs once, on more than one instance', async () => {
    const db = await freshPostgres();
    cleanups.push(() => db.drop());
    const logs: string[] = [];
    const logger = createLogger({ level: 'info', write: (l) => logs.push(l) });
    const keys = Array.from({ length: 24 }, (_, i) => `query-${i}`);
    let lists = 0;
    const skips = () => logs.filter((l) => l.includes('parts still waiting at its next tick')).length;
    const ran: { instance: number; key: string; listedAt: number | undefined }[] = [];
    const schedulers = [0, 1, 2].map((instance) => {
      const s = new SharedScheduler({
        url: db.url,
        timezone: 'UTC',
        logger,
        concurrency: 2,
        pollSeconds: 0.5,
        partsPerJob: 2,
      });
      s.register({
        name: 'alerts-poll',
        cron: '* * * * * *',
        run: () => Promise.reject(new Error('a shared job runs its parts, not the whole run')),
        parts: {
          // The first run lists every part; later slots find nothing due (as the poller would).
          list: () => Promise.resolve(lists++ === 0 ? keys : []),
          run: async (key, listedAt) => {
            ran.push({ instance, key, listedAt });
            await sleep(600);
            // The run outlasts its period whatever the machine's load: its first parts end only once a later tick has
            // come (with half its parts still queued, that tick must be skipped).
            await until(() => lists + skips() > 1);
          },
        },
      });
      cleanups.push(() => s.stop());
      return s;
    });
    const begun = Date.now(); // the first instance ticks before the others have started
    await Promise.all(schedulers.map((s) => s.start()));
    const started = Date.now();
    await expect.poll(() => ran.length, { timeout: 20_000, interval: 100 }).toBe(keys.length);
    // Two more slots run (they find nothing due), so the count below spans a few.
    const runs = lists + skips();
    await expect.poll(() => lists + skips(), { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(runs + 2);
    const [since, sinceAllStarted] = [(Date.now() - begun) / 1000, (Date.now() - started) / 1000];

    expect([...ran.map((r) => r.key)].sort()).toEqual([...keys].sort());
    expect(new Set(ran.map((r) => r.instance)).size).toBeGreaterThan(1);
    // Every part, on whichever instance, is told the one time its run was listed (once-per-run posts are keyed by it).
    expect(new Set(ran.map((r) => r.listedAt)).size).toBe(1);
    expect(ran[0]!.listedAt).toBeGreaterThanOrEqual(begun);
    // Three instances tick every second: one run per slot, not three (at most one more for a slot cut at either end). A
    // tick that came while the first run's parts were still waiting was skipped, not listed again.
    const skipped = skips();
    expect(lists + skipped).toBeGreaterThanOrEqual(Math.floor(sinceAllStarted) - 1);
    expect(lists + skipped).toBeLessThanOrEqual(Math.ceil(since) + 1);
    expect(skipped).toBeGreaterThan(0);
    expect(logs.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  }, 40_000);

  it('tries a part that failed again, and runs runSoon’s run at once', async () => {
    const db = await freshPostgres();
    cleanups.push(() => db.drop());
    const logs: string[] = [];
    const logger = createLogger({ level: 'info', write: (l) => logs.push(l) });
    let tries = 0;
    const s = new SharedScheduler({ url: db.url, timezone: 'UTC', logger, pollSeconds: 0.5, retryDelaySeconds: 1 });
    s.register({
      name: 'digests',
      // Never on its own within the test: only runSoon starts a run.
      cron: '0 0 1 1 *',
      run: () => Promise.resolve(),
      parts: {
        list: () => Promise.resolve(['7']),
        run: () =>
          ++tries === 1 ? Promise.reject(new Error('the property service is not answering')) : Promise.resolve(),
      },
    });
    cleanups.push(() => s.stop());
    await s.start();
    s.runSoon('digests');
    await expect.poll(() => tries, { timeout: 20_000, interval: 100 }).toBe(2);
    expect(logs.some((l) => l.includes('a shared job failed') && l.includes('not answering'))).toBe(true);
  }, 30_000);

  it('survives its database going away mid-job: the outcome that cannot be written is logged, nothing crashes, stop ends', async () => {
    const db = await freshPostgres();
    cleanups.push(() => db.drop());
    const logs: string[] = [];
    const logger = createLogger({ level: 'info', write: (l) => logs.push(l) });
    let release: () => void = () => {};
    let started = false;
    const s = new SharedScheduler({ url: db.url, timezone: 'UTC', logger, pollSeconds: 0.5 });
    s.register({
      name: 'alerts-poll',
      cron: '0 0 1 1 *',
      run: () => Promise.resolve(),
      parts: {
        list: () => Promise.resolve(['only']),
        run: () => {
          started = true;
          return new Promise<void>((r) => (release = r));
        },
      },
    });
    await s.start();
    s.runSoon('alerts-poll');
    await expect.poll(() => started, { timeout: 10_000 }).toBe(true);
    await db.drop();
    release();
    await expect
      .poll(() => logs.some((l) => l.includes('could not record a shared job’s outcome')), { timeout: 10_000 })
      .toBe(true);
    await s.stop();
  }, 30_000);
});
