// The one run every kind of standing order goes through (src/standing-orders/run.ts), driven by a third kind written
// here in a few lines ("reminders": a part is a topic), as a new kind would be: the run groups what is due into parts,
// lets the orders of a team over its share wait (or hands them to the kind), makes each part's calls its teams', commits
// under the job's fenced lease and refuses to run while another instance holds it. Real SQLite leases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPayer } from '../../src/api/payer.js';
import { createLogger } from '../../src/log.js';
import {
  bucketOf,
  listParts,
  orderJob,
  runOrders,
  type OrderKind,
  type PartResult,
} from '../../src/standing-orders/run.js';
import { EVERY_RUN } from '../../src/standing-orders/schedule.js';
import { createLeaseRepo, openStore } from '../../src/store/index.js';

interface Reminder {
  id: number;
  channel: string;
  topic: string;
}

const DUE: Reminder[] = [
  { id: 1, channel: 'slack:T1:C1', topic: 'rent' },
  { id: 2, channel: 'slack:T2:C9', topic: 'buy' },
  { id: 3, channel: 'discord:G1:C2', topic: 'rent' },
  { id: 4, channel: 'slack:T2:C8', topic: 'rent' },
];

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function rig() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-run-'));
  const store = openStore(path.join(dir, 'manzil.db'));
  closers.push(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const leases = createLeaseRepo(store);
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => logs.push(l) });
  const ran: { topic: string; ids: number[]; payer: readonly string[] | undefined }[] = [];
  const postponed: number[] = [];
  const kind = (o: { overShare?: boolean } = {}) => {
    const k: OrderKind<Reminder, string, { parts: number }, { ran: boolean; queued: number; waiting: number }> = {
      job: 'reminders',
      label: 'reminders',
      partOf: (r) => r.topic,
      partKey: (topic) => topic,
      partFrom: (key) => key,
      dueRows: async (_at, topics) => DUE.filter((r) => topics === undefined || topics.includes(r.topic)),
      scheduleOf: () => ({ schedule: EVERY_RUN, timezone: 'UTC' }),
      begin: () => ({ parts: 0 }),
      runPart: async (topic, rows) => {
        ran.push({ topic, ids: rows.map((r) => r.id), payer: currentPayer()?.teams });
        // A fenced write of the store's: it holds only while the run's lease does.
        return {
          ran: true,
          calls: 1,
          commit: async (fence) => ((await leases.holds(fence)) ? rows.length : undefined),
        };
      },
      ...(o.overShare
        ? {
            overShare: async (row: Reminder): Promise<PartResult> => {
              postponed.push(row.id);
              return { ran: true, calls: 0, commit: async () => 0 };
            },
          }
        : {}),
      report: (r) => ({ ran: r.ran, queued: r.queued, waiting: r.waiting }),
    };
    return k;
  };
  return { leases, logs, logger, ran, postponed, kind };
}

