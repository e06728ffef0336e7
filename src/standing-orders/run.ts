// One run of a kind of standing order, the same for every kind. It takes the job's fenced lease (one run at a time
// across instances; a part of a shared run takes a lease of its own, recording no run), scans what is due, lets the
// orders of a team that has spent its share of the month wait, and runs the rest part by part: each part's calls paid
// by its teams, what it learned committed under the lease's fence (a stale holder's commit is refused by the store), no
// part started once the run is aborted (shutdown, or the lease lost). The kind says what a part is and what running one
// means; it never takes a lease, a payer or a fence of its own.
//
// On Postgres a run is shared: its parts are listed under the job's lease (the run is recorded as one: /healthz reads
// it), and each part (a query, a digest) is run by whichever instance takes it (src/jobs/shared-scheduler.ts).
import { createHash } from 'node:crypto';
import { payingFor } from '../api/payer.js';
import { runLeased, type Job, type LeasedRunOptions } from '../jobs/index.js';
import type { Logger } from '../log.js';
import { teamOf } from '../ports/index.js';
import type { Fence, LeaseRepo } from '../store/index.js';
import { slotOf, type Schedule } from './schedule.js';

/** How long a run's lease lasts unrenewed: renewed every quarter of it, so a crashed holder keeps it 2 minutes at most. */
export const LEASE_MS = 2 * 60_000;

/** What every run needs, whatever the kind: who runs it and under which lease, the share, the stop. */
export interface RunOptions {
  leases: Pick<LeaseRepo, 'acquire' | 'renew' | 'finish'>;
  /** This instance's name on the leases (default: the process id). */
  holder?: string;
  logger: Logger;
  now?: () => number;
  /** Shutdown: once aborted, no further part starts; the parts under way finish and are recorded. */
  signal?: AbortSignal;
  /** How long the lease lasts unrenewed (default LEASE_MS). */
  leaseMs?: number;
  /** Whether a team (`slack:T123`) may still spend calls this month: its orders wait when not; all run when unset. */
  teamAllows?: (team: string) => Promise<boolean>;
  /** Instances gone (their heartbeat lapsed): a lease one of them holds is taken over at once. */
  lapsed?: () => Promise<string[]>;
  /** A run queued deliveries: deliver soon. */
  onQueued?: () => void;
  /** A run ran (it held its lease): what it did. */
  onRun?: (report: OrderRunReport) => void;
}

/**
 * What a part did. `commit` is run by the run under the lease's fence; `share` is the part's share of its batch's one
 * commit (the kind's `batch.commit`); without either the part records nothing.
 */
export type PartResult<Share = never> =
  | {
      ran: true;
      share?: Share;
      calls: number;
      /** The part failed (it records so): the job's run is recorded as not ok (/healthz). */
      failed?: boolean;
      /**
       * Writes what the part learned (its deliveries, what was seen, its next slot) in one transaction, only while
       * `fence` holds: how many deliveries it queued, or undefined when the fence no longer holds (taken over).
       */
      commit?: (fence: Fence) => Promise<number | undefined>;
    }
  /** Not started: left for a later run (`deferred`: the call budget), or the run was stopped (`skipped`). */
  | { ran: false; why: 'deferred' | 'skipped' };

/**
 * What a kind is handed to run a part: the time it started, the run's stop, its log, the kind's per-run state, and what
 * its batch read for all of its parts (`batch.load`).
 */
export interface PartContext<Row, State, Loaded = undefined> {
  at: number;
  loaded: Loaded;
  now: () => number;
  signal: AbortSignal;
  log: Logger;
  state: State;
  /** The slot a due order is run for and the one it is due at next (its schedule's); undefined when unreadable. */
  slot(row: Row): { slot: number; next: number } | undefined;
}

/** What every run reports, whatever the kind; the kind's own report is made from it (`report`). */
export interface OrderRunReport {
  ran: boolean;
  /** Orders due. */
  due: number;
  /** Of them, those of teams over their share of the month: they wait (or the kind postpones them: `overShare`). */
  waiting: number;
  /** Parts with orders to run, and of them those started. */
  parts: number;
  started: number;
  queued: number;
  calls: number;
  failed: number;
  /** Parts left for a later run by the kind (the call budget). */
  deferred: number;
  /** Parts not started because the run was aborted (shutdown, or the lease lost); their orders stay due. */
  skipped: number;
  ms: number;
}

