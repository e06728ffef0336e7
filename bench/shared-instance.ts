// One instance of the shared benchmark (bench/shared.ts), in a process of its own as `manzil start` would be: its own
// store pool, API client and SharedScheduler with the poller job registered as composeBackground registers it (a cron
// that never fires; runSoon starts each run). shared.ts forks it with IPC and the settings in BENCH_SHARED_* variables;
// it answers each request ({ id, type }) with { id, ...reply }: `runSoon`, `reset` (its counters), `read`, `progress`,
// `stop`.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dueQueries, pollOnce, POLL_JOB, type PollerDeps, type RunReport } from '../src/alerts/index.js';
import { ApiClient } from '../src/api/client.js';
import { SharedScheduler } from '../src/jobs/index.js';
import { createLogger } from '../src/log.js';
import { openDatabase } from '../src/store/index.js';
import { PRODUCTION } from './alerts.js';

/** The argument that makes this file run as an instance (it is imported for its types and constants too). */
export const INSTANCE_FLAG = '--shared-bench-instance';
/** Parts each instance runs at once (SharedScheduler's default). */
export const CONCURRENCY = 4;
/** Each instance's store pool, as DATABASE_POOL_SIZE's default. */
export const POOL_SIZE = 10;

export type Request = { id: number; type: 'runSoon' | 'reset' | 'read' | 'progress' | 'stop' };

/** How far a run is on this instance: cheap to send often (no part times), for the measuring process to wait on. */
export interface Progress {
  listed: number;
  finished: number;
  lastPartEndAt: number | null;
}

/** What one instance did since its counters were last reset (its log counts: since it started). */
export interface Counters {
  parts: number;
  /** Parts whose pollOnce ran (not left to another instance holding the query's lease). */
  ran: number;
  /** Requests its API client sent (attempts, retries included), and their time in all (each answered or failed). */
  sent: number;
  sentMs: number;
  queued: number;
  newListings: number;
  priceDrops: number;
  failedQueries: number;
  partMs: number[];
  /** When its first part started (epoch ms, sub-millisecond), null before any. */
  firstPartAt: number | null;
  /** Its event loop's utilization and its CPU time (user + system, ms) since the reset. */
  loop: number;
  cpuMs: number;
  /** Its peak RSS since it started (the OS's maxRSS), bytes. */
  maxRss: number;
  /** Its RSS at its highest since the reset (sampled every 100 ms), bytes. */
  peakRss: number;
  /** Statements it sent to Postgres since the reset: the store's pool and pg-boss's alike (countStatements). */
  statements: number;
  /** Parts its list (the run's due scan, on the instance that took the run) returned since the reset. */
  listed: number;
  /** When its last part ended (epoch ms), null before any. */
  lastPartEndAt: number | null;
  warnings: number;
  errors: number;
  firstLogged: string | null;
}

export type Reply = { id: number; counters?: Counters; progress?: Progress; error?: string };

const freshCounters = () => ({
  parts: 0,
  ran: 0,
  sent: 0,
  sentMs: 0,
  queued: 0,
  newListings: 0,
  priceDrops: 0,
  failedQueries: 0,
  partMs: [] as number[],
  firstPartAt: null as number | null,
  lastPartEndAt: null as number | null,
  listed: 0,
});

/**
 * Counts every statement this process sends to Postgres, a round trip each: node-postgres's Client.query is what the
 * store's pool (drizzle's node-postgres driver) and pg-boss's own pool both call (pg-boss has no copy of `pg` of its
 * own), BEGIN and COMMIT included. Wrapped once, before either opens a connection; it only counts.
 */
function countStatements(): () => number {
  let n = 0;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  return () => n;
}

/** The settings shared.ts passes in the environment. */
function settings() {
  const get = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`shared bench instance: ${name} is not set`);
    return value;
  };
  return {
    pgUrl: get('BENCH_SHARED_PG_URL'),
    sandboxUrl: get('BENCH_SHARED_SANDBOX_URL'),
    key: get('BENCH_SHARED_KEY'),
    holder: get('BENCH_SHARED_HOLDER'),
  };
}

