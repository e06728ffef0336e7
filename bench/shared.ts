// One poller run over 100,000 saved searches (10,000 distinct queries, 400 channels) on Postgres, shared by three
// instances through pg-boss (src/jobs/shared-scheduler.ts), against the sandbox with 50 ms of latency added to every
// request: run time against the floor the latency sets, upstream calls, how the parts spread over the instances, each
// instance's event loop, CPU and peak RSS, the host's CPU, and outbox rows queued per second in a busy run. Each
// instance runs in a process of its own, as `manzil start` would (bench/shared-instance.ts: its own pool, API client
// and scheduler, the poller job registered as composeBackground registers it), forked with IPC by the measuring
// process, which starts the sandbox (in another process) and Postgres, saves the searches, starts each run through one
// instance's runSoon, waits for it in SQL and reads the instances' counters between phases. The bench runs all this in
// a child process of its own (child.ts).
import { fork } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { paramsKey, type SavedQuery } from '../src/alerts/index.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import type { Query } from '../src/query/index.js';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.js';
import { LATENCY_MS, locationIds } from './alerts.js';
import { childMain, runInChild } from './child.js';
import type { BenchResult } from './doc.js';
import { startSandboxProcess } from './sandbox-process.js';
import { CONCURRENCY, INSTANCE_FLAG, POOL_SIZE, type Counters, type Reply, type Request } from './shared-instance.js';

const SEARCHES = 100_000;
const DISTINCT = 10_000;
const CHANNELS = 400;
const INSTANCES = 3;
/** Rows per INSERT statement: 10 parameters a row, far below Postgres's 65,535. */
const ROWS_PER_INSERT = 2_000;
/** How long a run (or the first look) may take before the bench gives up on it. */
const RUN_TIMEOUT_MS = 20 * 60_000;
const CHILD_FLAG = '--shared-bench-child';
/** How long an instance may take to stop (its parts under way finishing) before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

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
            const priceMax =
              cap &&
              { high: op === 'search-rent' ? '150000' : '3000000', low: op === 'search-rent' ? '90000' : '1500000' }[
                cap
              ];
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

const EVERY_RUN = JSON.stringify({ every: 'run' });

/**
 * Saves SEARCHES searches over `queries` in CHANNELS channels in bulk (multi-row INSERTs, filling the columns the
 * store's create fills, and each channel's alert number as create leaves it): each query in SEARCHES / DISTINCT
 * channels,
 * never twice in one. Returns the milliseconds it took.
 */
