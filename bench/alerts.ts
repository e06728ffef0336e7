// One poller run over 10,000 saved searches (1,000 distinct queries, 40 channels) against the sandbox with 50 ms
// of latency added to every request: upstream calls, run time, peak memory, and outbox rows written per second. The
// listings' life story (issue 40) is recorded in every run's commit, as in production: its rows and size are reported.
// BENCH_ALERTS_SEARCHES (a multiple of 400) runs a smaller one, to check the bench itself.
// The runs use the production poller settings (src/app/background.ts: maxPages 3, the default concurrency). The measuring runs in a
// fresh child process of its own, so its peak RSS (the OS's maxRSS of that process) is this bench's alone, not what
// the benches before it left in the heap; the sandbox runs in yet another process.
import { spawn } from 'node:child_process';
import inspector from 'node:inspector/promises';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paramsKey, pollOnce, type PollerOptions, type SavedQuery } from '../src/alerts/index.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import { ApiClient } from '../src/api/client.js';
import { silentLogger } from '../src/log.js';
import type { Query } from '../src/query/index.js';
import { openDatabase, type AlertsRepo } from '../src/store/index.js';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.js';
import type { BenchResult } from './doc.js';
import { startSandboxProcess } from './sandbox-process.js';

export const SEARCHES = Number(process.env.BENCH_ALERTS_SEARCHES ?? 10_000);
const DISTINCT = Math.min(1_000, SEARCHES / 10);
export const CHANNELS = 40;
export const LATENCY_MS = 50;

/** The sandbox's location ids that a handful of autocomplete probes find (the areas the saved searches are in). */
export async function locationIds(url: string, key: string): Promise<number[]> {
  const ids = new Set<number>();
  for (const probe of ['a', 'e', 'i', 'o', 'u', 'dubai', 'al', 'jumeirah', 'palm', 'marina', 'city', 'park']) {
    const res = await fetch(`${url}/autocomplete-location?query=${probe}`, { headers: { 'x-gateway-key': key } });
    for (const l of ((await res.json()) as { data: { id: number }[] }).data) ids.add(l.id);
  }
  return [...ids];
}

function distinctQueries(locations: number[]): SavedQuery[] {
  const out: SavedQuery[] = [];
  for (const op of ['search-rent', 'search-buy'] as const) {
    for (const bedrooms of [undefined, '0', '1', '2', '3', '4']) {
      for (const priceMax of [
        undefined,
        op === 'search-rent' ? '150000' : '3000000',
        op === 'search-rent' ? '90000' : '1500000',
      ]) {
        for (const id of locations) {
          const params: Record<string, string> = {};
          if (bedrooms) params.bedrooms = bedrooms;
          if (priceMax) params.price_max = priceMax;
          const query: Query = { operation: op, params, location: `place ${id}`, unknownWords: [] };
          out.push({ query, location: { id, name: `Place ${id}` } });
          if (out.length === DISTINCT) return out;
        }
      }
    }
  }
  return out;
}

/**
 * Saves SEARCHES searches over DISTINCT queries in CHANNELS channels (`channelPrefix` + n), each query in 10 channels and
 * never twice in one (a channel refuses the same search saved twice). Returns the distinct queries.
 */
export async function saveSearches(
  repo: Pick<AlertsRepo, 'create'>,
  url: string,
  key: string,
  o: { service: string; channelPrefix: string },
): Promise<SavedQuery[]> {
  const queries = distinctQueries(await locationIds(url, key));
  const limits = { perChannel: SEARCHES, perOwner: SEARCHES };
  const perChannel = SEARCHES / CHANNELS;
  for (let i = 0; i < SEARCHES; i++) {
    const saved = queries[i % queries.length]!;
    const channel = `${o.channelPrefix}${Math.floor(i / perChannel)}`;
    const made = await repo.create(
      {
        service: o.service,
        channel,
        owner: `U${i % 500}`,
        text: 'bench',
        query: encodeSavedQuery(saved),
        operation: saved.query.operation,
        paramsKey: paramsKey(saved),
        summary: 'bench',
      },
      limits,
    );
    if (!made.ok) throw new Error(`bench: saved search ${i} refused (${made.reason})`);
  }
  return queries;
}