/** A kind's due scan: what is due, and what orders run together. */
export type OrderParts<Row, Part> = Pick<
  OrderKind<Row & { channel: string }, Part, never, never>,
  'job' | 'partOf' | 'dueRows' | 'dueParts'
>;

/**
 * A kind of standing order as the run drives it. `Row` is its due row, `Part` what orders run together (a query's
 * searches, one digest), `State` what one run of it keeps (a page budget, counts), `Report` what its run reports.
 */
export interface OrderKind<Row extends { channel: string }, Part, State, Report, Loaded = undefined, Share = never> {
  /** The job: its lease's name, and the scheduler's. */
  job: string;
  /** What its log lines call a run (`poller run finished`). */
  label: string;
  /** What orders are run together: one part is one fetch (alerts: the canonical query) or one digest. */
  partOf(row: Row): Part;
  /** A part as a scheduler's key (a pg-boss job's data), and back. */
  partKey(part: Part): string;
  partFrom(key: string): Part;
  /** The orders due at `at` (of a batch's parts when given: one statement), the longest-waiting first. */
  dueRows(at: number, parts?: readonly Part[]): Promise<Row[]>;
  /** The parts due at `at`, the longest-waiting first; by default the distinct parts of `dueRows(at)`. */
  dueParts?(at: number): Promise<Part[]>;
  /** When an order is due; undefined when its schedule cannot be read. */
  scheduleOf(row: Row): { schedule: Schedule; timezone: string } | undefined;
  /** Parts run at once (default 1), or the slots they share (`Slots`: every run of the kind in the process at once). */
  concurrency?: number | Slots;
  /**
   * How parts are batched (default: one part a batch, each committing on its own). A batch is a job: one lease (a
   * shared run's), its due rows read in one statement, `load` once for its parts, and their shares committed in one
   * transaction under the fence (`commit`: how many deliveries it queued, undefined when the fence no longer holds).
   */
  batch?: {
    size: number;
    load(rows: Row[]): Promise<Loaded>;
    commit(shares: Share[], fence: Fence): Promise<number | undefined>;
  };
  /** Whether a whole run with nothing due is logged at info (the poller's is: /metrics' tests and operators read it). */
  logIdle?: boolean;
  /** A fresh state for one run; `at`, when given, the run's time (a shared run's, listed once for all its jobs). */
  begin(at?: number): State;
  /** Runs one part's orders (none of a team over its share) into what the run commits. */
  runPart(part: Part, rows: Row[], ctx: PartContext<Row, State, Loaded>): Promise<PartResult<Share>>;
  /** An order of a team over its share: by default it waits, still due; a kind may record it postponed instead. */
  overShare?(row: Row, ctx: PartContext<Row, State, Loaded>): Promise<PartResult<Share>>;
  /** After the last part, before the run's report is logged: the kind's own warnings (why parts were deferred). */
  finish?(report: OrderRunReport, state: State, log: Logger): void;
  report(run: OrderRunReport, state: State): Report;
}

const holderOf = (o: RunOptions) => o.holder ?? `pid-${process.pid}`;

