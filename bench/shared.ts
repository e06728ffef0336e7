// One poller run over BENCH_SHARED_SEARCHES saved searches (100,000; BENCH_SHARED_DISTINCT distinct queries, 10,000;
// BENCH_SHARED_CHANNELS channels, one for every 250 searches) on Postgres, shared by three instances through pg-boss
// (src/jobs/shared-scheduler.ts), against the sandbox with 50 ms of latency added to every request. For the quiet run
// and a busy one (a day of market): the run's time against the floor the latency sets, upstream calls, round trips to
// Postgres per query (every statement the instances send, pg-boss's included), CPU seconds per 1,000 queries of each
// process (each instance, Postgres's postmaster and backends read from /proc, the sandbox), each instance's peak RSS,
// and the outbox rows queued per second; one JSON line of them for a script (shared-measures.ts). Each instance runs
// in a process of its own, as `manzil start` would (bench/shared-instance.ts, forked by shared-fork.ts); the searches
// are made in SQL and primed by a real first look over one search per query (shared-seed.ts). The bench runs all
// this in a child process of its own (child.ts). BENCH_PG_STATEMENTS=1 also prints, for each run, the statements that
// cost Postgres the most time (pg_stat_statements, preloaded then: the figures are a little slower).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { paramsKey } from '../src/alerts/index.js';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.js';
import { LATENCY_MS, locationIds } from './alerts.js';
import { childMain, runInChild } from './child.js';
import type { BenchResult } from './doc.js';
import { startSandboxProcess } from './sandbox-process.js';
import { cloneSearches, distinctQueries, finishSaving, saveQueries, saveSearches } from './shared-seed.js';
import { forkInstance, type Instance } from './shared-fork.js';
import { CONCURRENCY, POOL_SIZE, type Counters, type Request } from './shared-instance.js';
import {
  cpuPerThousand,
  parseProcStat,
  sharedJsonLine,
  sharedSizes,
  treeTicks,
  type ProcStat,
  type RunMeasures,
} from './shared-measures.js';

const INSTANCES = 3;
/** How long a run (or the first look) may take before the bench gives up on it: BENCH_SHARED_RUN_TIMEOUT_S, 20 min. */
const RUN_TIMEOUT_MS = (() => {
  const raw = process.env.BENCH_SHARED_RUN_TIMEOUT_S;
  const s = raw === undefined || raw === '' ? 1_200 : Number(raw);
  if (!Number.isFinite(s) || s <= 0)
    throw new Error(`BENCH_SHARED_RUN_TIMEOUT_S must be a number of seconds above 0 (got "${raw}")`);
  return s * 1000;
})();
const CHILD_FLAG = '--shared-bench-child';
/** At a million searches and more, the issue's goals: within 1.25 times the floor, each instance under 300 MB. */
const MILLION = 1_000_000;
const RSS_GOAL_MB = 300;

/**
 * BENCH_PG_STATEMENTS=1 (Postgres started with pg_stat_statements): the statements of one run that cost Postgres the
 * most time, a line each, counted from the run's start; nothing otherwise.
 */
async function statementCosts(client: pg.Client): Promise<{ costliest(queries: number): Promise<string[]> }> {
  if (process.env.BENCH_PG_STATEMENTS !== '1') return { costliest: async () => [] };
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.query('SELECT pg_stat_statements_reset()');
  return {
    async costliest(queries) {
      const { rows } = await client.query<{ ms: number; calls: string; rows: string; query: string }>(
        `SELECT total_exec_time AS ms, calls, rows, query FROM pg_stat_statements
         WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 12`,
      );
      // The costliest select's plan, as Postgres would run it for any values (EXPLAIN GENERIC_PLAN, Postgres 16 on).
      const top = rows.find((r) => /^\s*select/i.test(r.query));
      const plan = top
        ? (
            await client
              .query<{ 'QUERY PLAN': string }>(`EXPLAIN (GENERIC_PLAN) ${top.query}`)
              .catch(() => ({ rows: [] }))
          ).rows.map((r) => `  plan: ${r['QUERY PLAN']}`)
        : [];
      return [
        ...rows.map(
          (r) =>
            `${(r.ms / 1000).toFixed(2)} s in ${Number(r.calls).toLocaleString('en')} calls (${(Number(r.calls) / queries).toFixed(2)} a query, ${Number(r.rows).toLocaleString('en')} rows): ${r.query.replace(/\s+/g, ' ').slice(0, 220)}`,
        ),
        ...plan,
      ];
    },
  };
}

