// What each saved search has seen, and a poller run's record: seen rows upserted, what the channel was posted
// (./channel-posted.ts) and deliveries queued in one transaction, so a crash leaves either all of it or none.
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Store } from './db.js';
import type { Fence } from './contracts/leases.js';
import type { CommitOptions, RunOutcome, RunPlan, SeenRepo, SeenRow } from './contracts/seen.js';
import { channelPostedStatements, type PostedSeen } from './channel-posted.js';
import { historyStatements } from './listing-history.js';
import type { Synced } from './contracts/synced.js';
import { fenceCheck } from './leases.js';
import { readRestore } from './meta.js';
import { createOutboxRepo } from './outbox.js';
import { runDone, seenWrites, uncertainAfterRestore } from './alert-digest-writes.js';
import { alertFields, searchSeen, standingOrder } from './schema.js';

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
  // Every listing a run read is "seen" now, changed or not: one statement per coalesced query, not one per row.
  const touchSeen = sqlite.prepare(
    `UPDATE search_seen SET last_seen_at = @at, missed = 0
     WHERE search_id IN (SELECT value FROM json_each(@searches)) AND property_id IN (SELECT value FROM json_each(@ids)) AND last_seen_at < @at`,
  );
  // A complete run that did not list them (issue 40): counted up to 2, which is gone for this alert.
  const missSeen = sqlite.prepare(
    `UPDATE search_seen SET missed = missed + 1
     WHERE search_id = @searchId AND property_id IN (SELECT value FROM json_each(@ids)) AND missed < 2`,
  );
  const channelPosted = channelPostedStatements(sqlite);
  const history = historyStatements(sqlite);
  // Per search of a run, prepared once (a query built and prepared per search cost more than the run's writes).
  const searchOf = db
    .select({
      lastRunAt: standingOrder.lastRunAt,
      service: standingOrder.service,
      channel: standingOrder.channel,
    })
    .from(standingOrder)
    .innerJoin(alertFields, eq(alertFields.id, standingOrder.id))
    .where(eq(standingOrder.id, sql.placeholder('id')))
    .prepare();
  // runDone's values (alert-digest-writes.ts): the run's time, and the primed time and the error cleared when it says;
  // on the standing order and on the alert's own fields.
  const when = (flag: string, then: SQL, otherwise: SQL | AnySQLiteColumn) =>
    sql`CASE WHEN ${sql.placeholder(flag)} THEN ${then} ELSE ${otherwise} END`;
  const recordRun = db
    .update(standingOrder)
    .set({
      lastRunAt: sql`${sql.placeholder('at')}`,
      nextRunAt: sql`${sql.placeholder('next')}`,
      lastError: when('cleared', sql`NULL`, standingOrder.lastError),
    })
    .where(eq(standingOrder.id, sql.placeholder('id')))
    .prepare();
  const recordAlertRun = db
    .update(alertFields)
    .set({
      primedAt: when('primed', sql`${sql.placeholder('primedAt')}`, alertFields.primedAt),
      errorSince: when('cleared', sql`NULL`, alertFields.errorSince),
      errorReported: when('cleared', sql`0`, alertFields.errorReported),
    })
    .where(eq(alertFields.id, sql.placeholder('id')))
    .prepare();
  const restore = readRestore(sqlite);
  const holds = fenceCheck(store);

  function commit(outcome: RunOutcome): number {
    const { searchId } = outcome;
    const search = searchOf.get({ id: searchId });
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
    let queued = 0;
    for (const d of outcome.deliveries) queued += outbox.enqueue({ ...d, ...uncertain });
    const done = runDone(outcome);
    const ran = {
      id: searchId,
      at: done.order.lastRunAt,
      next: done.order.nextRunAt,
      primed: done.alert.primedAt === undefined ? 0 : 1,
      primedAt: done.alert.primedAt ?? null,
      cleared: 'lastError' in done.order ? 1 : 0,
    };
    recordRun.run(ran);
    if (ran.primed || ran.cleared) recordAlertRun.run(ran);
    return queued;
  }

  /**
   * Several searches' runs (one coalesced query) in one transaction. `read` are the ids the query returned: their seen
   * rows get `last_seen_at` = the run's time, changed or not (one statement). With a `fence`, only while it still holds
   * the poller's lease: an instance that stalled past it and was taken over records nothing (undefined).
   */
  function commitRuns(
    outcomes: readonly RunOutcome[],
    read: readonly string[] = [],
    fence?: Fence,
  ): number | undefined {
    return commitPlanned(
      { service: '', channels: [], propertyIds: [], locationKeys: [], outcomes: () => [...outcomes] },
      read,
      fence,
    );
  }

  /** As commitRuns, with the outcomes decided in the transaction (an immediate one: runs commit one at a time). */
  function commitPlanned(plan: RunPlan, read: readonly string[] = [], fence?: Fence): number | undefined {
    return commitMany([{ plan, read }], fence)?.[0];
  }

  /**
   * A batch's queries in one transaction under one fence check, each decided in order from what its channels were
   * posted by then (the batch's earlier queries' rows included: they are written before the next one reads).
   */
  function commitMany(
    items: readonly { plan: RunPlan; read?: readonly string[] }[],
    fence?: Fence,
    options: CommitOptions = {},
  ): number[] | undefined {
    return tx(() => {
      if (fence && !holds(fence)) return undefined;
      const decided: RunOutcome[] = [];
      const queued = items.map(({ plan, read = [] }) => commitQuery(plan, read, decided));
      const extra = options.after?.(decided) ?? [];
      if (extra.length > 0 && queued.length > 0)
        queued[queued.length - 1]! += extra.reduce((n, d) => n + outbox.enqueue(d), 0);
      if (options.pruneHistoryBefore !== undefined) history.prune(options.pruneHistoryBefore);
      return queued;
    });
  }

  /** One query's run, decided and written in the caller's transaction: the one place a query's run is recorded. */
  function commitQuery(plan: RunPlan, read: readonly string[], decided: RunOutcome[] = []): number {
    const stories = plan.history ? history.read(plan.service, plan.history.ids) : undefined;
    const outcomes = plan.outcomes(channelPosted.postedIn(plan), stories);
    decided.push(...outcomes);
    const writes = plan.history?.writes();
    if (writes) history.write(plan.service, writes);
    const queued = outcomes.reduce((n, o) => n + commit(o), 0);
    if (read.length > 0 && outcomes.length > 0) {
      touchSeen.run({
        at: outcomes[0]!.at,
        searches: JSON.stringify(outcomes.map((o) => o.searchId)),
        ids: JSON.stringify(read),
      });
    }
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
      return commitRuns([outcome], [], fence);
    },

    history: (service: string, propertyIds: readonly string[]) => history.read(service, [...new Set(propertyIds)]),

    pruneHistory: (before: number) => tx(() => history.prune(before)),
  };
}

/** The written contract (./contracts/seen.ts), synchronous: what the SQLite alert repository merges in (./alerts.ts). */
export type SyncSeenRepo = Synced<SeenRepo>;