/** A part's lease: short and fixed in length whatever the part (a query's key is hashed; a digest's id is kept). */
const partLease = (job: string, key: string) =>
  `${job}:${/^[\w-]{1,22}$/.test(key) ? key : createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;

/** The lease of a run: the job's own for a whole run, or a part's own (recording no run) for one part of a shared run. */
function leaseOf(job: string, o: RunOptions, log: Logger, partKey?: string): LeasedRunOptions {
  return {
    leases: o.leases,
    name: partKey === undefined ? job : partLease(job, partKey),
    holder: holderOf(o),
    logger: log,
    ttlMs: o.leaseMs ?? LEASE_MS,
    ...(o.now ? { now: o.now } : {}),
    ...(o.lapsed ? { lapsed: o.lapsed } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(partKey === undefined ? {} : { record: false }),
  };
}

/** A batch as a scheduler's key (a pg-boss job's data): one part's own key, or its parts' keys as JSON. */
const batchKey = <Part>(kind: Pick<OrderKind<never, Part, never, never>, 'partKey'>, batch: readonly Part[]) =>
  batch.length === 1 ? kind.partKey(batch[0]!) : JSON.stringify(batch.map((p) => kind.partKey(p)));

const batchFrom = <Part>(kind: Pick<OrderKind<never, Part, never, never>, 'partFrom'>, key: string): Part[] =>
  key.startsWith('[') ? (JSON.parse(key) as string[]).map((k) => kind.partFrom(k)) : [kind.partFrom(key)];

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The distinct parts due at `at`, the longest-waiting first: grouped in SQL (`dueParts`), never every due row. */
const partsDue = async <Row extends { channel: string }, Part>(kind: OrderParts<Row, Part>, at: number) =>
  kind.dueParts ? kind.dueParts(at) : [...new Set((await kind.dueRows(at)).map((r) => kind.partOf(r)))];

/**
 * Buckets a kind's parts fall into when it runs them in jobs: a part is always in the same bucket (its key's hash), and
 * a job of a shared run is the due parts of one bucket, under the bucket's lease. So however the due parts change from
 * tick to tick, one query is only ever run under one lease name: a job taken over refuses its stale holder's commit,
 * and a job still running keeps a later tick's job of the same bucket waiting, as a query's own lease did (decision
 * 0009). 400 buckets make jobs of about 25 queries at 10,000 distinct queries, and a small run many small jobs.
 */
const BUCKETS = 400;

/** @internal Exported for the tests (knip --production ignores it). */
export const bucketOf = (key: string) => createHash('sha256').update(key).digest().readUInt32BE(0) % BUCKETS;

/** A job's lease key: its bucket's when the kind runs jobs, else its one part's own (a digest's id). */
function jobLeaseKey<Part>(
  kind: Pick<OrderKind<never, Part, never, never>, 'partKey'>,
  inJobs: boolean,
  job: readonly Part[],
) {
  if (!inJobs) return batchKey(kind, job);
  const buckets = new Set(job.map((p) => bucketOf(kind.partKey(p))));
  // A job is listed a bucket at a time; one spanning buckets would run some parts under another bucket's lease.
  if (buckets.size !== 1) throw new Error(`a job's parts span ${buckets.size} buckets: list jobs with listParts`);
  return `b${[...buckets][0]}`;
}

/**
 * A shared run's jobs: the parts due now, the longest-waiting first, a bucket's to a job, each run by
 * `runOrders(kind, o, job)` on whichever instance takes it. Listed under the job's lease, so the run is recorded as
 * one; none when another instance holds it. A kind that runs parts alone gets a job per part.
 */
export async function listParts<Row extends { channel: string }, Part>(
  kind: OrderParts<Row, Part> & Pick<OrderKind<never, Part, never, never>, 'partKey'>,
  o: RunOptions,
  inJobs: boolean,
): Promise<Part[][]> {
  const now = o.now ?? Date.now;
  const listed = await runLeased(leaseOf(kind.job, o, o.logger), () => partsDue(kind, now()));
  if (!listed.ran) return [];
  if (!inJobs) return listed.result.map((p) => [p]);
  // Jobs in the order of their longest-waiting part.
  const jobs = new Map<number, Part[]>();
  for (const p of listed.result) {
    const b = bucketOf(kind.partKey(p));
    const job = jobs.get(b) ?? [];
    job.push(p);
    jobs.set(b, job);
  }
  return [...jobs.values()];
}

const emptyReport = (): OrderRunReport => ({
  ran: false,
  due: 0,
  waiting: 0,
  parts: 0,
  started: 0,
  queued: 0,
  calls: 0,
  failed: 0,
  deferred: 0,
  skipped: 0,
  ms: 0,
});

