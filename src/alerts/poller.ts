// One poller run, in the order Fredy writes down: due searches -> coalesce identical queries -> fetch (newest first,
// more pages only while everything is new) -> compare with what each search has seen -> record seen rows and queue
// deliveries in one transaction. Delivery is the outbox drainer's job; nothing here talks to chat.
// The alert kind of standing order: a part is one canonical query, run in the order Fredy writes down: due searches
// -> coalesce identical queries -> fetch (newest first, more pages only while everything is new) -> compare with what
// each search has seen -> record seen rows and queue deliveries in one transaction (committed by the one run,
// src/standing-orders/run.ts, under its lease's fence). Delivery is the outbox drainer's job; nothing here talks to
// chat.
import { ApiError } from '../api/errors.js';
import type { Logger } from '../log.js';
import {
  keyOfParts,
  listParts,
  partsOfKey,
  runOrders,
  Slots,
  type OrderKind,
  type OrderParts,
  type OrderRunReport,
  type PartResult,
} from '../standing-orders/run.js';
import { EVERY_RUN, slotOf } from '../standing-orders/schedule.js';
import type { AlertsRepo, LeaseRepo, AlertRow, RunPlan, SeenRow } from '../store/index.js';
import { planGroup, postedQueryOf, type OwnRows, type Shape } from './channel.js';
import { frequencyFrom, isSummary, quietUntil } from './frequency.js';
import { HELD_KINDS, periodSummary } from './summary.js';
import type { Listing } from './compare.js';
import type { AlertsApi, PollerOptions } from './contracts.js';
import { fetchListings } from './fetch.js';
import { PageBudget } from './page-budget.js';
import { notice } from './plan.js';
import { fromParamsKey } from './saved-query.js';
import { dropsLines } from './threads.js';

/** What the alert kind runs with: the service and its searches, the poller's settings. */
export interface AlertKindDeps {
  api: AlertsApi;
  repo: AlertsRepo;
  /** The property service's base URL: only its saved searches are run. */
  service: string;
  options: PollerOptions;
  /** Only searches saved in these platforms' channels are run (those whose messages can be delivered); all when unset. */
  platforms?: readonly string[];
  now?: () => number;
}

