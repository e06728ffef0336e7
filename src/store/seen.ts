// What each saved search has seen, and a poller run's record: seen rows upserted and deliveries queued in one
// transaction, so a crash leaves either all of it or none.
import { eq, inArray } from 'drizzle-orm';
import type { Store } from './db.js';
import type { Fence } from './contracts/leases.js';
import type { ChannelPosted, PostedQuery, RunOutcome, RunPlan, SeenRepo, SeenRow } from './contracts/seen.js';
import type { Synced } from './contracts/synced.js';
import { holdsLease } from './leases.js';
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
       reported_price = CASE WHEN @keepReported THEN coalesce(reported_price, last_price) ELSE @reported END, posted = max(posted, @posted)`,
  );
  // Every listing a run read is "seen" now, changed or not: one statement per coalesced query, not one per row.
  const touchSeen = sqlite.prepare(
    `UPDATE search_seen SET last_seen_at = @at
     WHERE search_id IN (SELECT value FROM json_each(@searches)) AND property_id IN (SELECT value FROM json_each(@ids)) AND last_seen_at < @at`,
  );
  // After a restore, a search's first run may queue facts the replaced database had already posted: they are looked for
  // on the platform first, back to the backup's time.
  const postedRows = sqlite.prepare(
    `SELECT o.target AS channel, o.number, s.summary, ss.search_id AS searchId, ss.property_id AS propertyId, ss.last_price AS lastPrice,
       ss.reported_price AS reportedPrice, ss.location_key AS locationKey, ss.bedrooms, ss.size
     FROM standing_order o JOIN saved_search s ON s.id = o.id JOIN search_seen ss ON ss.search_id = s.id
     WHERE o.service = @service AND o.target IN (SELECT value FROM json_each(@channels)) AND ss.posted = 1
       AND (ss.property_id IN (SELECT value FROM json_each(@ids)) OR ss.location_key IN (SELECT value FROM json_each(@keys)))
     ORDER BY o.target, o.number, ss.property_id`,
  );
  const postedIn = (q: PostedQuery): ChannelPosted[] =>
    q.channels.length === 0
      ? []
      : (postedRows.all({
          service: q.service,
          channels: JSON.stringify(q.channels),
          ids: JSON.stringify(q.propertyIds),
          keys: JSON.stringify(q.locationKeys),
        }) as ChannelPosted[]);
  const restore = readRestore(sqlite);
  const holds = (fence: Fence | undefined) => holdsLease(store, fence);

  function commit(outcome: RunOutcome): number {
    const { searchId } = outcome;
    const search = db
      .select({ lastRunAt: standingOrder.lastRunAt })
      .from(standingOrder)
      .innerJoin(alertFields, eq(alertFields.id, standingOrder.id))
      .where(eq(standingOrder.id, searchId))
      .get();
    if (!search) return 0; // removed meanwhile
    const uncertain = uncertainAfterRestore(restore, search.lastRunAt);
    for (const w of seenWrites(outcome))
      upsertSeen.run({ ...w, keepReported: w.keepReported ? 1 : 0, posted: w.posted ? 1 : 0 });
    let queued = 0;
    for (const d of outcome.deliveries) queued += outbox.enqueue({ ...d, ...uncertain });
    const done = runDone(outcome);
    db.update(standingOrder).set(done.order).where(eq(standingOrder.id, searchId)).run();
    if (Object.keys(done.alert).length > 0)
      db.update(alertFields).set(done.alert).where(eq(alertFields.id, searchId)).run();
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
    return tx(() => {
      if (fence && !holds(fence)) return undefined;
      const outcomes = plan.outcomes(postedIn(plan));
      const queued = outcomes.reduce((n, o) => n + commit(o), 0);
      if (read.length > 0 && outcomes.length > 0) {
        touchSeen.run({
          at: outcomes[0]!.at,
          searches: JSON.stringify(outcomes.map((o) => o.searchId)),
          ids: JSON.stringify(read),
        });
      }
      return queued;
    });
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

    /** What the alerts of these channels have posted, of these listings or locations (the order: channel, number, id). */
    postedIn,

    commitRun(outcome: RunOutcome, fence?: Fence): number | undefined {
      return commitRuns([outcome], [], fence);
    },
  };
}

/** The written contract (./contracts/seen.ts), synchronous: what the SQLite alert repository merges in (./alerts.ts). */
export type SyncSeenRepo = Synced<SeenRepo>;