/** One run of a kind: every order due now, or one batch's (a job of a shared run, under the batch's own lease). */
export async function runOrders<Row extends { channel: string }, Part, State, Report, Loaded, Share>(
  kind: OrderKind<Row, Part, State, Report, Loaded, Share>,
  o: RunOptions,
  batch?: readonly Part[],
  /** When a shared run was listed: every job of it runs as that one run (see begin). */
  listedAt?: number,
): Promise<Report> {
  const now = o.now ?? Date.now;
  const started = now();
  const log = o.logger.child({ part: kind.label, run: started });
  if (o.signal?.aborted) return kind.report(emptyReport(), kind.begin(listedAt));
  const key = batch === undefined ? undefined : jobLeaseKey(kind, kind.batch !== undefined, batch);
  // A run whose lease was taken over stops starting parts, and what it would still commit is refused by the store.
  const leased = await runLeased(leaseOf(kind.job, o, log, key), async (fence, signal) => {
    const state = kind.begin(listedAt);
    const report = await runUnder(kind, { ...o, signal }, fence, log, state, batch);
    return { report, state, ok: report.failed === 0 };
  });
  if (!leased.ran) {
    if (key === undefined) log.info(`another instance is running the ${kind.label}; skipping this tick`);
    else log.debug('another instance is running this batch; left to it', { job: kind.job });
    return kind.report(emptyReport(), kind.begin(listedAt));
  }
  const { report, state } = leased.result;
  report.ms = now() - started;
  if (report.queued > 0) o.onQueued?.();
  o.onRun?.(report);
  const out = kind.report(report, state);
  // A shared run's batches are many: each is logged below info unless it found something or failed.
  const worth = key === undefined ? report.due > 0 || kind.logIdle === true : report.queued > 0 || report.failed > 0;
  // The batch is logged as `only` (a field named `key` is masked as a secret).
  const fields = { ...out, ...(key === undefined ? {} : { only: key }) };
  if (worth) log.info(`${kind.label} run finished`, fields);
  else log.debug(`${kind.label} run finished`, fields);
  return out;
}

