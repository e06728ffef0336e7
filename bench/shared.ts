// One poller run over 100,000 saved searches (10,000 distinct queries, 400 channels) on Postgres, shared by three
// instances through pg-boss (src/jobs/shared-scheduler.ts), against the sandbox with 50 ms of latency added to every
// request: run time against the floor the latency sets, upstream calls, how the parts spread over the instances, and
// outbox rows queued per second in a busy run. The three instances live in one process (each with its own pool, API
// client and scheduler, the poller job registered as composeBackground registers it); the measuring runs in a child
// process of its own, the sandbox in another.
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dueQueries, paramsKey, pollOnce, POLL_JOB, type PollerDeps, type RunReport, type SavedQuery } from '../src/alerts/index.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import { ApiClient } from '../src/api/client.js';
import { SharedScheduler } from '../src/jobs/index.js';
import { createLogger } from '../src/log.js';
import type { Query } from '../src/query/index.js';
import { openDatabase, type Database } from '../src/store/index.js';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.js';
import { LATENCY_MS, locationIds, PRODUCTION } from './alerts.js';
import { childMain, runInChild, type Figures } from './child.js';
import { startSandboxProcess } from './sandbox-process.js';

const SEARCHES = 100_000;
const DISTINCT = 10_000;
const CHANNELS = 400;
const INSTANCES = 3;
/** Parts each instance runs at once (SharedScheduler's default). */
const CONCURRENCY = 4;
/** Each instance's store pool, as DATABASE_POOL_SIZE's default. */
const POOL_SIZE = 10;
/** Rows per INSERT statement: 10 parameters a row, far below Postgres's 65,535. */
const ROWS_PER_INSERT = 2_000;
/** How long a run (or the first look) may take before the bench gives up on it. */
const RUN_TIMEOUT_MS = 20 * 60_000;
const CHILD_FLAG = '--shared-bench-child';

/**
 * DISTINCT queries: alerts.ts's combinations (operation × bedrooms × price cap × location) first, then the same with a
 * number of bathrooms and a furnishing (both filter in the sandbox, on rent and buy alike).
 */
function distinctQueries(locations: number[]): SavedQuery[] {
  const out: SavedQuery[] = [];
  for (const furnishing of [undefined, 'furnished', 'unfurnished']) {
    for (const bathrooms of [undefined, '1', '2', '3']) {
      for (const cap of [undefined, 'high', 'low'] as const) {
        for (const bedrooms of [undefined, '0', '1', '2', '3', '4']) {
          for (const op of ['search-rent', 'search-buy'] as const) {
            const priceMax = cap && { high: op === 'search-rent' ? '150000' : '3000000', low: op === 'search-rent' ? '90000' : '1500000' }[cap];
            for (const id of locations) {
              const params: Record<string, string> = {};
              if (bedrooms) params.bedrooms = bedrooms;
              if (bathrooms) params.bathrooms = bathrooms;
              if (priceMax) params.price_max = priceMax;
              if (furnishing) params.furnishing = furnishing;
              const query: Query = { operation: op, params, location: `place ${id}`, unknownWords: [] };
              out.push({ query, location: { id, name: `Place ${id}` } });
              if (out.length === DISTINCT) return out;
            }
          }
        }
      }
    }
  }
  throw new Error(`bench: only ${out.length} distinct queries over ${locations.length} locations (${DISTINCT} wanted)`);
}

/**
 * Saves SEARCHES searches over `queries` in CHANNELS channels in bulk (multi-row INSERTs, filling the columns the
 * store's create fills, and each channel's alert number as create leaves it): each query in SEARCHES / DISTINCT channels,
 * never twice in one. Returns the milliseconds it took.
 */
