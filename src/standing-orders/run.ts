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

/** What a part did. `commit` is run by the run under the lease's fence; without it the part records nothing. */
export type PartResult =
  | {
      ran: true;
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

/** What a kind is handed to run a part: the time it started, the run's stop, its log, the kind's per-run state. */
export interface PartContext<Row, State> {
  at: number;
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
export interface OrderKind<Row extends { channel: string }, Part, State, Report> {
  /** The job: its lease's name, and the scheduler's. */
  job: string;
  /** What its log lines call a run (`poller run finished`). */
  label: string;
  /** What orders are run together: one part is one fetch (alerts: the canonical query) or one digest. */
  partOf(row: Row): Part;
  /** A part as a scheduler's key (a pg-boss job's data), and back. */
  partKey(part: Part): string;
  partFrom(key: string): Part;
  /** The orders due at `at` (of one part when given), the longest-waiting first. */
  dueRows(at: number, part?: Part): Promise<Row[]>;
  /** The parts due at `at`, the longest-waiting first; by default the distinct parts of `dueRows(at)`. */
  dueParts?(at: number): Promise<Part[]>;
  /** When an order is due; undefined when its schedule cannot be read. */
  scheduleOf(row: Row): { schedule: Schedule; timezone: string } | undefined;
  /** Parts run at once (default 1). */
  concurrency?: number;
  /** Whether a whole run with nothing due is logged at info (the poller's is: /metrics' tests and operators read it). */
  logIdle?: boolean;
  /** A fresh state for one run. */
  begin(): State;
  /** Runs one part's orders (none of a team over its share) into what the run commits. */
  runPart(part: Part, rows: Row[], ctx: PartContext<Row, State>): Promise<PartResult>;
  /** An order of a team over its share: by default it waits, still due; a kind may record it postponed instead. */
  overShare?(row: Row, ctx: PartContext<Row, State>): Promise<PartResult>;
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

/**
 * A shared run's parts: the parts due now, the longest-waiting first, each run by `runOrders(kind, o, part)` on
 * whichever instance takes it. Listed under the job's lease, so the run is recorded as one; none when another instance
 * holds it.
 */
export async function listParts<Row extends { channel: string }, Part>(
  kind: OrderParts<Row, Part>,
  o: RunOptions,
): Promise<Part[]> {
  const now = o.now ?? Date.now;
  const listed = await runLeased(leaseOf(kind.job, o, o.logger), async () =>
    kind.dueParts ? kind.dueParts(now()) : [...new Set((await kind.dueRows(now())).map((r) => kind.partOf(r)))],
  );
  return listed.ran ? listed.result : [];
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

/** One run of a kind: every order due now, or one part's (a part of a shared run). */
export async function runOrders<Row extends { channel: string }, Part, State, Report>(
  kind: OrderKind<Row, Part, State, Report>,
  o: RunOptions,
  part?: Part,
): Promise<Report> {
  const now = o.now ?? Date.now;
  const started = now();
  const log = o.logger.child({ part: kind.label, run: started });
  if (o.signal?.aborted) return kind.report(emptyReport(), kind.begin());
  const key = part === undefined ? undefined : kind.partKey(part);
  // A run whose lease was taken over stops starting parts, and what it would still commit is refused by the store.
  const leased = await runLeased(leaseOf(kind.job, o, log, key), async (fence, signal) => {
    const state = kind.begin();
    const report = await runUnder(kind, { ...o, signal }, fence, log, state, part);
    return { report, state, ok: report.failed === 0 };
  });
  if (!leased.ran) {
    if (key === undefined) log.info(`another instance is running the ${kind.label}; skipping this tick`);
    else log.debug('another instance is running this part; left to it', { job: kind.job });
    return kind.report(emptyReport(), kind.begin());
  }
  const { report, state } = leased.result;
  report.ms = now() - started;
  if (report.queued > 0) o.onQueued?.();
  o.onRun?.(report);
  const out = kind.report(report, state);
  // A shared run's parts are many: each is logged below info unless it found something or failed.
  const worth = key === undefined ? report.due > 0 || kind.logIdle === true : report.queued > 0 || report.failed > 0;
  // The part is logged as `only` (a field named `key` is masked as a secret).
  const fields = { ...out, ...(key === undefined ? {} : { only: key }) };
  if (worth) log.info(`${kind.label} run finished`, fields);
  else log.debug(`${kind.label} run finished`, fields);
  return out;
}

async function runUnder<Row extends { channel: string }, Part, State, Report>(
  kind: OrderKind<Row, Part, State, Report>,
  o: RunOptions & { signal: AbortSignal },
  fence: Fence,
  log: Logger,
  state: State,
  only: Part | undefined,
): Promise<OrderRunReport> {
  const now = o.now ?? Date.now;
  const report: OrderRunReport = { ...emptyReport(), ran: true };
  const due = await kind.dueRows(now(), only);
  report.due = due.length;
  // A team that has used its share of the month waits for the next (or for the operator to raise it): asked once a
  // team.
  const allowed = new Map<string, boolean>();
  for (const team of new Set(due.map((r) => teamOf(r.channel))))
    allowed.set(team, (await o.teamAllows?.(team)) ?? true);
  const waitingTeams = [...allowed].filter(([, ok]) => !ok).map(([team]) => team);
  // Parts in the order of their longest wait (the due scan's order).
  const parts = new Map<Part, { run: Row[]; wait: Row[] }>();
  for (const row of due) {
    const p = kind.partOf(row);
    const entry = parts.get(p) ?? { run: [], wait: [] };
    (allowed.get(teamOf(row.channel)) ? entry.run : entry.wait).push(row);
    parts.set(p, entry);
  }
  report.waiting = due.length - [...parts.values()].reduce((n, e) => n + e.run.length, 0);
  if (waitingTeams.length)
    log.info('standing orders of teams over their share of the month wait', {
      job: kind.job,
      teams: waitingTeams,
      orders: report.waiting,
    });
  const ctxOf = (): PartContext<Row, State> => {
    const at = now();
    return {
      at,
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
  const commit = async (result: PartResult, key: string, orders: number) => {
    if (!result.ran) return;
    report.calls += result.calls;
    if (result.failed) report.failed++;
    const queued = await result.commit?.(fence);
    if (queued !== undefined) report.queued += queued;
    else if (result.commit)
      log.warn(`the ${kind.job} lease was taken over during this run: not recorded here (the other instance runs it)`, {
        only: key,
        orders,
      });
  };
  const work = [...parts].filter(([, e]) => e.run.length > 0 || (kind.overShare && e.wait.length > 0));
  report.parts = work.filter(([, e]) => e.run.length > 0).length;
  await eachLimited(work, kind.concurrency ?? 1, async ([p, e]) => {
    const key = kind.partKey(p);
    if (o.signal.aborted) {
      if (e.run.length > 0) report.skipped++;
      return;
    }
    for (const row of kind.overShare ? e.wait : []) await commit(await kind.overShare!(row, ctxOf()), key, 1);
    if (e.run.length === 0) return;
    // Its calls are the teams' whose orders it serves (each charged one: its share pays for what it alone would cost).
    const teams = [...new Set(e.run.map((r) => teamOf(r.channel)))];
    const result = await payingFor({ teams, purpose: 'background' }, () => kind.runPart(p, e.run, ctxOf()));
    if (!result.ran) {
      if (result.why === 'deferred') report.deferred++;
      else report.skipped++;
      return;
    }
    report.started++;
    await commit(result, key, e.run.length);
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

/** Registers a kind: its job on `cron`, each run with fresh options (its own log id). */
export function orderJob<Row extends { channel: string }, Part, State, Report>(
  kind: OrderKind<Row, Part, State, Report>,
  cron: string,
  options: () => RunOptions,
): OrderJob<Report> {
  return {
    name: kind.job,
    cron,
    run: () => runOrders(kind, options()),
    parts: {
      list: async () => (await listParts(kind, options())).map((p) => kind.partKey(p)),
      run: (key) => runOrders(kind, options(), kind.partFrom(key)),
    },
  };
}