const count = async (client: pg.Client, sql: string, params: unknown[] = []): Promise<number> =>
  Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);

/** Asks Postgres every 200 ms until `sql` counts nothing left. */
async function until(client: pg.Client, what: string, sql: string, params: unknown[] = []): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const left = await count(client, sql, params);
    if (left === 0) return;
    if (Date.now() > deadline)
      throw new Error(`bench: ${what}: ${left} searches still waiting after ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
/** The host's cores' busy and idle time so far (ms, all cores together). */
const hostCpu = () =>
  os.cpus().reduce((a, { times: t }) => ({ busy: a.busy + t.user + t.nice + t.sys + t.irq, idle: a.idle + t.idle }), {
    busy: 0,
    idle: 0,
  });
const each = (cs: readonly Counters[], f: (c: Counters) => number | string) => cs.map(f).join(' / ');

export async function run(): Promise<BenchResult> {
  sharedSizes(process.env); // a bad size is said here, before anything starts
  return runInChild(new URL(import.meta.url), CHILD_FLAG);
}

/** Clock ticks a second, for /proc's CPU times (100 on Linux almost everywhere). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process and its live descendants, read from /proc (one that exits meanwhile is left out: its parent has it). */
function processTree(pid: number): ProcStat[] {
  let root: ProcStat;
  try {
    root = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return [];
  }
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // No children file (a kernel without it): no descendants counted live.
  }
  return [root, ...children.flatMap(processTree)];
}

/** CPU ms a process tree has used so far: Postgres's postmaster and its backends, or the sandbox. */
const treeCpuMs = (pid: number) => (treeTicks(processTree(pid)) * 1000) / CLK_TCK;

/** What a timed run shows: the run started by runSoon on the first instance, until every search has run since. */
function describeRun(ms: number, startAt: number, cs: Counters[], host: { busy: number; idle: number }) {
  const partMs = cs.flatMap((c) => c.partMs).sort((a, b) => a - b);
  // runSoon's job taken, the due searches listed and the parts queued (the tick), before the first part starts.
  const tick = Math.min(...cs.map((c) => c.firstPartAt ?? Infinity)) - startAt;
  const sent = sum(cs.map((c) => c.sent));
  return {
    sent,
    spread: `${each(cs, (c) => c.parts)} parts (ran ${each(cs, (c) => c.ran)}; upstream requests ${each(cs, (c) => c.sent)})`,
    partTimes: `mean ${(sum(partMs) / Math.max(1, partMs.length)).toFixed(0)} ms, p50 ${quantile(partMs, 0.5).toFixed(0)}, p95 ${quantile(partMs, 0.95).toFixed(0)}, max ${(partMs.at(-1) ?? 0).toFixed(0)} (${partMs.length} parts)`,
    // Of a part's time, what its upstream requests took (the rest: its lease, reads and commit in Postgres, and
    // waiting for its instance's event loop); and how full the run kept the instances' 3 × 4 part slots.
    inside: `first part after ${s1(tick)}; upstream requests ${(sum(cs.map((c) => c.sentMs)) / Math.max(1, sent)).toFixed(0)} ms each on average; slots busy ${Math.round((100 * sum(partMs)) / (ms * INSTANCES * CONCURRENCY))}% of the run`,
    // Every process of the bench shares the host: the instances, Postgres, the sandbox and the measuring process.
    host: `${os.cpus().length} cores, ${Math.round((100 * host.busy) / Math.max(1, host.busy + host.idle))} % busy (all the bench's processes, Postgres's included)`,
    processes: `event loop ${each(cs, (c) => Math.round(c.loop * 100))} % busy, CPU ${each(cs, (c) => (c.cpuMs / 1000).toFixed(1))} s in ${s1(ms)}`,
  };
}

type TimedRun = RunMeasures & ReturnType<typeof describeRun> & { lastMs: number; logged: number; counters: Counters[] };

/** The cost lines of a run: round trips and CPU per 1,000 queries, each process's. */
function costs(r: TimedRun, distinct: number) {
  const cpu = cpuPerThousand(r, distinct);
  const perQuery = (n: number) => (n / distinct).toFixed(2);
  return {
    roundTrips: `${perQuery(r.statements)} a query (instances' statements to Postgres, pg-boss's included: ${each(r.counters, (c) => perQuery(c.statements))})`,
    cpu: `${cpu.total.toFixed(2)} s in all: instances ${cpu.instances.map((x) => x.toFixed(2)).join(' / ')}, Postgres ${cpu.postgres.toFixed(2)} (postmaster and backends), sandbox ${cpu.sandbox.toFixed(2)}`,
  };
}

async function measure(): Promise<BenchResult> {
  const sizes = sharedSizes(process.env);
  const { searches, distinct, channels } = sizes;
  const big = searches >= MILLION;
  const ratioGoal = big ? 1.25 : 1.5;
  const KEY = 'bench-key';
  const sandbox = await startSandboxProcess(KEY);
  const url = sandbox.url;
  const instances: Instance[] = [];
  let postgres: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let opened: pg.Client | undefined;
  try {
    postgres = await startEmbeddedPostgres();
    const pgUrl = postgres.adminUrl;
    // Each instance opens its own store (the first applies the migrations, the others wait on their lock) and starts
    // its scheduler before saying it is ready.
    const env = { BENCH_SHARED_PG_URL: pgUrl, BENCH_SHARED_SANDBOX_URL: url, BENCH_SHARED_KEY: KEY };
    for (let n = 0; n < INSTANCES; n++) instances.push(forkInstance(n, env));
    const died = Promise.race(instances.map((i) => i.died));
    await Promise.race([Promise.all(instances.map((i) => i.ready)), died]);
    const all = (type: Request['type']) => Promise.all(instances.map((i) => i.request(type)));

    const sql = new pg.Client({ connectionString: pgUrl });
    await sql.connect();
    opened = sql;
    // Our backend's parent is the postmaster: its CPU and its backends' are Postgres's.
    const backend = await count(sql, 'SELECT pg_backend_pid() AS n');
    const postmaster = parseProcStat(readFileSync(`/proc/${backend}/stat`, 'utf8')).ppid;
    const queries = distinctQueries(await locationIds(url, KEY), distinct);
    const keys = new Set(queries.map(paramsKey)).size;
    if (keys !== distinct) throw new Error(`bench: ${keys} distinct params keys, ${distinct} wanted`);

    // Saving: the distinct queries, then one search per query (ids 1..distinct), in SQL.
    const saveStarted = performance.now();
    await saveQueries(sql, queries);
    await saveSearches(sql, sizes, url, 1, distinct);
    const saveMs = performance.now() - saveStarted;

    // The first look, untimed, by a real run over those searches: one call per query, its listings recorded as seen.
    await all('reset');
    const firstStarted = performance.now();
    await instances[0]!.request('runSoon');
    await Promise.race([
      until(sql, 'first look', 'SELECT count(*) AS n FROM saved_search WHERE primed_at IS NULL'),
      died,
    ]);
    const firstMs = performance.now() - firstStarted;
    const firstSent = sum((await Promise.all(instances.map((i) => i.read()))).map((c) => c.sent));
    const firstSeen = await count(sql, 'SELECT count(*) AS n FROM search_seen');
    // Said as it happens (stderr), so that a bench stopped later still leaves what it measured.
    const say = (line: string) => process.stderr.write(`shared bench: ${line}\n`);
    say(`first look ${s1(firstMs)}, ${firstSent} calls, ${firstSeen} seen rows`);

    // The other searches, each a copy of its query's first-look search, in SQL; then vacuumed and analysed.
    const cloneStarted = performance.now();
    const copiedSeen = await cloneSearches(sql, sizes);
    const cloneMs = performance.now() - cloneStarted;
    const vacuumStarted = performance.now();
    await finishSaving(sql, searches);
    const vacuumMs = performance.now() - vacuumStarted;
    say(`copies ${s1(cloneMs)} (${copiedSeen} seen rows), vacuum ${s1(vacuumMs)}`);
    const saved = await count(sql, 'SELECT count(*) AS n FROM saved_search');
    const savedKeys = await count(sql, 'SELECT count(DISTINCT params_key) AS n FROM saved_search');
    const unprimed = await count(sql, 'SELECT count(*) AS n FROM saved_search WHERE primed_at IS NULL');
    if (saved !== searches || savedKeys !== distinct || unprimed !== 0)
      throw new Error(`bench: ${saved} searches saved over ${savedKeys} queries, ${unprimed} not primed`);
    await sandbox.control('POST', 'faults', { latencyMs: LATENCY_MS, count: 1_000_000 });

    /**
     * Until the run's listed parts have all finished (the instances say so, cheaply, every 100 ms: a count over a
     * million searches that often would cost Postgres more than the run), then until SQL agrees every search has run
     * since `start`.
     */
    const waitForRun = async (start: number) => {
      const deadline = Date.now() + RUN_TIMEOUT_MS;
      for (;;) {
        const ps = await Promise.all(instances.map((i) => i.progress()));
        const listed = sum(ps.map((p) => p.listed));
        const finished = sum(ps.map((p) => p.finished));
        const sqlSays =
          listed > 0 && finished >= listed
            ? await count(
                sql,
                "SELECT count(*) AS n FROM standing_order WHERE kind = 'alert' AND (last_run_at IS NULL OR last_run_at < $1)",
                [start],
              )
            : undefined;
        if (sqlSays === 0) return Math.max(...ps.map((p) => p.lastPartEndAt ?? 0));
        if (Date.now() > deadline)
          throw new Error(
            `run not finished after ${RUN_TIMEOUT_MS / 1000} s: ${finished} of ${listed || 'not yet listed'} parts done${sqlSays ? `, ${sqlSays} searches not run` : ''}`,
          );
        await new Promise((r) => setTimeout(r, sqlSays === undefined ? 100 : 1_000));
      }
    };

    /** One run started by runSoon on the first instance, until every search has run since it started. */
    const timedRun = async (label: string): Promise<TimedRun> => {
      await sandbox.control('DELETE', 'requests');
      const outboxBefore = await count(sql, 'SELECT count(*) AS n FROM outbox');
      const statements = await statementCosts(sql);
      await all('reset');
      const cpuBefore = { postgres: treeCpuMs(postmaster), sandbox: treeCpuMs(sandbox.pid) };
      const start = Date.now();
      const t = performance.now();
      const startAt = performance.timeOrigin + t;
      const cpu = hostCpu();
      await instances[0]!.request('runSoon');
      const lastPartEndAt = await Promise.race([waitForRun(start), died]);
      const cpuAfter = { postgres: treeCpuMs(postmaster), sandbox: treeCpuMs(sandbox.pid) };
      for (const line of await statements.costliest(distinct)) say(`${label}: ${line}`);
      const { busy, idle } = hostCpu();
      const ms = lastPartEndAt - startAt;
      const counters = await Promise.all(instances.map((i) => i.read()));
      const lastAt = await count(sql, "SELECT max(last_run_at) AS n FROM standing_order WHERE kind = 'alert'");
      const logged = ((await sandbox.control('GET', 'requests')) as unknown[]).length;
      const queued = (await count(sql, 'SELECT count(*) AS n FROM outbox')) - outboxBefore;
      const described = describeRun(ms, startAt, counters, { busy: busy - cpu.busy, idle: idle - cpu.idle });
      return {
        ...described,
        ms,
        lastMs: lastAt - start,
        logged,
        counters,
        calls: described.sent,
        statements: sum(counters.map((c) => c.statements)),
        cpuMs: {
          instances: counters.map((c) => c.cpuMs),
          postgres: cpuAfter.postgres - cpuBefore.postgres,
          sandbox: cpuAfter.sandbox - cpuBefore.sandbox,
        },
        peakRss: counters.map((c) => c.peakRss),
        outboxRows: queued,
      };
    };
    // The log keeps the last 10,000 requests only: the API clients' own count is the figure, the log a check on it.
    const calls = (r: { sent: number; logged: number }) =>
      `${r.sent} (sandbox log: ${r.logged}${r.logged >= 10_000 ? ', its cap' : ''})`;
    const floor = (distinct * LATENCY_MS) / (INSTANCES * CONCURRENCY);
    const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

    // A run that does not finish (past RUN_TIMEOUT_MS, or an instance dying) is reported, not thrown: at a million
    // searches that is what the figures are for.
    let quiet: TimedRun | undefined;
    let busy: TimedRun | undefined;
    let failure: string | undefined;
    try {
      quiet = await timedRun('quiet run');
      say(`quiet run ${s1(quiet.ms)}, ${quiet.sent} calls; ${JSON.stringify(costs(quiet, distinct))}`);
      // A busy market: a day of new listings and price changes, then a run that queues many outbox rows.
      await sandbox.control('POST', 'advance?minutes=1440');
      busy = await timedRun('busy run');
    } catch (e) {
      failure = `${quiet ? 'busy' : 'quiet'} run: ${why(e)}`;
    }
    const last = await Promise.all(instances.map((i) => i.read().catch(() => undefined)));
    const maxRss = last.map((c) => c?.maxRss ?? 0);
    const runs = [quiet, busy].filter((r): r is TimedRun => r !== undefined);
    const failed = sum(runs.flatMap((r) => r.counters.map((c) => c.failedQueries)));
    const warnings = Math.max(0, ...last.map((c) => c?.warnings ?? 0));
    const errors = Math.max(0, ...last.map((c) => c?.errors ?? 0));
    const firstLogged = last.find((c) => c?.firstLogged)?.firstLogged;
    const reported = (r: TimedRun | undefined, f: (c: Counters) => number) => (r ? sum(r.counters.map(f)) : 0);
    const busyNew = reported(busy, (c) => c.newListings);
    const busyDrops = reported(busy, (c) => c.priceDrops);
    const mbs = (xs: number[]) => xs.map(mb).join(' / ');
    const underRss = maxRss.every((b) => mb(b) < RSS_GOAL_MB);
    const setting = `${searches.toLocaleString('en')} saved searches (${distinct.toLocaleString('en')} distinct queries, ${channels.toLocaleString('en')} channels) shared by ${INSTANCES} instances on Postgres through pg-boss (each instance a process of its own, ${CONCURRENCY} jobs at a time), ${LATENCY_MS} ms added to every request`;
    const quietCosts = quiet && costs(quiet, distinct);
    const busyCosts = busy && costs(busy, distinct);
    const rows = [
      {
        name: `Quiet run: one poller run over ${setting}`,
        figure: quiet
          ? `${quiet.sent.toLocaleString('en')} calls in ${s1(quiet.ms)} against a floor of ${s1(floor)} (${(quiet.ms / floor).toFixed(2)} times); round trips ${quietCosts!.roundTrips}; CPU per 1,000 queries ${quietCosts!.cpu}; peak RSS ${mbs(maxRss)} MB; per instance ${quiet.spread}; ${quiet.inside}; host ${quiet.host}`
          : `did not finish: ${failure}; peak RSS ${mbs(maxRss)} MB`,
        goal: `calls = distinct queries; none failed; within ${ratioGoal} × floor${big ? `; every instance under ${RSS_GOAL_MB} MB` : ''}`,
        pass:
          quiet !== undefined &&
          quiet.sent === distinct &&
          failed === 0 &&
          quiet.ms <= ratioGoal * floor &&
          (!big || underRss),
      },
      {
        name: `Busy run (a day of market) over the same searches`,
        figure: busy
          ? `${busyNew.toLocaleString('en')} new listings, ${busyDrops.toLocaleString('en')} drops: ${s1(busy.ms)}, ${busy.outboxRows.toLocaleString('en')} outbox rows queued, ${Math.round(busy.outboxRows / (busy.ms / 1000))} a second; round trips ${busyCosts!.roundTrips}; CPU per 1,000 queries ${busyCosts!.cpu}; ${failed} queries failed`
          : `did not finish: ${failure ?? 'not run'}`,
        goal: 'finishes; none failed',
        pass: busy !== undefined && failed === 0,
      },
    ];

    const runFigures = (label: string, r: TimedRun | undefined) =>
      r
        ? {
            [`${label}: time, calls`]: `${s1(r.ms)} (last search recorded at ${s1(r.lastMs)}), ${calls(r)} (goal: ${distinct})`,
            [`${label}: floor, time / floor`]: `${s1(floor)} (${distinct} × ${LATENCY_MS} ms / (${INSTANCES} × ${CONCURRENCY})), ${(r.ms / floor).toFixed(2)}×`,
            [`${label}: round trips per query`]: costs(r, distinct).roundTrips,
            [`${label}: CPU per 1,000 queries`]: costs(r, distinct).cpu,
            [`${label}: outbox rows queued, /s`]: `${r.outboxRows} (${Math.round(r.outboxRows / (r.ms / 1000))} a second)`,
            [`${label}: per instance`]: r.spread,
            [`${label}: part time`]: r.partTimes,
            [`${label}: inside the parts`]: r.inside,
            [`${label}: instance processes`]: r.processes,
            [`${label}: peak RSS in the run`]: `${mbs(r.peakRss)} MB`,
            [`${label}: host CPU`]: r.host,
          }
        : { [`${label}`]: `did not finish: ${failure ?? 'not run'}` };
    const figures = {
      database: `postgres (embedded), ${INSTANCES} instances, a process each: store pool ${POOL_SIZE} + pg-boss pool 4 each, concurrency ${CONCURRENCY}`,
      'saved searches / distinct queries': `${saved} / ${savedKeys} in ${channels} channels`,
      'saving (one search a query)': `${s1(saveMs)} (generated in SQL)`,
      'first look (untimed, no latency)': `${s1(firstMs)}, ${firstSent} calls, ${firstSeen.toLocaleString('en')} seen rows over ${distinct} searches`,
      'copies (the other searches)': `${s1(cloneMs)}: ${(searches - distinct).toLocaleString('en')} searches and ${copiedSeen.toLocaleString('en')} seen rows copied in SQL`,
      'vacuum and analyse': s1(vacuumMs),
      ...runFigures('quiet run', quiet),
      ...runFigures('busy run', busy),
      ...(busy
        ? {
            'busy run: new / drops / rows queued': `${busyNew} / ${busyDrops} / ${reported(busy, (c) => c.queued)}`,
          }
        : {}),
      'failed queries / warnings / errors': `${failed} / ${warnings} / ${errors}${firstLogged ? ` (first: ${firstLogged})` : ''}`,
      'peak RSS (each instance process)': `${mbs(maxRss)} MB (the measuring process: ${mb(process.resourceUsage().maxRSS * 1024)} MB)`,
    };
    const json = sharedJsonLine({
      sizes,
      instances: INSTANCES,
      floorMs: floor,
      quiet: quiet ?? null,
      busy: busy ?? null,
      maxRss,
      ...(failure ? { error: failure } : {}),
    });
    return { figures, rows, json };
  } finally {
    // Each instance stops its scheduler, closes its client and store and exits (or is killed); then Postgres, the
    // sandbox.
    await Promise.allSettled(instances.map((i) => i.stop()));
    await opened?.end();
    await postgres?.stop();
    await sandbox.stop();
  }
}

childMain(CHILD_FLAG, measure);
