// One poller run, in the order Fredy writes down: due searches -> coalesce identical queries -> fetch (newest first,
// more pages only while everything is new) -> compare with what each search has seen -> record seen rows and queue
// deliveries in one transaction. Delivery is the outbox drainer's job; nothing here talks to chat.
import { createHash } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { payingFor } from '../api/payer.js';
import type { Logger } from '../log.js';
import { runLeased } from '../jobs/index.js';
import { dueParts, runLease } from '../standing-orders/due.js';
import { teamOf } from '../ports/index.js';
import type { AlertsRepo, Fence, LeaseRepo, AlertRow } from '../store/index.js';
import { planGroup, postedQueryOf } from './channel.js';
import type { Listing } from './compare.js';
import type { AlertsApi, PollerOptions } from './contracts.js';
import { fetchListings } from './fetch.js';
import { PageBudget } from './page-budget.js';
import { notice } from './plan.js';
import { fromParamsKey } from './saved-query.js';

export interface PollerDeps {
  api: AlertsApi;
  repo: AlertsRepo;
  /** The job leases: one run at a time across instances. */
  leases: LeaseRepo;
  /** The property service's base URL: only its saved searches are run. */
  service: string;
  logger: Logger;
  options: PollerOptions;
  /** This instance's name on the run's lease. */
  holder?: string;
  /** Only searches saved in these platforms' channels are run (those whose messages can be delivered); all when unset. */
  platforms?: readonly string[];
  now?: () => number;
  /**
   * Shutdown: once aborted, no further query (or page) starts; the queries under way finish and are recorded, each
   * in its own transaction, and the searches not reached stay due for the next run.
   */
  signal?: AbortSignal;
  /** How long the run lease lasts unrenewed (default 2 minutes; it is renewed every quarter of it). */
  leaseMs?: number;
  /** Whether a team (`slack:T123`) may still spend calls this month: its searches wait when not; all run when unset. */
  teamAllows?: (team: string) => Promise<boolean>;
  /**
   * One canonical query (its params key) instead of every due search: a part of a run that instances share (a pg-boss
   * job each, on Postgres), under a lease of its own.
   */
  query?: string;
  /** Instances gone (their heartbeat lapsed): a query lease one of them holds is taken over at once. */
  lapsed?: () => Promise<string[]>;
}

export interface RunReport {
  ran: boolean;
  searches: number;
  queries: number;
  calls: number;
  newListings: number;
  priceDrops: number;
  queued: number;
  failedQueries: number;
  /** Queries left for a later run because the call budget could not cover them. */
  deferred: number;
  /** Queries not started because the run was aborted (shutdown); their searches stay due. */
  skipped: number;
  ms: number;
}

export const POLL_JOB = 'alerts-poll';
const LEASE_MS = 2 * 60_000;
const DAY = 86_400_000;

/** The lease of one query's part of a shared run: short and fixed in length whatever the query. */
const queryLease = (query: string) =>
  `${POLL_JOB}:${createHash('sha256').update(query).digest('base64url').slice(0, 22)}`;

/**
 * A shared run's parts: the canonical queries due now, the longest-waiting first, each run by `pollOnce({ query })` on
 * whichever instance takes it. Listed under the poller's lease, so the run is recorded as one (`/healthz` reads it).
 */
export async function dueQueries(deps: Omit<PollerDeps, 'api' | 'options'>): Promise<string[]> {
  const now = deps.now ?? Date.now;
  return dueParts(
    {
      leases: deps.leases,
      job: POLL_JOB,
      holder: deps.holder ?? `pid-${process.pid}`,
      logger: deps.logger,
      ttlMs: deps.leaseMs ?? LEASE_MS,
      now,
    },
    // Only searches whose messages can be delivered here (their platform is configured).
    () => deps.repo.dueParts(deps.service, now(), { platforms: deps.platforms }),
  );
}

