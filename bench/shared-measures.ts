// The shared bench's pure parts (bench/shared.ts): its sizes read from the environment, a process's CPU read from
// /proc/<pid>/stat, and the one JSON line a script reads. Pure, so test/bench/shared-measures.test.ts holds them.

/** What the bench saves: searches over distinct queries in channels. */
export interface SharedSizes {
  searches: number;
  distinct: number;
  channels: number;
}

/** A whole number as people write it: `1000000`, `1_000_000` or `1,000,000`. */
const WHOLE = /^\d{1,3}(?:[_,]?\d{3})*$|^\d+$/;

/**
 * BENCH_SHARED_SEARCHES (100,000), BENCH_SHARED_DISTINCT (10,000) and BENCH_SHARED_CHANNELS (searches / 250) from
 * `env`; a bad value throws a sentence that says which variable, what it got and what it takes.
 */
export function sharedSizes(env: Record<string, string | undefined>): SharedSizes {
  const read = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const n = WHOLE.test(raw) ? Number(raw.replace(/[_,]/g, '')) : NaN;
    if (!Number.isSafeInteger(n) || n < 1)
      throw new Error(`${name} must be a whole number of at least 1, such as 1000000 or 1_000_000 (got "${raw}")`);
    return n;
  };
  const searches = read('BENCH_SHARED_SEARCHES', 100_000);
  const distinct = read('BENCH_SHARED_DISTINCT', 10_000);
  const channels = read('BENCH_SHARED_CHANNELS', Math.max(1, Math.round(searches / 250)));
  if (distinct > searches)
    throw new Error(
      `BENCH_SHARED_DISTINCT (${distinct}) cannot be more than BENCH_SHARED_SEARCHES (${searches}): each query is saved at least once`,
    );
  if (channels > searches)
    throw new Error(`BENCH_SHARED_CHANNELS (${channels}) cannot be more than BENCH_SHARED_SEARCHES (${searches})`);
  // A channel holds consecutive searches, whose queries are consecutive too: more than `distinct` would repeat one.
  const perChannel = Math.ceil(searches / channels);
  if (perChannel > distinct)
    throw new Error(
      `${searches} searches in ${channels} channels is ${perChannel} a channel, more than the ${distinct} distinct queries: a channel cannot save one query twice; raise BENCH_SHARED_CHANNELS to at least ${Math.ceil(searches / distinct)}`,
    );
  return { searches, distinct, channels };
}

/** A process's CPU from /proc/<pid>/stat, in clock ticks: its own, and its waited-for children's (exited). */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

/**
 * One /proc/<pid>/stat line read (proc(5)): the command sits in parentheses and may hold spaces and parentheses
 * itself, so the fields are counted from the last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // After the command: state (field 3), ppid (4), ... utime (14), stime (15), cutime (16), cstime (17).
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number) => {
    const v = Number(rest[n - 3]);
    if (!Number.isFinite(v)) throw new Error(`/proc/<pid>/stat: field ${n} is not a number: ${line.slice(0, 80)}`);
    return v;
  };
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
  };
}

/**
 * A process tree's CPU so far, in ticks: each live process's own time and its exited children's (cutime, cstime, once
 * waited for). Postgres's postmaster forks a backend per connection: one that has exited is in the postmaster's
 * cutime, one still open is counted live, so the sums taken at two moments differ by what the tree used in between.
 */
export function treeTicks(tree: readonly ProcStat[]): number {
  return tree.reduce((t, p) => t + p.utime + p.stime + p.cutime + p.cstime, 0);
}

/** What one timed run measured, for the JSON line. */
export interface RunMeasures {
  ms: number;
  calls: number;
  /** Statements the instances sent to Postgres during the run, all together. */
  statements: number;
  /** CPU ms in the run: each instance, Postgres (postmaster and children), the sandbox. */
  cpuMs: { instances: number[]; postgres: number; sandbox: number };
  /** Each instance's peak RSS during the run, bytes. */
  peakRss: number[];
  outboxRows: number;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const perThousand = (ms: number, queries: number) => round(ms / 1000 / (queries / 1000), 3);

/** CPU seconds per 1,000 queries: each process, and all of them together. */
export function cpuPerThousand(run: RunMeasures, queries: number) {
  const { instances, postgres, sandbox } = run.cpuMs;
  return {
    instances: instances.map((ms) => perThousand(ms, queries)),
    postgres: perThousand(postgres, queries),
    sandbox: perThousand(sandbox, queries),
    total: perThousand(instances.reduce((a, b) => a + b, 0) + postgres + sandbox, queries),
  };
}

/**
 * The JSON line a script reads: the fields first (the quiet run's; busy_run_s the busy run's time), then the
 * detail (each process's CPU, the busy run's own figures). A run that did not finish has null times.
 */
export function sharedJsonLine(o: {
  sizes: SharedSizes;
  instances: number;
  floorMs: number;
  quiet: RunMeasures | null;
  busy: RunMeasures | null;
  /** Instance peak RSS over the whole bench (the OS's maxRSS), bytes. */
  maxRss: number[];
  error?: string;
}): Record<string, unknown> {
  const { sizes, quiet, busy } = o;
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const perQuery = (r: RunMeasures | null) => (r ? round(r.statements / sizes.distinct, 2) : null);
  const cpu = (r: RunMeasures | null) => (r ? cpuPerThousand(r, sizes.distinct) : null);
  return {
    bench: 'shared',
    searches: sizes.searches,
    distinct: sizes.distinct,
    instances: o.instances,
    run_s: quiet ? round(quiet.ms / 1000, 1) : null,
    floor_s: round(o.floorMs / 1000, 1),
    calls: quiet?.calls ?? null,
    peak_rss_mb: o.maxRss.map(mb),
    round_trips_per_query: perQuery(quiet),
    cpu_s_per_1000_queries: cpu(quiet)?.total ?? null,
    busy_run_s: busy ? round(busy.ms / 1000, 1) : null,
    channels: sizes.channels,
    run_over_floor: quiet ? round(quiet.ms / o.floorMs, 2) : null,
    run_peak_rss_mb: quiet?.peakRss.map(mb) ?? null,
    cpu_s_per_1000_queries_by_process: cpu(quiet),
    busy_calls: busy?.calls ?? null,
    busy_round_trips_per_query: perQuery(busy),
    busy_cpu_s_per_1000_queries: cpu(busy)?.total ?? null,
    busy_cpu_s_per_1000_queries_by_process: cpu(busy),
    busy_outbox_rows: busy?.outboxRows ?? null,
    busy_outbox_rows_per_s: busy ? Math.round(busy.outboxRows / (busy.ms / 1000)) : null,
    busy_run_peak_rss_mb: busy?.peakRss.map(mb) ?? null,
    ...(o.error ? { error: o.error } : {}),
  };
}