async function saveInBulk(client: pg.Client, queries: SavedQuery[], service: string): Promise<number> {
  const started = performance.now();
  const perChannel = SEARCHES / CHANNELS;
  const encoded = queries.map((q) => ({ query: encodeSavedQuery(q), operation: q.query.operation, key: paramsKey(q) }));
  const at = Date.now();
  for (let from = 0; from < SEARCHES; from += ROWS_PER_INSERT) {
    // Ids given here (1..SEARCHES), so each standing order's own fields (saved_search) go in beside it.
    const orders: unknown[] = [];
    const fields: unknown[] = [];
    const orderRows: string[] = [];
    const fieldRows: string[] = [];
    const params = (row: unknown[], values: unknown[]) =>
      `(${row.map((_, k) => `$${values.length + k + 1}`).join(', ')})`;
    for (let i = from; i < Math.min(SEARCHES, from + ROWS_PER_INSERT); i++) {
      const q = encoded[i % encoded.length]!;
      const channel = `bench:C${Math.floor(i / perChannel)}`;
      const order = [i + 1, 'alert', service, channel, (i % perChannel) + 1, `U${i % 500}`, EVERY_RUN, at, at];
      orderRows.push(params(order, orders));
      orders.push(...order);
      const own = [i + 1, 'bench', q.query, q.operation, q.key, 'bench'];
      fieldRows.push(params(own, fields));
      fields.push(...own);
    }
    await client.query(
      `INSERT INTO standing_order (id, kind, service, target, number, owner, schedule, created_at, next_run_at) VALUES ${orderRows.join(', ')}`,
      orders,
    );
    await client.query(
      `INSERT INTO saved_search (id, text, query, operation, params_key, summary) VALUES ${fieldRows.join(', ')}`,
      fields,
    );
  }
  await client.query(`SELECT setval('standing_order_id_seq', ${SEARCHES})`);
  await client.query(
    `INSERT INTO standing_order_number (kind, target, last) SELECT kind, target, max(number) FROM standing_order GROUP BY kind, target`,
  );
  return performance.now() - started;
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

/** One instance process (bench/shared-instance.ts), forked with IPC: its requests answered by id, the ready one 0. */
function forkInstance(n: number, env: Record<string, string>) {
  const file = fileURLToPath(new URL('./shared-instance.ts', import.meta.url));
  // Its stdout goes to our stderr: our stdout carries the figures to the bench (child.ts).
  const child = fork(file, [INSTANCE_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 2, 'inherit', 'ipc'],
    env: { ...process.env, ...env, BENCH_SHARED_HOLDER: `bench-instance-${n}` },
  });
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const died = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      const error = new Error(`bench: instance ${n} exited (${signal ?? `code ${code}`})`);
      for (const p of pending.values()) p.reject(error);
      if (!stopping) reject(error);
    }),
  );
  died.catch(() => undefined); // seen by whoever races it
  child.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error) p?.reject(new Error(`bench: instance ${n}: ${reply.error}`));
    else p?.resolve(reply);
  });
  const answer = (id: number) => new Promise<Reply>((resolve, reject) => pending.set(id, { resolve, reject }));
  const ready = answer(0);
  const request = (type: Request['type']) => {
    const id = nextId++;
    const replied = answer(id);
    child.send({ id, type } satisfies Request);
    return replied;
  };
  return {
    ready,
    died,
    request,
    read: async () => (await request('read')).counters!,
    /** Asks it to stop (its scheduler, client and store) and exit; kills it if it has not within STOP_TIMEOUT_MS. */
    stop: async () => {
      stopping = true;
      if (alive() && child.connected) await within(request('stop'), STOP_TIMEOUT_MS).catch(() => undefined);
      const gone = await within(exited, STOP_TIMEOUT_MS)
        .then(() => true)
        .catch(() => false);
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
}
type Instance = ReturnType<typeof forkInstance>;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
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
  return runInChild(new URL(import.meta.url), CHILD_FLAG);
}

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