export interface PollerDeps extends AlertKindDeps {
  /** The job leases: one run at a time across instances. */
  leases: LeaseRepo;
  logger: Logger;
  /** This instance's name on the run's lease. */
  holder?: string;
  /**
   * Shutdown: once aborted, no further query (or page) starts; the queries under way finish and are recorded, each
   * in its own transaction, and the searches not reached stay due for the next run.
   */
  signal?: AbortSignal;
  /** How long the run lease lasts unrenewed (default 2 minutes; it is renewed every quarter of it). */
  leaseMs?: number;
  /** Whether a team (`slack:T123`) may still spend calls this month: its searches wait when not; all run when unset. */
  teamAllows?: (team: string) => Promise<boolean>;
  /** One canonical query (its params key) instead of every due search, under a lease of its own (a batch of one). */
  query?: string;
  /**
   * A batch of a run that instances share (a key `dueQueries` listed: a pg-boss job each, on Postgres), under the
   * batch's own lease, instead of every due search.
   */
  batch?: string;
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
const DAY = 86_400_000;

/**
 * Canonical queries a job holds: one lease and fence, one due read, one seen read and one commit transaction for all of
 * them. Measured on the alerts bench (SQLite): 25 takes the per-commit BEGIN/COMMIT cost to a 25th while a batch's rows
 * stay small; more gave no measurable gain.
 */
export const ALERT_BATCH = 25;

/** Upstream slots per API client (one a process): every run and batch of the alert kind shares them. */
const slotsOf = new WeakMap<AlertsApi, Slots>();
const slotsFor = (api: AlertsApi, size: number) => slotsOf.get(api) ?? slotsOf.set(api, new Slots(size)).get(api)!;

/**
 * The longest page of listings each API client has been answered (the service's page size, which it does not say): a
 * first page shorter than it is a whole result, so a listing it leaves out may be gone (issue 40).
 */
const fullPages = new WeakMap<AlertsApi, number>();

/** Stories kept after a listing was last seen, by default. */
export const HISTORY_DAYS = 400;

/** A query's share of its batch's one commit: its plan, and what it found once committed. */
interface QueryShare {
  plan: RunPlan;
  committed(): void;
  /** When its run began: the run's one line of threaded drops per channel is keyed by it (./threads.ts). */
  runAt: number;
}

/** What a batch reads once for its queries: what each of their searches has seen (one statement). */
type BatchSeen = Map<number, SeenRow[]>;

/** What one poller run keeps: its page budget, and what its queries found (counted as each commits). */
interface PollState {
  budget: PageBudget;
  /** Once one query has to wait, every later one waits too, even if pages reserved come back unused: oldest first. */
  exhausted: boolean;
  newListings: number;
  priceDrops: number;
  /** When the run began (a shared run: when it was listed, the same for all its jobs). */
  startedAt: number;
}

type DueScan = Pick<AlertKindDeps, 'repo' | 'service' | 'platforms'>;

/**
 * The alerts' due scan: due searches whose messages can be delivered here (their platform is configured), a part per
 * canonical query, grouped in SQL (the longest-waiting first).
 */
const alertParts = (deps: DueScan): OrderParts<AlertRow, string> => ({
  job: POLL_JOB,
  partOf: (s) => s.paramsKey,
  dueRows: (at, queries) => deps.repo.due(deps.service, at, queries, { platforms: deps.platforms }),
  dueParts: (at) => deps.repo.dueParts(deps.service, at, { platforms: deps.platforms }),
});

/** Alerts as a kind of standing order: a part is a canonical query (its params key), run for every search asking it. */
export function alertOrders(
  deps: AlertKindDeps,
): OrderKind<AlertRow, string, PollState, RunReport, BatchSeen, QueryShare> {
  return {
    ...alertParts(deps),
    label: 'poller',
    partKey: (query) => query,
    partFrom: (key) => key,
    // Every alert is due at every run of the alerts job (ALERTS_CRON).
    scheduleOf: () => ({ schedule: EVERY_RUN, timezone: 'UTC' }),
    // Total upstream concurrency per process stays the option's, however many batches are under way.
    concurrency: slotsFor(deps.api, deps.options.concurrency ?? 4),
    batch: {
      size: ALERT_BATCH,
      load: (rows) => deps.repo.seenBy(rows.map((s) => s.id)),
      commit: async (shares, fence) => {
        const days = deps.options.historyDays ?? HISTORY_DAYS;
        const now = (deps.now ?? Date.now)();
        const queued = await deps.repo.commitMany(shares, fence, {
          pruneHistoryBefore: now - days * DAY,
          after: (decided) => dropsLines(decided, shares[0]!.runAt),
        });
        if (queued === undefined) return undefined;
        for (const s of shares) s.committed();
        return queued.reduce((a, b) => a + b, 0);
      },
    },
    logIdle: true,
    begin: (at) => ({
      budget: new PageBudget(deps.api, deps.options.maxPages),
      exhausted: false,
      newListings: 0,
      priceDrops: 0,
      startedAt: at ?? (deps.now ?? Date.now)(),
    }),
    // The budget counts calls, and a query costs one call per page it reads (up to maxPages). Before each query
    // starts, the calls left, less the pages reserved by the queries under way, decide how many pages it may read (at
    // least one, or it waits for a later run). Queries start in order: the longest-waiting first.
    runPart: async (_query, group, ctx): Promise<PartResult<QueryShare>> => {
      const { budget } = ctx.state;
      const pages = ctx.state.exhausted ? 0 : await budget.reserve();
      if (pages === 0) {
        ctx.state.exhausted = true;
        return { ran: false, why: 'deferred' };
      }
      if (ctx.signal.aborted) {
        budget.release(pages, 0);
        return { ran: false, why: 'skipped' };
      }
      let r: QueryResult | undefined;
      try {
        r = await runQuery({ ...deps, signal: ctx.signal }, group, ctx.loaded, ctx.log, pages, ctx.state);
      } finally {
        budget.release(pages, r?.calls ?? pages);
      }
      return r;
    },
    finish: (report, _state, log) => {
      if (report.deferred > 0)
        log.warn(
          'call budget cannot cover every due query; the longest-waiting went first, the rest wait for a later run',
          {
            due: report.parts,
            ran: report.started,
            deferred: report.deferred,
            maxPages: deps.options.maxPages,
            budgetLeft: deps.api.budgetLeft?.(),
          },
        );
    },
    report: (r: OrderRunReport, state): RunReport => ({
      ran: r.ran,
      searches: r.due - r.waiting,
      queries: r.started,
      calls: r.calls,
      newListings: state.newListings,
      priceDrops: state.priceDrops,
      queued: r.queued,
      failedQueries: r.failed,
      deferred: r.deferred,
      skipped: r.skipped,
      ms: r.ms,
    }),
  };
}

/**
 * A shared run's batches: the canonical queries due now, the longest-waiting first, a bucket's to a batch, each (its
 * key) run by `pollOnce({ batch })` on whichever instance takes it. Listed under the poller's lease, so the run is
 * recorded as one (`/healthz` reads it).
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const dueQueries = async (deps: Omit<PollerDeps, 'api' | 'options'>): Promise<string[]> =>
  (await listParts({ ...alertParts(deps), ...PARTS }, deps, true)).map((b) => keyOfParts(PARTS, b));

const PARTS = { partKey: (q: string) => q, partFrom: (k: string) => k };

/** One poller run: every due search, or one batch's (`deps.batch`), or one query's (`deps.query`).
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const pollOnce = (deps: PollerDeps): Promise<RunReport> =>
  runOrders(
    alertOrders(deps),
    deps,
    deps.batch !== undefined ? partsOfKey(PARTS, deps.batch) : deps.query !== undefined ? [deps.query] : undefined,
  );

type QueryResult = Extract<PartResult<QueryShare>, { ran: true }>;

/**
 * One query's part of a run: its page read (paid by the run for its searches' teams), compared and planned in the
 * transaction the run commits under its fence.
 */
async function runQuery(
  deps: AlertKindDeps & { signal: AbortSignal },
  group: AlertRow[],
  batchSeen: BatchSeen,
  log: Logger,
  maxPages: number,
  state: PollState,
): Promise<QueryResult> {
  const now = deps.now ?? Date.now;
  const { operation, params } = fromParamsKey(group[0]!.paramsKey);
  const result: QueryResult = { ran: true, calls: 0, failed: false };
  // Read once for the batch; this query's searches' rows only are kept past it.
  const seenRows = new Map<number, OwnRows>(
    group.map((s) => [s.id, new Map((batchSeen.get(s.id) ?? []).map((r) => [r.propertyId, r]))]),
  );
  const primed = group.filter((s) => s.primedAt !== null);
  let listings: Listing[];
  let atLeast = false;
  let complete = false;
  try {
    // Another page only while every listing on it is new to some primed search (or none is primed yet).
    const allNew = (records: Listing[]) =>
      primed.length === 0 || primed.some((s) => records.every((r) => !seenRows.get(s.id)!.has(r.property_id)));
    const fetched = await fetchListings(
      deps.api,
      operation,
      params,
      { ...deps.options, maxPages, fullPage: fullPages.get(deps.api) ?? 0 },
      allNew,
      deps.signal,
    );
    fullPages.set(deps.api, Math.max(fullPages.get(deps.api) ?? 0, fetched.longest));
    // Only a whole result that lists something tells what is missing: an empty answer may be the service's hiccup.
    complete = fetched.complete && fetched.listings.length > 0;
    if (fetched.pagesCut && maxPages < deps.options.maxPages)
      log.info('query read fewer pages than allowed: call budget', { operation, maxPages });
    listings = fetched.listings;
    atLeast = fetched.pagesCut === true;
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
    result.commit = async (fence) => {
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
      return 0;
    };
    return result;
  }

  // Decided in the transaction that records it (the batch's, in the batch's order), against what the channels' alerts
  // have posted by then: runs of other queries in the same channels (of this batch, on this instance or another)
  // commit one at a time, so none posts a listing twice.
  const shape = await shapeOf(deps, group, atLeast, now);
  let planned: ReturnType<typeof planGroup> | undefined;
  const keys = postedQueryOf(listings);
  result.share = {
    plan: {
      service: deps.service,
      channels: [...new Set(group.map((s) => s.channel))],
      ...keys,
      outcomes: (posted, history = []) => {
        planned = planGroup(
          group,
          seenRows,
          listings,
          posted,
          {
            priceDropPct: deps.options.priceDropPct,
            cardsPerRun: deps.options.cardsPerRun ?? 5,
            shape,
            story: { service: deps.service, stories: new Map(history.map((h) => [h.propertyId, h])), complete },
          },
          now(),
        );
        return planned.outcomes;
      },
      // The stories of its listings, and of those its alerts may find gone now (missed by their previous run).
      history: {
        ids: [...keys.propertyIds, ...goneCandidates(seenRows, keys.propertyIds, complete)],
        writes: () => planned?.history,
      },
    },
    committed: () => {
      state.newListings += planned?.fresh ?? 0;
      state.priceDrops += planned?.drops ?? 0;
    },
    runAt: state.startedAt,
  };
  return result;
}

/**
 * How each search of the group delivers (issue 40), from its frequency and its channel's settings: a summary alert
 * queues one summary for its slot (none when nothing is new) and is due next at its next slot; an instant alert's
 * cards found in its channel's quiet hours are held until they end (src/outbox releases and folds them). Summaries
 * are posted at the time their alert asked for, quiet or not.
 */
async function shapeOf(deps: AlertKindDeps, group: AlertRow[], atLeast: boolean, now: () => number): Promise<Shape> {
  const channels = [...new Set(group.map((s) => s.channel))];
  const settings = new Map((await deps.repo.channelSettings(channels)).map((s) => [s.channel, s]));
  const zoneOf = (channel: string) => settings.get(channel)?.timezone ?? deps.options.timezone ?? 'UTC';
  return (search, cmp, cards) => {
    const at = now();
    const timezone = zoneOf(search.channel);
    const frequency = frequencyFrom(search.schedule);
    if (isSummary(frequency)) {
      const { slot, next } = slotOf(frequency, timezone, at);
      // The first look records what exists and posts nothing, as an instant alert's does.
      const summary =
        search.primedAt === null ? undefined : periodSummary(search, cmp, { every: frequency.every, slot, atLeast });
      return { deliveries: summary ? [summary] : [], nextRunAt: next };
    }
    const s = settings.get(search.channel);
    const until =
      s?.quietFrom && s.quietTo ? quietUntil({ from: s.quietFrom, to: s.quietTo }, timezone, at) : undefined;
    if (until === undefined) return { deliveries: cards };
    return { deliveries: cards.map((d) => (HELD_KINDS.includes(d.kind) ? { ...d, holdUntil: until } : d)) };
  };
}

/** The listings a complete run may find gone: seen by one of its alerts, missed by that alert's previous run, not listed now. */
function goneCandidates(
  seenRows: ReadonlyMap<number, OwnRows>,
  listed: readonly string[],
  complete: boolean,
): string[] {
  if (!complete) return [];
  const here = new Set(listed);
  const ids = new Set<string>();
  for (const rows of seenRows.values())
    for (const r of rows.values()) if (r.missed === 1 && !here.has(r.propertyId)) ids.add(r.propertyId);
  return [...ids];
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