async function startInstance() {
  const { pgUrl, sandboxUrl, key, holder } = settings();
  // Silent, but warnings and errors (a part failing, pg-boss complaining) are counted and the first kept.
  const log = { warnings: 0, errors: 0, first: null as string | null };
  const logger = createLogger({
    level: 'warn',
    format: 'json',
    write: (line) => {
      if (line.includes('"level":"error"')) log.errors++;
      else log.warnings++;
      log.first ??= line.slice(0, 300);
    },
  });
  const statements = countStatements();
  let c = freshCounters();
  const mark = () => ({
    elu: performance.eventLoopUtilization(),
    cpu: process.cpuUsage(),
    statements: statements(),
    peakRss: process.memoryUsage.rss(),
  });
  let since = mark();
  // A run's peak, not the process's since it started (maxRSS): sampled, as the OS keeps no peak since a moment.
  const sampler = setInterval(() => (since.peakRss = Math.max(since.peakRss, process.memoryUsage.rss())), 100);
  sampler.unref();

  // The SQLite path is never used: the store is on Postgres. The first instance to open it applies the migrations.
  const db = await openDatabase({
    dbPath: path.join(os.tmpdir(), 'manzil-bench-shared-unused.db'),
    postgres: { url: pgUrl, poolSize: POOL_SIZE },
  });
  const api = new ApiClient({
    baseUrl: sandboxUrl,
    key,
    connections: 16,
    logger,
    onCall: (e) => {
      if (e.outcome === 'refused') return;
      c.sent++;
      c.sentMs += e.ms;
    },
  });
  const scheduler = new SharedScheduler({
    url: pgUrl,
    timezone: 'UTC',
    logger,
    concurrency: CONCURRENCY,
    pollSeconds: 1,
  });
  const deps: PollerDeps = {
    api,
    repo: db.alerts,
    leases: db.leases,
    service: sandboxUrl,
    logger,
    options: PRODUCTION,
    holder,
  };
  const part = async (query: string): Promise<RunReport> => {
    const t = performance.now();
    const mine = c; // a reset during the part leaves it counted in the phase it started in
    mine.parts++;
    mine.firstPartAt ??= performance.timeOrigin + t;
    try {
      const report = await pollOnce({ ...deps, batch: query });
      if (report.ran) mine.ran++;
      mine.queued += report.queued;
      mine.newListings += report.newListings;
      mine.priceDrops += report.priceDrops;
      mine.failedQueries += report.failedQueries;
      return report;
    } finally {
      mine.partMs.push(performance.now() - t);
      mine.lastPartEndAt = performance.timeOrigin + performance.now();
    }
  };
  const list = async () => {
    const keys = await dueQueries(deps);
    c.listed += keys.length;
    return keys;
  };
  scheduler.register({
    name: POLL_JOB,
    cron: '0 0 1 1 *',
    run: () => pollOnce(deps),
    parts: { list, run: part },
  });
  await scheduler.start();

  return {
    runSoon: () => scheduler.runSoon(POLL_JOB),
    reset: () => {
      c = freshCounters();
      since = mark();
    },
    progress: (): Progress => ({ listed: c.listed, finished: c.partMs.length, lastPartEndAt: c.lastPartEndAt }),
    read: (): Counters => {
      const cpu = process.cpuUsage(since.cpu);
      return {
        ...c,
        loop: performance.eventLoopUtilization(since.elu).utilization,
        cpuMs: (cpu.user + cpu.system) / 1000,
        maxRss: process.resourceUsage().maxRSS * 1024,
        peakRss: Math.max(since.peakRss, process.memoryUsage.rss()),
        statements: statements() - since.statements,
        warnings: log.warnings,
        errors: log.errors,
        firstLogged: log.first,
      };
    },
    stop: async () => {
      clearInterval(sampler);
      await scheduler.stop();
      await api.close();
      await db.close();
    },
  };
}

const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

/** Listens from the start (a request sent while it starts waits for it), then starts and says it is ready. */
async function main(): Promise<void> {
  const starting = startInstance();
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= starting.then((instance) => instance.stop()));
  // The measuring process gone (it failed or was killed): stop and exit rather than linger.
  process.on('disconnect', () => void stop().finally(() => process.exit(1)));
  process.on('message', (request: Request) => {
    const answer = async (): Promise<Reply> => {
      const instance = await starting;
      if (request.type === 'runSoon') instance.runSoon();
      else if (request.type === 'reset') instance.reset();
      else if (request.type === 'read') return { id: request.id, counters: instance.read() };
      else if (request.type === 'progress') return { id: request.id, progress: instance.progress() };
      else await stop();
      return { id: request.id };
    };
    void answer()
      .catch((e: unknown) => ({ id: request.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }))
      .then(send)
      .then(() => {
        if (request.type === 'stop') process.exit(0);
      });
  });
  await starting;
  await send({ id: 0 });
}

if (process.send && process.argv.includes(INSTANCE_FLAG)) {
  main().catch((e: unknown) => {
    process.stderr.write(`shared bench instance: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
