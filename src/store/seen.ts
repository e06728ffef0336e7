// What each saved search has seen, and a poller run's record: seen rows upserted, what the channel was posted
// (./channel-posted.ts) and deliveries queued in one transaction, so a crash leaves either all of it or none.
import { eq, inArray } from 'drizzle-orm';
import type { Store } from './db.js';
import type { Fence } from './contracts/leases.js';
import type { CommitOptions, RunOutcome, RunPlan, SeenRepo, SeenRow } from './contracts/seen.js';
import { channelPostedStatements, type PostedSeen } from './channel-posted.js';
import { historyStatements } from './listing-history.js';
import type { Synced } from './contracts/synced.js';
import { fenceCheck } from './leases.js';
import { readRestore } from './meta.js';
import { createOutboxRepo } from './outbox.js';
import { onlyTimes, runDone, seenWrites, uncertainAfterRestore } from './alert-digest-writes.js';
import { searchSeen } from './schema.js';

export function createSeenRepo(store: Store, now: () => number = Date.now): SyncSeenRepo {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox = createOutboxRepo(store, now);
  // The poller's hot path (one row per new or repriced listing per search): a prepared statement, not a query build.
  const upsertSeen = sqlite.prepare(
    `INSERT INTO search_seen (search_id, property_id, first_seen_at, last_seen_at, last_price, reported_price, location_key, bedrooms, size, posted)
     VALUES (@searchId, @propertyId, @at, @at, @price, @reported, @locationKey, @bedrooms, @size, @posted)
     ON CONFLICT (search_id, property_id) DO UPDATE SET last_seen_at = @at, last_price = @price,
       reported_price = CASE WHEN @keepReported THEN coalesce(reported_price, last_price) ELSE @reported END, posted = max(posted, @posted),
       missed = 0
     RETURNING posted, location_key AS locationKey, bedrooms, size, last_price AS lastPrice,
       coalesce(reported_price, last_price) AS told`,
  );
  // Listed again after a miss, or back on the market since the alert last saw it (RunOutcome.refreshed): rare, so one
  // statement for each run that has some; the rest of what a run lists unchanged is not written at all.
  const refreshSeen = sqlite.prepare(
    `UPDATE search_seen SET last_seen_at = @at, missed = 0
     WHERE search_id = @searchId AND property_id IN (SELECT value FROM json_each(@ids)) AND last_seen_at < @at`,
  );
  // A complete run that did not list them (issue 40): counted up to 2, which is gone for this alert.
  const missSeen = sqlite.prepare(
    `UPDATE search_seen SET missed = missed + 1
     WHERE search_id = @searchId AND property_id IN (SELECT value FROM json_each(@ids)) AND missed < 2`,
  );
  const channelPosted = channelPostedStatements(sqlite);
  const history = historyStatements(sqlite);
  // Per search of a run, prepared once, and plain statements: drizzle's placeholders and mapping cost more than the
  // statements themselves on this path (10,000 searches a run).
  const searchOf = sqlite.prepare<[number], { lastRunAt: number | null; service: string; channel: string }>(
    `SELECT o.last_run_at AS lastRunAt, o.service, o.target AS channel
     FROM standing_order o JOIN saved_search s ON s.id = o.id WHERE o.id = ?`,
  );
  // runDone's values (alert-digest-writes.ts) but the times (recordTimes): the error cleared and the primed time, when
  // it says, on the standing order and on the alert's own fields.
  const clearOrderError = sqlite.prepare(`UPDATE standing_order SET last_error = NULL WHERE id = ?`);
  const recordAlertRun = sqlite.prepare(
    `UPDATE saved_search SET primed_at = CASE WHEN @primed THEN @primedAt ELSE primed_at END,
       error_since = CASE WHEN @cleared THEN NULL ELSE error_since END,
       error_reported = CASE WHEN @cleared THEN 0 ELSE error_reported END
     WHERE id = @id`,
  );
  // The times of a query's runs (runDone: last run, next run), the same for most of its searches: one statement each.
  // `+kind`: by the ids' primary key, never by the kind's index (which would read every alert each time).
  const recordTimes = sqlite.prepare(
    `UPDATE standing_order SET last_run_at = @at, next_run_at = @next
     WHERE id IN (SELECT value FROM json_each(@ids)) AND +kind = 'alert'`,
  );
  // An instant alert's: its last run only (runDone leaves its next_run_at, so the due index is not touched).
  const recordLastRun = sqlite.prepare(
    `UPDATE standing_order SET last_run_at = @at WHERE id IN (SELECT value FROM json_each(@ids)) AND +kind = 'alert'`,
  );
  const restore = readRestore(sqlite);
  const holds = fenceCheck(store);

  function commit(outcome: RunOutcome): number {
    const { searchId } = outcome;
    const search = searchOf.get(searchId);
    if (!search) return 0; // removed meanwhile
    const uncertain = uncertainAfterRestore(restore, search.lastRunAt);
    // A posted row (posted now, or before) is the channel's too: its fingerprint, the price it was told, this alert.
    for (const w of seenWrites(outcome)) {
      const row = upsertSeen.get({ ...w, keepReported: w.keepReported ? 1 : 0, posted: w.posted ? 1 : 0 }) as Omit<
        PostedSeen,
        'service' | 'channel' | 'propertyId'
      > & { posted: number };
      const { posted, ...flat } = row;
      if (posted)
        channelPosted.record(
          { ...flat, service: search.service, channel: search.channel, propertyId: w.propertyId },
          searchId,
        );
    }
    if (outcome.missed?.length) missSeen.run({ searchId, ids: JSON.stringify(outcome.missed) });
    if (outcome.refreshed?.length)
      refreshSeen.run({ searchId, at: outcome.at, ids: JSON.stringify(outcome.refreshed) });
    let queued = 0;
    for (const d of outcome.deliveries) queued += outbox.enqueue({ ...d, ...uncertain });
    const done = runDone(outcome);
    if ('lastError' in done.order) clearOrderError.run(searchId);
    if (done.alert.primedAt !== undefined || 'errorSince' in done.alert)
      recordAlertRun.run({
        id: searchId,
        primed: done.alert.primedAt === undefined ? 0 : 1,
        primedAt: done.alert.primedAt ?? null,
        cleared: 'errorSince' in done.alert ? 1 : 0,
      });
    return queued;
  }

  /**
   * Several searches' runs (one coalesced query) in one transaction. With a `fence`, only while it still holds the
   * poller's lease: an instance that stalled past it and was taken over records nothing (undefined).
   */
  function commitRuns(outcomes: readonly RunOutcome[], fence?: Fence): number | undefined {
    return commitPlanned(
      { service: '', channels: [], propertyIds: [], locationKeys: [], outcomes: () => [...outcomes] },
      fence,
    );
  }

  /** As commitRuns, with the outcomes decided in the transaction (an immediate one: runs commit one at a time). */
  function commitPlanned(plan: RunPlan, fence?: Fence): number | undefined {
    return commitMany([{ plan }], fence)?.[0];
  }

  /**
   * A batch's queries in one transaction under one fence check, each decided in order from what its channels were
   * posted by then (the batch's earlier queries' rows included: they are written before the next one reads).
   */
  function commitMany(
    items: readonly { plan: RunPlan }[],
    fence?: Fence,
    options: CommitOptions = {},
  ): number[] | undefined {
    return tx(() => {
      if (fence && !holds(fence)) return undefined;
      const decided: RunOutcome[] = [];
      const queued = items.map(({ plan }) => commitQuery(plan, decided));
      const extra = options.after?.(decided) ?? [];
      if (extra.length > 0 && queued.length > 0)
        queued[queued.length - 1]! += extra.reduce((n, d) => n + outbox.enqueue(d), 0);
      if (options.pruneHistoryBefore !== undefined) history.prune(options.pruneHistoryBefore);
      return queued;
    });
  }

  /** One query's run, decided and written in the caller's transaction: the one place a query's run is recorded. */
  function commitQuery(plan: RunPlan, decided: RunOutcome[] = []): number {
    const stories = plan.history ? history.read(plan.service, plan.history.ids) : undefined;
    const outcomes = plan.outcomes(channelPosted.postedIn(plan), stories);
    decided.push(...outcomes);
    const writes = plan.history?.writes();
    if (writes) history.write(plan.service, writes);
    return commitOutcomes(outcomes);
  }

  /**
   * Each outcome recorded in order: its writes (none for most: onlyTimes), and its times grouped with the others' of
   * the same times, written when a search comes again (its runs in order) and at the end.
   */
  function commitOutcomes(outcomes: readonly RunOutcome[]): number {
    const times = new Map<string, { at: number; next: number | undefined; ids: number[] }>();
    const pending = new Set<number>();
    const flush = () => {
      for (const { at, next, ids } of times.values())
        if (next === undefined) recordLastRun.run({ at, ids: JSON.stringify(ids) });
        else recordTimes.run({ at, next, ids: JSON.stringify(ids) });
      times.clear();
      pending.clear();
    };
    let queued = 0;
    for (const o of outcomes) {
      if (pending.has(o.searchId)) flush();
      if (!onlyTimes(o)) queued += commit(o);
      const { lastRunAt: at, nextRunAt: next } = runDone(o).order;
      const key = `${at}:${next}`;
      (times.get(key) ?? times.set(key, { at, next, ids: [] }).get(key)!).ids.push(o.searchId);
      pending.add(o.searchId);
    }
    flush();
    return queued;
  }

  return {
    seen(searchId: number): SeenRow[] {
      return db.select().from(searchSeen).where(eq(searchSeen.searchId, searchId)).all();
    },

    /** What each of these searches has seen, in one query (a run reads a whole group's at once). */
    seenBy(searchIds: readonly number[]): Map<number, SeenRow[]> {
      const out = new Map<number, SeenRow[]>(searchIds.map((id) => [id, []]));
      if (searchIds.length === 0) return out;
      const rows = db
        .select()
        .from(searchSeen)
        .where(inArray(searchSeen.searchId, [...searchIds]))
        .all();
      for (const row of rows) out.get(row.searchId)!.push(row);
      return out;
    },

    commitRuns,

    commitPlanned,

    commitMany,

    /** What these channels were posted, of these listings or locations (the order: channel, id). */
    postedIn: channelPosted.postedIn,

    /** The same, once for each alert that matched it (the order: channel, number, id). */
    postedAlerts: channelPosted.postedAlerts,

    commitRun(outcome: RunOutcome, fence?: Fence): number | undefined {
      return commitRuns([outcome], fence);
    },

    history: (service: string, propertyIds: readonly string[]) => history.read(service, [...new Set(propertyIds)]),

    pruneHistory: (before: number) => tx(() => history.prune(before)),
  };
}

/** The written contract (./contracts/seen.ts), synchronous: what the SQLite alert repository merges in (./alerts.ts). */
export type SyncSeenRepo = Synced<SeenRepo>;