describe('one run, whatever the kind', () => {
  it('runs each part once with its own orders, in the due order, its calls paid by its teams', async () => {
    const r = rig();
    const report = await runOrders(r.kind(), { leases: r.leases, logger: r.logger, holder: 'a' });
    expect(report).toEqual({ ran: true, queued: 4, waiting: 0 });
    expect(r.ran).toEqual([
      { topic: 'rent', ids: [1, 3, 4], payer: ['slack:T1', 'discord:G1', 'slack:T2'] },
      { topic: 'buy', ids: [2], payer: ['slack:T2'] },
    ]);
    // The whole run is recorded as the job's last run (what /healthz reads).
    expect(await r.leases.lastRun('reminders')).toMatchObject({ ok: true });
  });

  it('the orders of a team over its share wait, asked once a team; the kind may postpone them instead', async () => {
    const r = rig();
    const asked: string[] = [];
    const teamAllows = async (team: string) => {
      asked.push(team);
      return team !== 'slack:T2';
    };
    const report = await runOrders(r.kind(), { leases: r.leases, logger: r.logger, teamAllows });
    expect(asked.sort()).toEqual(['discord:G1', 'slack:T1', 'slack:T2']);
    // Team T2's reminders (2, 4) wait: the part "buy" had only theirs and is not run at all.
    expect(r.ran).toEqual([{ topic: 'rent', ids: [1, 3], payer: ['slack:T1', 'discord:G1'] }]);
    expect(report).toEqual({ ran: true, queued: 2, waiting: 2 });
    expect(r.logs.some((l) => /over their share of the month wait/.test(l))).toBe(true);

    const again = rig();
    await runOrders(again.kind({ overShare: true }), { leases: again.leases, logger: again.logger, teamAllows });
    expect(again.postponed).toEqual([4, 2]);
    expect(again.ran.map((p) => p.ids)).toEqual([[1, 3]]);
  });

  it('a part of a shared run runs under a lease of its own and records no run; the parts are listed under the job’s', async () => {
    const r = rig();
    const o = { leases: r.leases, logger: r.logger, holder: 'a' };
    expect(await listParts(r.kind(), o, false)).toEqual([['rent'], ['buy']]);
    const listedAt = await r.leases.lastRun('reminders');
    expect(listedAt).toBeDefined();
    // Another instance runs "rent": this one can still run "buy", and "rent" is left to the other.
    expect(await r.leases.acquire('reminders:rent', 'b', Date.now(), 60_000)).toBeDefined();
    expect(await runOrders(r.kind(), o, ['rent'])).toEqual({ ran: false, queued: 0, waiting: 0 });
    expect(await runOrders(r.kind(), o, ['buy'])).toEqual({ ran: true, queued: 1, waiting: 0 });
    expect(r.ran.map((p) => p.topic)).toEqual(['buy']);
    expect(await r.leases.lastRun('reminders')).toEqual(listedAt);
    // The job as a scheduler registers it: the same parts, by key.
    const job = orderJob(r.kind(), '* * * * *', () => o);
    expect(job.name).toBe('reminders');
    expect(await job.parts!.list()).toEqual(['rent', 'buy']);
    // A part run by the scheduler starts its run's state at the time the run was listed (every job of it alike).
    const begun: (number | undefined)[] = [];
    const k = r.kind();
    k.begin = (at) => (begun.push(at), { parts: 0 });
    const parts = orderJob(k, '* * * * *', () => o).parts!;
    await parts.run('rent', 1_234);
    await parts.run('buy', 1_234);
    expect(begun).toEqual([1_234, 1_234]);
  });

  it('runs nothing while another instance holds the job’s lease, and starts no part once aborted', async () => {
    const r = rig();
    const other = (await r.leases.acquire('reminders', 'b', Date.now(), 60_000))!;
    expect(await runOrders(r.kind(), { leases: r.leases, logger: r.logger, holder: 'a' })).toEqual({
      ran: false,
      queued: 0,
      waiting: 0,
    });
    expect(r.ran).toEqual([]);
    expect(r.logs.some((l) => /another instance is running the reminders; skipping this tick/.test(l))).toBe(true);
    await r.leases.finish(other, undefined);

    const stop = new AbortController();
    const k = r.kind();
    const first = k.runPart.bind(k);
    k.runPart = async (...args) => {
      stop.abort(); // shutdown while the first part runs: it finishes and is recorded, the next is not started
      return first(...args);
    };
    const report = await runOrders(k, { leases: r.leases, logger: r.logger, holder: 'a', signal: stop.signal });
    expect(report).toEqual({ ran: true, queued: 3, waiting: 0 });
    expect(r.ran.map((p) => p.topic)).toEqual(['rent']);
    expect(r.logs.some((l) => /the parts not started stay due/.test(l))).toBe(true);
  });

  it('a commit whose lease was taken over is refused: nothing counted, and each refused part says so', async () => {
    const r = rig();
    const k = r.kind();
    const first = k.runPart.bind(k);
    let stalled = false;
    k.runPart = async (...args) => {
      const result = await first(...args);
      if (!stalled) {
        // This instance stalls past its lease (as the other's clock sees it), and the other takes the job over.
        stalled = true;
        expect(await r.leases.acquire('reminders', 'b', Date.now() + 10 * 60_000, 60_000)).toBeDefined();
      }
      return result;
    };
    const report = await runOrders(k, { leases: r.leases, logger: r.logger, holder: 'a' });
    expect(r.ran.length).toBeGreaterThan(0);
    expect(report.queued).toBe(0);
    expect(r.logs.filter((l) => /the reminders lease was taken over during this run/.test(l))).toHaveLength(
      r.ran.length,
    );
  });

  it('a kind run in jobs: a job is one bucket’s parts, so a part is only ever run under its bucket’s lease', async () => {
    const r = rig();
    const topics = Array.from({ length: 60 }, (_, i) => `t${i}`);
    const due = topics.map((topic, i) => ({ id: i + 1, channel: 'slack:T1:C1', topic }));
    const kind: OrderKind<Reminder, string, null, { ran: boolean; queued: number }, undefined, number> = {
      job: 'jobs',
      label: 'jobs',
      partOf: (row) => row.topic,
      partKey: (topic) => topic,
      partFrom: (key) => key,
      dueRows: async (_at, ts) => due.filter((row) => ts === undefined || ts.includes(row.topic)),
      scheduleOf: () => ({ schedule: EVERY_RUN, timezone: 'UTC' }),
      batch: { size: 25, load: async () => undefined, commit: async (shares) => shares.length },
      begin: () => null,
      runPart: async (topic) => {
        r.ran.push({ topic, ids: [], payer: undefined });
        return { ran: true, calls: 1, share: 1 };
      },
      report: (run) => ({ ran: run.ran, queued: run.queued }),
    };
    const o = { leases: r.leases, logger: r.logger, holder: 'a' };
    const jobs = await listParts(kind, o, true);
    // Every due part listed once, each job within one bucket.
    expect(jobs.flat().sort()).toEqual([...topics].sort());
    for (const job of jobs) expect(new Set(job.map(bucketOf)).size).toBe(1);
    // Another instance holds the bucket of a job: the job waits, and so does a later tick's job of that bucket with
    // other parts, or with one of its parts alone: no part of it runs twice at once, and a takeover fences them all.
    const [held] = jobs.filter((job) => job.length >= 2);
    expect(held).toBeDefined();
    expect(await r.leases.acquire(`jobs:b${bucketOf(held![0]!)}`, 'b', Date.now(), 60_000)).toBeDefined();
    expect(await runOrders(kind, o, held!)).toEqual({ ran: false, queued: 0 });
    expect(await runOrders(kind, o, held!.slice(1))).toEqual({ ran: false, queued: 0 });
    expect(r.ran).toEqual([]);
    // A job of another bucket runs.
    const other = jobs.find((job) => bucketOf(job[0]!) !== bucketOf(held![0]!))!;
    expect(await runOrders(kind, o, other)).toEqual({ ran: true, queued: other.length });
    // A job spanning buckets is refused outright rather than run partly under another bucket's lease.
    await expect(runOrders(kind, o, [held![0]!, other[0]!])).rejects.toThrow(/span 2 buckets/);
  });
});