async function measure(): Promise<BenchResult> {
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
    const queries = distinctQueries(await locationIds(url, KEY));
    const keys = new Set(queries.map(paramsKey)).size;
    if (keys !== DISTINCT) throw new Error(`bench: ${keys} distinct params keys, ${DISTINCT} wanted`);
    const insertMs = await saveInBulk(sql, queries, url);
    const saved = await count(sql, 'SELECT count(*) AS n FROM saved_search');
    const savedKeys = await count(sql, 'SELECT count(DISTINCT params_key) AS n FROM saved_search');
    if (saved !== SEARCHES || savedKeys !== DISTINCT)
      throw new Error(`bench: ${saved} searches saved over ${savedKeys} queries`);

    // The first look primes every search, untimed.
    await all('reset');
    const firstStarted = performance.now();
    await instances[0]!.request('runSoon');
    await Promise.race([
      until(sql, 'first look', 'SELECT count(*) AS n FROM saved_search WHERE primed_at IS NULL'),
      died,
    ]);
    const firstMs = performance.now() - firstStarted;
    const firstSent = sum((await Promise.all(instances.map((i) => i.read()))).map((c) => c.sent));
    await sandbox.control('POST', 'faults', { latencyMs: LATENCY_MS, count: 1_000_000 });

    /** One run started by runSoon on the first instance, until every search has run since it started. */
    const timedRun = async () => {
      await sandbox.control('DELETE', 'requests');
      const outboxBefore = await count(sql, 'SELECT count(*) AS n FROM outbox');
      await all('reset');
      const start = Date.now();
      const t = performance.now();
      const cpu = hostCpu();
      await instances[0]!.request('runSoon');
      await Promise.race([
        until(
          sql,
          'run',
          "SELECT count(*) AS n FROM standing_order WHERE kind = 'alert' AND (last_run_at IS NULL OR last_run_at < $1)",
          [start],
        ),
        died,
      ]);
      const ms = performance.now() - t;
      const { busy, idle } = hostCpu();
      const counters = await Promise.all(instances.map((i) => i.read()));
      const lastAt = await count(sql, "SELECT max(last_run_at) AS n FROM standing_order WHERE kind = 'alert'");
      const logged = ((await sandbox.control('GET', 'requests')) as unknown[]).length;
      const queued = (await count(sql, 'SELECT count(*) AS n FROM outbox')) - outboxBefore;
      return {
        ms,
        lastMs: lastAt - start,
        logged,
        queued,
        counters,
        ...describeRun(ms, performance.timeOrigin + t, counters, { busy: busy - cpu.busy, idle: idle - cpu.idle }),
      };
    };
    // The log keeps the last 10,000 requests only: the API clients' own count is the figure, the log a check on it.
    const calls = (r: { sent: number; logged: number }) =>
      `${r.sent} (sandbox log: ${r.logged}${r.logged >= 10_000 ? ', its cap' : ''})`;

    const quiet = await timedRun();
    const floor = (DISTINCT * LATENCY_MS) / (INSTANCES * CONCURRENCY);

    // A busy market: a day of new listings and price changes, then a run that queues many outbox rows.
    await sandbox.control('POST', 'advance?minutes=1440');
    const busy = await timedRun();
    const reported = (f: (c: Counters) => number) => sum(busy.counters.map(f));
    const failed = sum([...quiet.counters, ...busy.counters].map((c) => c.failedQueries));
    // Counted by each instance since it started.
    const warnings = reported((c) => c.warnings);
    const errors = reported((c) => c.errors);
    const firstLogged = busy.counters.find((c) => c.firstLogged)?.firstLogged;
    const busyNew = reported((c) => c.newListings);
    const busyDrops = reported((c) => c.priceDrops);
    const row = {
      name: `One poller run over ${saved.toLocaleString('en')} saved searches (${savedKeys.toLocaleString('en')} distinct queries, ${CHANNELS} channels) shared by ${INSTANCES} instances on Postgres through pg-boss (each instance a process of its own, ${CONCURRENCY} jobs at a time), ${LATENCY_MS} ms added to every request`,
      figure: `quiet run: ${quiet.sent.toLocaleString('en')} calls in ${s1(quiet.ms)} against a floor of ${s1(floor)} (${(quiet.ms / floor).toFixed(2)} times); per instance ${quiet.spread}; ${quiet.inside}; host ${quiet.host}. Busy run (a day of market: ${busyNew.toLocaleString('en')} new listings, ${busyDrops.toLocaleString('en')} drops): ${s1(busy.ms)}, ${busy.queued.toLocaleString('en')} outbox rows queued, ${Math.round(busy.queued / (busy.ms / 1000))} a second; ${failed} queries failed`,
      goal: 'calls = distinct queries; none failed',
      pass: quiet.sent === DISTINCT && failed === 0,
    };

    const figures = {
      database: `postgres (embedded), ${INSTANCES} instances, a process each: store pool ${POOL_SIZE} + pg-boss pool 4 each, concurrency ${CONCURRENCY}`,
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
      'quiet run: instance processes': quiet.processes,
      'quiet run: host CPU': quiet.host,
      'busy run: time, calls': `${s1(busy.ms)} (last search recorded at ${s1(busy.lastMs)}), ${calls(busy)}`,
      'busy run: new / drops / rows queued': `${reported((c) => c.newListings)} / ${reported((c) => c.priceDrops)} / ${reported((c) => c.queued)}`,
      'busy run: outbox rows queued': busy.queued,
      'busy run: deliveries queued/s': Math.round(busy.queued / (busy.ms / 1000)),
      'busy run: per instance': busy.spread,
      'busy run: part time': busy.partTimes,
      'busy run: inside the parts': busy.inside,
      'busy run: instance processes': busy.processes,
      'busy run: host CPU': busy.host,
      'failed queries / warnings / errors': `${failed} / ${warnings} / ${errors}${firstLogged ? ` (first: ${firstLogged})` : ''}`,
      'peak RSS (each instance process)': `${each(busy.counters, (c) => mb(c.maxRss))} MB (the measuring process: ${mb(process.resourceUsage().maxRSS * 1024)} MB)`,
    };
    return { figures, rows: [row] };
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