/** As the composition root runs the poller (config defaults: ALERTS_MAX_PAGES 3, ALERTS_PRICE_DROP_PCT 1; no concurrency given). */
export const PRODUCTION: PollerOptions = { maxPages: 3, priceDropPct: 1, deadlineMs: 30_000 };
const CHILD_FLAG = '--alerts-bench-child';
const DATABASE = process.env.BENCH_ALERTS_DB === 'postgres' ? 'postgres' : 'sqlite';

/** The document's section: the same run on Postgres is a row of its own. */
export const section = () => (DATABASE === 'postgres' ? 'alerts-postgres' : 'alerts');

/** Runs the measuring in a child process and returns its figures. */
export async function run(): Promise<BenchResult> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{'))
    throw new Error(`alerts bench child failed (exit ${code}): ${out.slice(-2_000)}`);
  return JSON.parse(last) as BenchResult;
}

async function measure(): Promise<BenchResult> {
  const KEY = 'bench-key';
  const sandbox = await startSandboxProcess(KEY);
  const url = sandbox.url;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-bench-alerts-'));
  // BENCH_ALERTS_DB=postgres: the same run on an embedded Postgres (a pool of 10, as DATABASE_POOL_SIZE's default).
  const postgres = DATABASE === 'postgres' ? await startEmbeddedPostgres() : undefined;
  const db = await openDatabase({
    dbPath: path.join(dir, 'alerts.db'),
    postgres: postgres && { url: postgres.adminUrl, poolSize: 10 },
  });
  const base = db.alerts;
  // On SQLite: the WAL copied into the database file now, from a connection of its own.
  const checkpoint = () => {
    if (DATABASE === 'postgres') return;
    const own = new Database(path.join(dir, 'alerts.db'));
    try {
      own.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      own.close();
    }
  };
  // Time spent writing runs (seen rows and outbox rows, in their transactions), for rows written per second.
  let writeMs = 0;
  const timed = async <T>(write: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await write();
    } finally {
      writeMs += performance.now() - t;
    }
  };
  // The poller commits a batch of queries through commitMany (outcomes decided inside the transaction, issue 27;
  // a transaction a batch, issue 42); commitPlanned and commitRuns are timed too, so a change of path cannot leave the
  // figure at zero again.
  const repo: typeof base = {
    ...base,
    commitRuns: (outcomes, fence) => timed(() => base.commitRuns(outcomes, fence)),
    commitPlanned: (plan, fence) => timed(() => base.commitPlanned(plan, fence)),
    commitMany: (items, fence, options) => timed(() => base.commitMany(items, fence, options)),
  };
  const api = new ApiClient({ baseUrl: url, key: KEY, connections: 16, logger: silentLogger });
  try {
    const queries = await saveSearches(repo, url, KEY, { service: url, channelPrefix: 'bench:C' });
    const deps = { api, repo, leases: db.leases, service: url, logger: silentLogger };
    // The first look primes every search (one page each), untimed.
    await pollOnce({ ...deps, options: { ...PRODUCTION, maxPages: 1 } });
    await sandbox.control('POST', 'faults', { latencyMs: LATENCY_MS, count: 1_000_000 });

    globalThis.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    await sandbox.control('DELETE', 'requests');
    const quiet = await profiled('quiet', () => pollOnce({ ...deps, options: PRODUCTION }));
    const quietCalls = ((await sandbox.control('GET', 'requests')) as unknown[]).length;

    // A busy market: a day of new listings and price changes, then a run that writes many outbox rows.
    await sandbox.control('POST', 'advance?minutes=1440');
    checkpoint(); // what the setup and the quiet run wrote: not the busy run's to copy
    writeMs = 0;
    const busy = await profiled('busy', () => pollOnce({ ...deps, options: PRODUCTION }));
    // The busy run's writes copied into the database file: counted in its writing time (SQLite checkpoints them
    // later, on a commit of its own, every 10,000 pages; src/store/db.ts).
    const t = performance.now();
    checkpoint();
    writeMs += performance.now() - t;
    clearInterval(sample);
    peak = Math.max(peak, process.memoryUsage().rss);
    // The OS's peak for this process (the whole bench, setup included): the figure the 300 MB goal is about.
    const maxRss = process.resourceUsage().maxRSS * 1024;
    const maxRssMb = Math.round(maxRss / 1024 / 1024);
    const rowsPerSecond = Math.round(busy.queued / (writeMs / 1000));
    const onPostgres = DATABASE === 'postgres';
    const stories = onPostgres ? undefined : storiesIn(path.join(dir, 'alerts.db'));
    const storyText = stories
      ? `${stories.rows.toLocaleString('en')} listings' stories, ${Math.round(stories.bytes / 1024).toLocaleString('en')} KB of table and index pages`
      : 'recorded (size measured on SQLite)';
    const row = {
      name: onPostgres
        ? `The same run on Postgres (an embedded Postgres, fsync off, a pool of 10)`
        : `One poller run over ${SEARCHES.toLocaleString('en')} saved searches (${queries.length.toLocaleString('en')} distinct queries, ${CHANNELS} channels), sandbox in its own process with ${LATENCY_MS} ms added to every request`,
      figure: `With the production settings: ${quietCalls.toLocaleString('en')} upstream calls, ${(quiet.ms / 1000).toFixed(1)} s, peak RSS of the bench's own process ${maxRssMb} MB; a busy run (a day of market: ${busy.newListings.toLocaleString('en')} new listings, ${busy.priceDrops.toLocaleString('en')} drops) takes ${(busy.ms / 1000).toFixed(1)} s and writes ${rowsPerSecond.toLocaleString('en')} outbox rows/s in its transactions (${busy.queued.toLocaleString('en')} rows in ${(writeMs / 1000).toFixed(1)} s of writing${onPostgres ? '' : ', the checkpoint of what they wrote included'}); history recording on: ${storyText}`,
      goal: onPostgres ? 'calls = distinct queries; under 30 s' : 'calls = distinct queries; under 30 s; under 300 MB',
      pass: quietCalls === queries.length && quiet.ms < 30_000 && (onPostgres || maxRssMb < 300),
    };
    const figures = {
      database: db.dialect,
      'saved searches / distinct queries': `${SEARCHES} / ${queries.length} in ${CHANNELS} channels`,
      'quiet run: upstream calls': `${quietCalls} (goal: ${queries.length})`,
      'quiet run: time': `${(quiet.ms / 1000).toFixed(1)} s (goal: under 30 s)`,
      'busy run: time, calls': `${(busy.ms / 1000).toFixed(1)} s, ${busy.calls} calls`,
      'busy run: new / drops / rows queued': `${busy.newListings} / ${busy.priceDrops} / ${busy.queued}`,
      'busy run: outbox rows written/s': `${Math.round(busy.queued / (writeMs / 1000))} (${busy.queued} rows in ${Math.round(writeMs)} ms of writing transactions${onPostgres ? '' : ' and the checkpoint of what they wrote'}, seen rows included)`,
      'history recording (listing_history)': storyText,
      'peak RSS (this bench process)': `${Math.round(maxRss / 1024 / 1024)} MB (goal: under 300 MB)`,
      'RSS during the runs': `baseline ${Math.round(baseline / 1024 / 1024)} MB, peak ${Math.round(peak / 1024 / 1024)} MB`,
    };
    return { figures, rows: [row] };
  } finally {
    await api.close();
    await db.close();
    await postgres?.stop();
    await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * BENCH_ALERTS_PROFILE=<dir>: a CPU profile of each timed run alone (`quiet.cpuprofile`, `busy.cpuprofile`), for
 * Chrome's DevTools or any reader of the format; the sampling costs some CPU, so its runs' figures are not quoted.
 */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_ALERTS_PROFILE;
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** The listings' stories the runs recorded, and the pages their table and index take (SQLite's dbstat). */
function storiesIn(file: string): { rows: number; bytes: number } {
  const sqlite = new Database(file, { readonly: true });
  try {
    const { rows } = sqlite.prepare('SELECT count(*) AS rows FROM listing_history').get() as { rows: number };
    const { bytes } = sqlite
      .prepare(
        "SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name IN ('listing_history', 'listing_history_last_seen_idx', 'sqlite_autoindex_listing_history_1')",
      )
      .get() as { bytes: number };
    return { rows, bytes };
  } catch {
    // A build of SQLite without dbstat: the rows alone.
    const { rows } = sqlite.prepare('SELECT count(*) AS rows FROM listing_history').get() as { rows: number };
    return { rows, bytes: 0 };
  } finally {
    sqlite.close();
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  measure().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