async function saveInBulk(client: pg.Client, queries: SavedQuery[], service: string): Promise<number> {
  const started = performance.now();
  const perChannel = SEARCHES / CHANNELS;
  const encoded = queries.map((q) => ({ query: encodeSavedQuery(q), operation: q.query.operation, key: paramsKey(q) }));
  const at = Date.now();
  for (let from = 0; from < SEARCHES; from += ROWS_PER_INSERT) {
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let i = from; i < Math.min(SEARCHES, from + ROWS_PER_INSERT); i++) {
      const q = encoded[i % encoded.length]!;
      const row = [service, `bench:C${Math.floor(i / perChannel)}`, (i % perChannel) + 1, `U${i % 500}`, 'bench', q.query, q.operation, q.key, 'bench', at];
      rows.push(`(${row.map((_, k) => `$${values.length + k + 1}`).join(', ')}, $${values.length + row.length})`);
      values.push(...row);
    }
    await client.query(
      `INSERT INTO saved_search (service, place, number, owner, text, query, operation, params_key, summary, created_at, next_run_at) VALUES ${rows.join(', ')}`,
      values,
    );
  }
  await client.query(`INSERT INTO alert_number (place, last) SELECT place, max(number) FROM saved_search GROUP BY place`);
  return performance.now() - started;
}

const count = async (client: pg.Client, sql: string, params: unknown[] = []): Promise<number> => Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);