export async function pollOnce(deps: PollerDeps): Promise<RunReport> {
  const now = deps.now ?? Date.now;
  const started = now();
  const holder = deps.holder ?? `pid-${process.pid}`;
  const log = deps.logger.child({ part: 'poller', run: started });
  const empty: RunReport = {
    ran: false,
    searches: 0,
    queries: 0,
    calls: 0,
    newListings: 0,
    priceDrops: 0,
    queued: 0,
    failedQueries: 0,
    deferred: 0,
    skipped: 0,
    ms: 0,
  };
  if (deps.signal?.aborted) return empty;
  // Another instance sharing this database may be running: one run at a time across all of them, under a fenced lease
  // (short and renewed while the run lasts, so a crashed instance holds it back for two minutes at most). A run whose
  // lease was taken over stops starting queries, and what it would still record is refused by the store.
  // A query's lease records no run of its own: the shared run is recorded as it is listed (dueQueries).
  const lease = runLease(
    {
      leases: deps.leases,
      job: POLL_JOB,
      holder,
      logger: log,
      ttlMs: deps.leaseMs ?? LEASE_MS,
      now,
      ...(deps.lapsed ? { lapsed: deps.lapsed } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
    deps.query === undefined ? undefined : queryLease(deps.query),
  );
  const leased = await runLeased(lease, async (fence, signal) => {
    const report = await pollUnder({ ...deps, signal, holder }, fence, log);
    return { ...report, ok: report.failedQueries === 0 };
  });
  if (!leased.ran) {
    if (deps.query === undefined) log.info('another instance is running the poller; skipping this tick');
    else log.debug('another instance is running this query; left to it');
    return empty;
  }
  const { ok: _ok, ...report } = leased.result;
  report.ms = now() - started;
  // A shared run's parts are many (one per query): each is logged below info unless it found something.
  if (deps.query === undefined || report.queued > 0 || report.failedQueries > 0)
    log.info('poller run finished', { ...report });
  else log.debug('query run finished', { ...report });
  return report;
}

async function pollUnder(deps: PollerDeps & { signal: AbortSignal }, fence: Fence, log: Logger): Promise<RunReport> {
  const now = deps.now ?? Date.now;
  const started = now();
  const signal = deps.signal;
  const report: RunReport = {
    ran: true,
    searches: 0,
    queries: 0,
    calls: 0,
    newListings: 0,
    priceDrops: 0,
    queued: 0,
    failedQueries: 0,
    deferred: 0,
    skipped: 0,
    ms: 0,
  };
  const due = await deps.repo.due(deps.service, started, deps.query, { platforms: deps.platforms });
  // A team that has used its share of the month waits for the next (or for the operator to raise it): asked once a
  // team.
  const allowed = new Map<string, boolean>();
  for (const team of new Set(due.map((s) => teamOf(s.channel))))
    allowed.set(team, (await deps.teamAllows?.(team)) ?? true);
  const allowedDue = due.filter((s) => allowed.get(teamOf(s.channel)));
  const waiting = [...allowed].filter(([, ok]) => !ok).map(([team]) => team);
  if (waiting.length)
    log.info('searches of teams over their share of the month wait', {
      teams: waiting,
      searches: due.length - allowedDue.length,
    });
  report.searches = allowedDue.length;
  const groups = groupByQuery(allowedDue);
  // The budget counts calls, and a query costs one call per page it reads (up to maxPages). Before each query starts,
  // the calls left, less the pages reserved by the queries under way, decide how many pages it may read (at least
  // one, or it waits for a later run). Groups start in order: the longest-waiting first.
  const budget = new PageBudget(deps.api, deps.options.maxPages);
  let ran = 0;
  let exhausted = false;
  await eachLimited(groups, deps.options.concurrency ?? 4, async (group) => {
    if (signal.aborted) {
      report.skipped++;
      return;
    }
    // Once one query has to wait, every later one waits too, even if pages reserved come back unused: oldest first.
    const pages = exhausted ? 0 : await budget.reserve();
    if (pages === 0) {
      exhausted = true;
      report.deferred++;
      return;
    }
    if (signal.aborted) {
      budget.release(pages, 0);
      report.skipped++;
      return;
    }
    ran++;
    report.queries++;
    let r: QueryResult | undefined;
    try {
      r = await runQuery(deps, group, log, pages, fence);
    } finally {
      budget.release(pages, r?.calls ?? pages);
    }
    report.calls += r.calls;
    report.newListings += r.newListings;
    report.priceDrops += r.priceDrops;
    report.queued += r.queued;
    if (r.failed) report.failedQueries++;
  });
  if (report.deferred > 0) {
    log.warn(
      'call budget cannot cover every due query; the longest-waiting went first, the rest wait for a later run',
      {
        due: groups.length,
        ran,
        deferred: report.deferred,
        maxPages: deps.options.maxPages,
        budgetLeft: deps.api.budgetLeft?.(),
      },
    );
  }
  if (report.skipped > 0)
    log.info('run stopped early (shutdown, or the lease lost); the queries not started stay due', {
      skipped: report.skipped,
      ran,
    });
  return report;
}

/** Due searches grouped by their canonical query, groups ordered by their longest wait (due() sorts that way). */
function groupByQuery(due: AlertRow[]): AlertRow[][] {
  const groups = new Map<string, AlertRow[]>();
  for (const s of due) groups.set(s.paramsKey, [...(groups.get(s.paramsKey) ?? []), s]);
  return [...groups.values()];
}

interface QueryResult {
  calls: number;
  newListings: number;
  priceDrops: number;
  queued: number;
  failed: boolean;
}

async function runQuery(
  deps: PollerDeps,
  group: AlertRow[],
  log: Logger,
  maxPages: number,
  fence: Fence,
): Promise<QueryResult> {
  const now = deps.now ?? Date.now;
  const { operation, params } = fromParamsKey(group[0]!.paramsKey);
  const result: QueryResult = { calls: 0, newListings: 0, priceDrops: 0, queued: 0, failed: false };
  const seenRows = await deps.repo.seenBy(group.map((s) => s.id));
  const seenBy = new Map(group.map((s) => [s.id, new Set(seenRows.get(s.id)!.map((r) => r.propertyId))]));
  const primed = group.filter((s) => s.primedAt !== null);
  let listings: Listing[];
  try {
    // Another page only while every listing on it is new to some primed search (or none is primed yet).
    const allNew = (records: Listing[]) =>
      primed.length === 0 || primed.some((s) => records.every((r) => !seenBy.get(s.id)!.has(r.property_id)));
    // Its calls are the teams' whose searches it serves (each charged one: its share pays for what it alone would
    // cost).
    const teams = [...new Set(group.map((s) => teamOf(s.channel)))];
    const fetched = await payingFor({ teams, purpose: 'background' }, () =>
      fetchListings(deps.api, operation, params, { ...deps.options, maxPages }, allNew, deps.signal),
    );
    if (fetched.pagesCut && maxPages < deps.options.maxPages)
      log.info('query read fewer pages than allowed: call budget', { operation, maxPages });
    listings = fetched.listings;
    result.calls += fetched.calls;
  } catch (e) {
    const at = now();
    if (e instanceof ApiError && (e.kind === 'budget' || e.kind === 'share')) {
      log.warn('query deferred: call budget', { operation, searches: group.length, error: e.message });
      return result;
    }
    result.failed = true;
    const message = e instanceof ApiError ? describeFailure(e) : 'an unexpected error';
    log.warn('query failed; nothing marked seen', { operation, searches: group.map((s) => s.id), error: e });
    for (const s of group) {
      const row = await deps.repo.recordFailure(s.id, message, at, fence);
      if (
        row &&
        !row.errorReported &&
        row.errorSince !== null &&
        at - row.errorSince >= (deps.options.failingAfterMs ?? DAY)
      ) {
        await deps.repo.reportFailing(
          s.id,
          notice(s, 'failing', `${s.id}:failing:${row.errorSince}`, { error: message, since: row.errorSince }),
          fence,
        );
      }
    }
    return result;
  }

  // Decided in the transaction that records it, against what the channels' alerts have posted by then: runs of other
  // queries in the same channels (on this instance or another) commit one at a time, so none posts a listing twice.
  let planned: ReturnType<typeof planGroup> | undefined;
  const queued = await deps.repo.commitPlanned(
    {
      service: deps.service,
      channels: [...new Set(group.map((s) => s.channel))],
      ...postedQueryOf(listings),
      outcomes: (posted) => {
        planned = planGroup(
          group,
          seenRows,
          listings,
          posted,
          { priceDropPct: deps.options.priceDropPct, cardsPerRun: deps.options.cardsPerRun ?? 5 },
          now(),
        );
        return planned.outcomes;
      },
    },
    listings.map((l) => l.property_id),
    fence,
  );
  if (queued === undefined) {
    log.warn(
      'the poller lease was taken over during this query: its results are not recorded (the other instance runs it)',
      { searches: group.length },
    );
    return result;
  }
  result.queued += queued;
  result.newListings += planned?.fresh ?? 0;
  result.priceDrops += planned?.drops ?? 0;
  return result;
}

function describeFailure(e: ApiError): string {
  if (e.kind === 'http' && (e.status === 401 || e.status === 403))
    return 'the property service refused our key or plan';
  if (e.kind === 'http' && e.status === 429) return 'the property service is rate-limiting us';
  // The search itself is refused (a value the service cannot take), by the service or by the client before sending:
  // trying again will not help, and the service is answering, so "not answering" would send people the wrong way.
  if ((e.kind === 'http' && e.status === 400) || e.kind === 'invalid-params')
    return 'the property service refused this search as invalid; save it again with other filters';
  if (e.kind === 'malformed') return 'the property service sent an answer I could not read';
  return 'the property service is not answering';
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