/** Upstream slots: at most `size` parts running at once, taken in the order asked (the longest-waiting first). */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {
    this.free = size;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** Batches under way at once in a whole run: one fetching while the one before commits, so no slot waits on a commit. */
const BATCHES_AT_ONCE = 2;

async function runUnder<Row extends { channel: string }, Part, State, Report, Loaded, Share>(
  kind: OrderKind<Row, Part, State, Report, Loaded, Share>,
  o: RunOptions & { signal: AbortSignal },
  fence: Fence,
  log: Logger,
  state: State,
  only: readonly Part[] | undefined,
): Promise<OrderRunReport> {
  const now = o.now ?? Date.now;
  const report: OrderRunReport = { ...emptyReport(), ran: true };
  // Only the distinct parts are listed (one entry a query, not a search); each batch reads its own due rows.
  const batches = only ? [only] : chunk(await partsDue(kind, now()), kind.batch?.size ?? 1);
  const slots = kind.concurrency instanceof Slots ? kind.concurrency : new Slots(Math.max(1, kind.concurrency ?? 1));
  // A team that has used its share of the month waits for the next (or for the operator to raise it): asked once a
  // team and run (one entry a team).
  const allowed = new Map<string, Promise<boolean>>();
  const allows = (team: string) =>
    allowed.get(team) ?? allowed.set(team, o.teamAllows ? o.teamAllows(team) : Promise.resolve(true)).get(team)!;
  const waitingTeams = new Set<string>();
  const ctxOf = (loaded: Loaded): PartContext<Row, State, Loaded> => {
    const at = now();
    return {
      at,
      loaded,
      now,
      signal: o.signal,
      log,
      state,
      slot: (row) => {
        const s = kind.scheduleOf(row);
        return s && slotOf(s.schedule, s.timezone, at);
      },
    };
  };
  const lost = (key: string, orders: number) =>
    log.warn(`the ${kind.job} lease was taken over during this run: not recorded here (the other instance runs it)`, {
      only: key,
      orders,
    });
  const commit = async (result: PartResult<Share>, key: string, orders: number, shares: Share[]) => {
    if (!result.ran) return;
    report.calls += result.calls;
    if (result.failed) report.failed++;
    if (result.share !== undefined) shares.push(result.share);
    const queued = await result.commit?.(fence);
    if (queued !== undefined) report.queued += queued;
    else if (result.commit) lost(key, orders);
  };

  const runBatch = async (batch: readonly Part[]) => {
    if (o.signal.aborted) {
      report.skipped += batch.length;
      return;
    }
    const due = await kind.dueRows(now(), batch);
    report.due += due.length;
    const ok = new Map<string, boolean>();
    for (const team of new Set(due.map((r) => teamOf(r.channel)))) ok.set(team, await allows(team));
    // Parts in the order of their longest wait (the due scan's order).
    const parts = new Map<Part, { run: Row[]; wait: Row[] }>();
    for (const row of due) {
      const p = kind.partOf(row);
      const entry = parts.get(p) ?? { run: [], wait: [] };
      const team = teamOf(row.channel);
      if (ok.get(team)) entry.run.push(row);
      else {
        entry.wait.push(row);
        waitingTeams.add(team);
        report.waiting++;
      }
      parts.set(p, entry);
    }
    const work = [...parts].filter(([, e]) => e.run.length > 0 || (kind.overShare && e.wait.length > 0));
    report.parts += work.filter(([, e]) => e.run.length > 0).length;
    if (work.length === 0) return;
    const loaded = (kind.batch ? await kind.batch.load(work.flatMap(([, e]) => e.run)) : undefined) as Loaded;
    const shares: Share[] = [];
    let orders = 0;
    await Promise.all(
      work.map(async ([p, e]) => {
        const key = kind.partKey(p);
        for (const row of kind.overShare ? e.wait : [])
          await commit(await kind.overShare!(row, ctxOf(loaded)), key, 1, shares);
        if (e.run.length === 0) return;
        // Its calls are the teams' whose orders it serves (each charged one: its share pays for what it alone would
        // cost). Started in the batch's order as slots come free; none once the run is aborted.
        const teams = [...new Set(e.run.map((r) => teamOf(r.channel)))];
        const result = await slots.run(async (): Promise<PartResult<Share>> =>
          o.signal.aborted
            ? { ran: false, why: 'skipped' }
            : payingFor({ teams, purpose: 'background' }, () => kind.runPart(p, e.run, ctxOf(loaded))),
        );
        if (!result.ran) {
          if (result.why === 'deferred') report.deferred++;
          else report.skipped++;
          return;
        }
        report.started++;
        orders += e.run.length;
        await commit(result, key, e.run.length, shares);
      }),
    );
    // The batch's parts that ran, in one transaction under the fence.
    if (kind.batch && shares.length > 0) {
      const queued = await kind.batch.commit(shares, fence);
      if (queued !== undefined) report.queued += queued;
      else lost(batchKey(kind, batch), orders);
    }
  };
  // Unbatched kinds run their parts (batches of one) as many at once as their slots, in the due order.
  await eachLimited(batches, kind.batch ? BATCHES_AT_ONCE : slots.size, runBatch);
  if (waitingTeams.size)
    log.info('standing orders of teams over their share of the month wait', {
      job: kind.job,
      teams: [...waitingTeams],
      orders: report.waiting,
    });
  kind.finish?.(report, state, log);
  if (report.skipped > 0)
    log.info('run stopped early (shutdown, or the lease lost); the parts not started stay due', {
      job: kind.job,
      skipped: report.skipped,
      ran: report.started,
    });
  return report;
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  // Every worker is waited for, even when one throws: none is left running behind the caller's back.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A kind's job as a scheduler runs it: whole here (node-cron, SQLite), or in parts any instance takes (pg-boss). */
export interface OrderJob<Report> extends Job {
  run(): Promise<Report>;
}

/** Registers a kind: its job on `cron`, each run with fresh options (its own log id); shared, a job a batch. */
export function orderJob<Row extends { channel: string }, Part, State, Report, Loaded, Share>(
  kind: OrderKind<Row, Part, State, Report, Loaded, Share>,
  cron: string,
  options: () => RunOptions,
): OrderJob<Report> {
  return {
    name: kind.job,
    cron,
    run: () => runOrders(kind, options()),
    parts: {
      list: async () => (await listParts(kind, options(), kind.batch !== undefined)).map((b) => batchKey(kind, b)),
      run: (key, listedAt) => runOrders(kind, options(), batchFrom(kind, key), listedAt),
      ...(kind.batch ? { perJob: 1 } : {}),
    },
  };
}

/** A batch's scheduler key back as its parts (`listParts`' batches are keyed so). */
export const partsOfKey = batchFrom;

/** A batch's parts as the scheduler's key. */
export const keyOfParts = batchKey;