/** Asks Postgres every 200 ms until `sql` counts nothing left. */
async function until(client: pg.Client, what: string, sql: string, params: unknown[] = []): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const left = await count(client, sql, params);
    if (left === 0) return;
    if (Date.now() > deadline) throw new Error(`bench: ${what}: ${left} searches still waiting after ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What one instance did in a run. */
interface InstanceStats {
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
  /** When its first part of the run started (performance.now()). */
  firstPart: number;
}

const freshStats = (): InstanceStats => ({ parts: 0, ran: 0, sent: 0, sentMs: 0, queued: 0, newListings: 0, priceDrops: 0, failedQueries: 0, partMs: [], firstPart: Infinity });

interface Instance {
  db: Database;
  api: ApiClient;
  scheduler: SharedScheduler;
  stats: InstanceStats;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function run(): Promise<Figures> {
  return runInChild(new URL(import.meta.url), CHILD_FLAG);
}

async function measure(): Promise<Figures> {
  const KEY = 'bench-key';
  const sandbox = await startSandboxProcess(KEY);
  const url = sandbox.url;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-bench-shared-'));
  const postgres = await startEmbeddedPostgres();
  const pgUrl = postgres.adminUrl;
  // Silent, but warnings and errors (a part failing, pg-boss complaining) are counted and the first few kept.
  const logged: string[] = [];
  const logger = createLogger({ level: 'warn', format: 'json', write: (line) => logged.push(line) });
  const instances: Instance[] = [];
  const sql = new pg.Client({ connectionString: pgUrl });
  let sqlOpen = false;
  try {
    // Each instance opens its own store; the first to open it applies the migrations (the others wait on their lock).
    for (let n = 0; n < INSTANCES; n++) {
      const db = await openDatabase({ dbPath: path.join(dir, `unused-${n}.db`), postgres: { url: pgUrl, poolSize: POOL_SIZE } });
      const stats = freshStats();
      const api = new ApiClient({
        baseUrl: url,
        key: KEY,
        connections: 16,
        logger,
        onCall: (e) => {
          if (e.outcome === 'refused') return;
          instance.stats.sent++;
          instance.stats.sentMs += e.ms;
        },
      });
      const scheduler = new SharedScheduler({ url: pgUrl, timezone: 'UTC', logger, concurrency: CONCURRENCY, pollSeconds: 1 });
      const instance: Instance = { db, api, scheduler, stats };
      const deps: PollerDeps = { api, repo: db.alerts, leases: db.leases, service: url, logger, options: PRODUCTION, holder: `bench-instance-${n}` };
      const part = async (query: string): Promise<RunReport> => {
        const t = performance.now();
        const s = instance.stats;
        s.parts++;
        s.firstPart = Math.min(s.firstPart, t);
        try {
          const report = await pollOnce({ ...deps, query });
          if (report.ran) s.ran++;
          s.queued += report.queued;
          s.newListings += report.newListings;
          s.priceDrops += report.priceDrops;
          s.failedQueries += report.failedQueries;
          return report;
        } finally {
          s.partMs.push(performance.now() - t);
        }
      };
      // As composeBackground registers it, with a cron that never fires by itself: runSoon starts each run.
      scheduler.register({ name: POLL_JOB, cron: '0 0 1 1 *', run: () => pollOnce(deps), parts: { list: () => dueQueries(deps), run: part } });
      instances.push(instance);
    }

    await sql.connect();
    sqlOpen = true;
    const queries = distinctQueries(await locationIds(url, KEY));
    const keys = new Set(queries.map(paramsKey)).size;
    if (keys !== DISTINCT) throw new Error(`bench: ${keys} distinct params keys, ${DISTINCT} wanted`);
    const insertMs = await saveInBulk(sql, queries, url);
    const saved = await count(sql, 'SELECT count(*) AS n FROM saved_search');
    const savedKeys = await count(sql, 'SELECT count(DISTINCT params_key) AS n FROM saved_search');
    if (saved !== SEARCHES || savedKeys !== DISTINCT) throw new Error(`bench: ${saved} searches saved over ${savedKeys} queries`);

    await Promise.all(instances.map((i) => i.scheduler.start()));

    // The first look primes every search, untimed.
    const firstStarted = performance.now();
    instances[0]!.scheduler.runSoon(POLL_JOB);
    await until(sql, 'first look', 'SELECT count(*) AS n FROM saved_search WHERE primed_at IS NULL');
    const firstMs = performance.now() - firstStarted;
    const firstSent = sum(instances.map((i) => i.stats.sent));
    await sandbox.control('POST', 'faults', { latencyMs: LATENCY_MS, count: 1_000_000 });

    /** One run started by runSoon on the first instance, until every search has run since it started. */
    const timedRun = async () => {
      for (const i of instances) i.stats = freshStats();
      await sandbox.control('DELETE', 'requests');
      const outboxBefore = await count(sql, 'SELECT count(*) AS n FROM outbox');
      const start = Date.now();
      const t = performance.now();
      const elu = performance.eventLoopUtilization();
      const cpu = process.cpuUsage();
      instances[0]!.scheduler.runSoon(POLL_JOB);
      await until(sql, 'run', 'SELECT count(*) AS n FROM saved_search WHERE last_run_at IS NULL OR last_run_at < $1', [start]);
      const ms = performance.now() - t;
      const loop = performance.eventLoopUtilization(elu).utilization;
      const used = process.cpuUsage(cpu);
      const lastAt = await count(sql, 'SELECT max(last_run_at) AS n FROM saved_search');
      const logged = ((await sandbox.control('GET', 'requests')) as unknown[]).length;
      const queued = (await count(sql, 'SELECT count(*) AS n FROM outbox')) - outboxBefore;
      const stats = instances.map((i) => i.stats);
      const partMs = stats.flatMap((s) => s.partMs).sort((a, b) => a - b);
      // runSoon's job taken, the due searches listed and the parts queued (the tick), before the first part starts.
      const tick = Math.min(...stats.map((s) => s.firstPart)) - t;
      return {
        ms,
        lastMs: lastAt - start,
        sent: sum(stats.map((s) => s.sent)),
        logged,
        queued,
        stats,
        spread: `${stats.map((s) => s.parts).join(' / ')} parts (ran ${stats.map((s) => s.ran).join(' / ')}; upstream requests ${stats.map((s) => s.sent).join(' / ')})`,
        partTimes: `mean ${(sum(partMs) / Math.max(1, partMs.length)).toFixed(0)} ms, p50 ${quantile(partMs, 0.5).toFixed(0)}, p95 ${quantile(partMs, 0.95).toFixed(0)}, max ${(partMs.at(-1) ?? 0).toFixed(0)} (${partMs.length} parts)`,
        // Of a part's time, what its upstream requests took (the rest: its lease, reads and commit in Postgres, and
        // waiting for this process's event loop); and how full the run kept the instances' 3 × 4 part slots.
        inside: `first part after ${s1(tick)}; upstream requests ${(sum(stats.map((s) => s.sentMs)) / Math.max(1, sum(stats.map((s) => s.sent)))).toFixed(0)} ms each on average; slots busy ${Math.round((100 * sum(partMs)) / (ms * INSTANCES * CONCURRENCY))}% of the run`,
        process: `event loop ${Math.round(loop * 100)}% busy, CPU ${s1((used.user + used.system) / 1000)} in ${s1(ms)}`,
      };
    };
    // The log keeps the last 10,000 requests only: the API clients' own count is the figure, the log a check on it.
    const calls = (r: { sent: number; logged: number }) => `${r.sent} (sandbox log: ${r.logged}${r.logged >= 10_000 ? ', its cap' : ''})`;

    const quiet = await timedRun();
    const floor = (DISTINCT * LATENCY_MS) / (INSTANCES * CONCURRENCY);

    // A busy market: a day of new listings and price changes, then a run that queues many outbox rows.
    await sandbox.control('POST', 'advance?minutes=1440');
    const busy = await timedRun();
    const reported = (f: (s: InstanceStats) => number) => sum(busy.stats.map(f));
    const failed = sum([...quiet.stats, ...busy.stats].map((s) => s.failedQueries));
    const errors = logged.filter((l) => l.includes('"level":"error"')).length;
    const maxRss = process.resourceUsage().maxRSS * 1024;

    return {
      database: `postgres (embedded), ${INSTANCES} instances in one process: store pool ${POOL_SIZE} + pg-boss pool 4 each, concurrency ${CONCURRENCY}`,
      'saved searches / distinct queries': `${saved} / ${savedKeys} in ${CHANNELS} channels`,
      'bulk insert': `${s1(insertMs)} (${ROWS_PER_INSERT} rows a statement)`,
      'first look (untimed, no latency)': `${s1(firstMs)}, ${firstSent} calls`,
      'quiet run: time': `${s1(quiet.ms)} (last search recorded at ${s1(quiet.lastMs)})`,
      'quiet run: upstream calls': `${calls(quiet)} (goal: ${DISTINCT})`,
      'quiet run: outbox rows queued': quiet.queued,
      'quiet run: floor, time / floor': `${s1(floor)} (${DISTINCT} × ${LATENCY_MS} ms / (${INSTANCES} × ${CONCURRENCY})), ${(quiet.ms / floor).toFixed(2)}×`,
      'quiet run: per instance': quiet.spread,
      'quiet run: part time': quiet.partTimes,
      'quiet run: inside the parts': quiet.inside,
      'quiet run: this process': quiet.process,
      'busy run: time, calls': `${s1(busy.ms)} (last search recorded at ${s1(busy.lastMs)}), ${calls(busy)}`,
      'busy run: new / drops / rows queued': `${reported((s) => s.newListings)} / ${reported((s) => s.priceDrops)} / ${reported((s) => s.queued)}`,
      'busy run: outbox rows queued': busy.queued,
      'busy run: deliveries queued/s': Math.round(busy.queued / (busy.ms / 1000)),
      'busy run: per instance': busy.spread,
      'busy run: part time': busy.partTimes,
      'busy run: inside the parts': busy.inside,
      'busy run: this process': busy.process,
      'failed queries / warnings / errors': `${failed} / ${logged.length - errors} / ${errors}${logged.length ? ` (first: ${logged[0]!.slice(0, 300)})` : ''}`,
      'peak RSS (this bench process)': `${Math.round(maxRss / 1024 / 1024)} MB`,
    };
  } finally {
    for (const i of instances) await i.scheduler.stop();
    for (const i of instances) await i.api.close();
    for (const i of instances) await i.db.close();
    if (sqlOpen) await sql.end();
    await postgres.stop();
    await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

childMain(CHILD_FLAG, measure);
