// What each saved search has seen, and a poller run's record, on Postgres, implementing ../contracts/seen.ts (which
// says what each method promises) as ../seen.ts does on SQLite. A run's seen rows, its outbox entries and its search's
// record commit in one transaction under the lease's fence; the searches it records are locked first, so a removal
// meanwhile waits for it (and then takes its rows away) instead of failing it on a missing parent.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import { onlyTimes, runDone, seenWrites, uncertainAfterRestore, type SeenWrite } from '../alert-digest-writes.js';
import type { CommitOptions, PostedQuery, RunOutcome, RunPlan, SeenRepo, SeenRow } from '../contracts/seen.js';
import { postedAlerts, postedIn, recordPosted } from './channel-posted.js';
import { historyIn, pruneHistory, writeHistory } from './listing-history.js';
import { HistoryOverlay } from '../history-overlay.js';
import type { HistoryWrites, ListingHistory } from '../contracts/history.js';
import { holdsLeaseIn } from './leases.js';
import { readRestore } from './meta.js';
import type { PgStore } from './open.js';
import { enqueueAllIn } from './outbox.js';
import { alertFields, searchSeen, standingOrder } from './schema.js';
import type { PgTx } from './tx.js';

/** Rows per upsert statement: 10 parameters a row stays far below Postgres's 65535. */
const CHUNK = 500;

/**
 * Splits a run's rows into statements of at most `size` rows, none holding the same row twice: one statement cannot
 * update a row twice (Postgres refuses), so a repeated row starts the next one and is written after, as SQLite would.
 */
export function upsertChunks(rows: readonly SeenWrite[], size = CHUNK): SeenWrite[][] {
  const chunks: SeenWrite[][] = [];
  let current: SeenWrite[] = [];
  let keys = new Set<string>();
  for (const row of rows) {
    const key = `${row.searchId}\u0000${row.propertyId}`;
    if (current.length >= size || keys.has(key)) {
      chunks.push(current);
      current = [];
      keys = new Set();
    }
    current.push(row);
    keys.add(key);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * One multi-row upsert. `keep`: the rows bring no reported price, so an existing row keeps its own (or its last price,
 * on rows from before it); otherwise the row's is written. A row once posted stays posted.
 */
async function upsert(tx: PgTx, rows: readonly SeenWrite[], keep: boolean): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(searchSeen)
    .values(
      rows.map((w) => ({
        searchId: w.searchId,
        propertyId: w.propertyId,
        firstSeenAt: w.at,
        lastSeenAt: w.at,
        lastPrice: w.price,
        reportedPrice: w.reported,
        locationKey: w.locationKey,
        bedrooms: w.bedrooms,
        size: w.size,
        posted: w.posted,
      })),
    )
    .onConflictDoUpdate({
      target: [searchSeen.searchId, searchSeen.propertyId],
      set: {
        lastSeenAt: sql`excluded.last_seen_at`,
        lastPrice: sql`excluded.last_price`,
        reportedPrice: keep
          ? sql`coalesce(${searchSeen.reportedPrice}, ${searchSeen.lastPrice})`
          : sql`excluded.reported_price`,
        posted: sql`greatest(${searchSeen.posted}, excluded.posted)`,
        missed: sql`0`,
      },
    });
}

/**
 * Writes the rows, in their order: per chunk, the two kinds of row in one statement each (a chunk has no row twice).
 */
async function upsertSeen(tx: PgTx, rows: readonly SeenWrite[]): Promise<void> {
  for (const chunk of upsertChunks(rows)) {
    await upsert(
      tx,
      chunk.filter((w) => w.keepReported),
      true,
    );
    await upsert(
      tx,
      chunk.filter((w) => !w.keepReported),
      false,
    );
  }
}

/** The searches still there, locked until the commit (in id order, so two commits never lock in opposite orders). */
async function lockSearches(tx: PgTx, ids: readonly number[]): Promise<Map<number, number | null>> {
  const rows = await tx
    .select({ id: standingOrder.id, lastRunAt: standingOrder.lastRunAt })
    .from(standingOrder)
    .where(sql`${standingOrder.id} = ANY(${sql.param([...new Set(ids)])}::int[]) and ${standingOrder.kind} = 'alert'`)
    .orderBy(asc(standingOrder.id))
    .for('no key update');
  return new Map(rows.map((r) => [r.id, r.lastRunAt]));
}

/** Each search's run recorded on it: one statement per set of values (a run's searches mostly share one). */
async function recordRuns(tx: PgTx, done: ReadonlyMap<number, ReturnType<typeof runDone>>): Promise<void> {
  const groups = new Map<string, { set: ReturnType<typeof runDone>; ids: number[] }>();
  for (const [id, set] of done) {
    const key = JSON.stringify(set);
    const group = groups.get(key) ?? groups.set(key, { set, ids: [] }).get(key)!;
    group.ids.push(id);
  }
  for (const { set, ids } of groups.values()) {
    await tx
      .update(standingOrder)
      .set(set.order)
      .where(sql`${standingOrder.id} = ANY(${sql.param(ids)}::int[]) and ${standingOrder.kind} = 'alert'`);
    if (Object.keys(set.alert).length > 0)
      await tx
        .update(alertFields)
        .set(set.alert)
        .where(sql`${alertFields.id} = ANY(${sql.param(ids)}::int[])`);
  }
}

/**
 * The runs that post in these channels commit one at a time until this transaction ends (SQLite's immediate
 * transactions do the same for the whole file): a lock per channel, taken in one order, so two never wait on each
 * other.
 */
async function lockChannels(tx: PgTx, channels: readonly string[]): Promise<void> {
  if (channels.length === 0) return;
  // One statement however many channels (a query saved in hundreds of channels); the locks taken in key order, since
  // a volatile function in a select list runs after the sort below it.
  // The key keeps its old word: an instance of the release before takes the same lock during a rolling upgrade.
  const keys = [...new Set(channels)].map((p) => `manzil:alerts-place:${p}`);
  await tx.execute(
    sql`select pg_advisory_xact_lock(k) from (select distinct hashtextextended(p, 0) as k from unnest(${sql.param(keys)}::text[]) as p order by k) as keys`,
  );
}

/** The advisory lock namespace of listing stories (the first key of pg_advisory_xact_lock(int, int)): 'lsth'. */
const STORY_LOCKS = 0x6c737468;
/**
 * Stories lock by bucket, not one by one: a batch reads thousands of listings, and every advisory lock held takes a
 * slot of the server's shared lock table (64 a connection by default).
 */
const STORY_BUCKETS = 256;

/** The buckets of every story these writes touch, locked until the commit in one statement, in key order. */
async function lockStories(tx: PgTx, all: readonly { service: string; writes: HistoryWrites }[]): Promise<void> {
  const keys = new Set<string>();
  for (const { service, writes } of all) {
    for (const r of writes.rows) keys.add(`${service}:${r.propertyId}`);
    for (const id of [...writes.seen, ...writes.gone]) keys.add(`${service}:${id}`);
  }
  if (keys.size === 0) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(${STORY_LOCKS}::int, b) from (select distinct (hashtext(p) & ${STORY_BUCKETS - 1}) as b from unnest(${sql.param([...keys])}::text[]) as p order by b) as buckets`,
  );
}

/** A complete run that did not list them (issue 40): counted up to 2, which is gone for this alert. */
async function missSeen(tx: PgTx, searchId: number, ids: readonly string[]): Promise<void> {
  await tx
    .update(searchSeen)
    .set({ missed: sql`${searchSeen.missed} + 1` })
    .where(
      and(
        eq(searchSeen.searchId, searchId),
        sql`${searchSeen.propertyId} = ANY(${sql.param([...ids])}::text[])`,
        sql`${searchSeen.missed} < 2`,
      ),
    );
}

/** Listed again after a miss, or back since the alert last saw it (RunOutcome.refreshed): seen now, misses start over. */
async function refreshSeen(tx: PgTx, searchId: number, ids: readonly string[], at: number): Promise<void> {
  await tx
    .update(searchSeen)
    .set({ lastSeenAt: at, missed: 0 })
    .where(
      and(
        eq(searchSeen.searchId, searchId),
        sql`${searchSeen.propertyId} = ANY(${sql.param([...ids])}::text[])`,
        sql`${searchSeen.lastSeenAt} < ${at}::bigint`,
      ),
    );
}

export function createPgSeenRepo(store: PgStore, now: () => number = Date.now): SeenRepo {
  const { db } = store;

  /** The runs of searches still there: seen rows, deliveries and each search's record. Returns how many were queued. */
  async function commit(tx: PgTx, outcomes: readonly RunOutcome[]): Promise<number> {
    // Only the searches whose run writes more than its times are locked and read (most of a quiet run's write only
    // them: an UPDATE, a no-op for a search removed meanwhile, needs no lock before it).
    const writing = outcomes.filter((o) => !onlyTimes(o)).map((o) => o.searchId);
    const lastRun = writing.length > 0 ? await lockSearches(tx, writing) : new Map<number, number | null>();
    // The others were removed meanwhile.
    const live = outcomes.filter((o) => onlyTimes(o) || lastRun.has(o.searchId));
    const writes = live.flatMap(seenWrites);
    await upsertSeen(tx, writes);
    await recordPosted(tx, writes);
    for (const o of live) {
      if (o.missed?.length) await missSeen(tx, o.searchId, o.missed);
      if (o.refreshed?.length) await refreshSeen(tx, o.searchId, o.refreshed, o.at);
    }
    // Read in the transaction, not once at the start as SQLite does: another instance may have been restored over.
    const restore = live.some((o) => o.deliveries.length > 0) ? await readRestore(tx) : undefined;
    const deliveries: NewDelivery[] = [];
    const done = new Map<number, ReturnType<typeof runDone>>();
    for (const o of live) {
      const uncertain = uncertainAfterRestore(restore, lastRun.get(o.searchId) ?? null);
      for (const d of o.deliveries) deliveries.push({ ...d, ...uncertain });
      // The same search twice in one call: its second run follows the first.
      done.set(o.searchId, { ...done.get(o.searchId), ...runDone(o) });
      lastRun.set(o.searchId, o.at);
    }
    await recordRuns(tx, done);
    return enqueueAllIn(tx, deliveries, now());
  }

  async function commitRuns(outcomes: readonly RunOutcome[], fence?: Fence): Promise<number | undefined> {
    return commitPlanned(
      { service: '', channels: [], propertyIds: [], locationKeys: [], outcomes: () => [...outcomes] },
      fence,
    );
  }

  async function commitPlanned(plan: RunPlan, fence?: Fence): Promise<number | undefined> {
    return (await commitMany([{ plan }], fence))?.[0];
  }

  /**
   * A batch's queries in one transaction under one fence check. Each is decided first from what its channels were
   * posted as it stands, without a lock: a query that posts nothing (most of them) waits for no other. The channels
   * any of them would post in are then locked in one statement (in key order: two batches never wait on each other),
   * and each query is decided again, in order, from what its channels were posted by then, the batch's earlier
   * queries' rows included; a query that now posts in a channel not yet locked locks it and is decided once more.
   */
  async function commitMany(
    items: readonly { plan: RunPlan }[],
    fence?: Fence,
    options: CommitOptions = {},
  ): Promise<number[] | undefined> {
    const queued = await db.transaction(async (tx) => {
      if (fence && !(await holdsLeaseIn(tx, fence))) return undefined;
      // The batch's story writes wait for its end (see below); its queries read them from here meanwhile.
      const stories = new HistoryOverlay();
      const storyWrites: { service: string; writes: HistoryWrites }[] = [];
      const given = new Map<RunPlan, ListingHistory[]>();
      // What the plan is given: its channels' posted rows and its listings' stories, as they stand now.
      const decide = async (plan: RunPlan) => {
        let history: ListingHistory[] | undefined;
        if (plan.history) {
          const read = await historyIn(tx, plan.service, plan.history.ids);
          history = stories.stories(plan.service, plan.history.ids, read);
          given.set(plan, history);
        }
        return plan.outcomes(await postedIn(tx, plan), history);
      };
      const postingIn = (outcomes: readonly RunOutcome[]) =>
        new Set(outcomes.flatMap((o) => o.deliveries.map((d) => d.channel)));
      const first: RunOutcome[][] = [];
      for (const { plan } of items) first.push(await decide(plan));
      const locked = new Set<string>();
      const lock = async (channels: Iterable<string>) => {
        const fresh = [...channels].filter((c) => !locked.has(c));
        if (fresh.length === 0) return false;
        await lockChannels(tx, fresh);
        for (const c of fresh) locked.add(c);
        return true;
      };
      await lock(new Set(first.flatMap((o) => [...postingIn(o)])));
      // Channels an earlier query of the batch wrote seen rows in (posted ones among them): a later query of theirs
      // reads what they were posted again.
      const touched = new Set<string>();
      // Listings whose story an earlier query of the batch rewrote (new, repriced, back, gone): a later query reading
      // one of them decides again.
      const storied = new Set<string>();
      const queued: number[] = [];
      const decided: RunOutcome[] = [];
      for (const [i, { plan }] of items.entries()) {
        let outcomes = first[i]!;
        if (postingIn(outcomes).size > 0 || plan.channels.some((c) => touched.has(c))) {
          outcomes = await decide(plan);
          while (await lock(postingIn(outcomes))) outcomes = await decide(plan);
        } else if (plan.history?.ids.some((id) => storied.has(id))) outcomes = await decide(plan); // written since
        const writes = plan.history?.writes();
        if (writes) {
          stories.apply(plan.service, given.get(plan) ?? [], writes);
          storyWrites.push({ service: plan.service, writes });
          for (const r of writes.rows) storied.add(r.propertyId);
          for (const id of writes.gone) storied.add(id);
        }
        queued.push(outcomes.length === 0 ? 0 : await commit(tx, outcomes));
        decided.push(...outcomes);
        if (outcomes.some((o) => o.seen.length > 0)) for (const c of plan.channels) touched.add(c);
      }
      // Every story the batch wrote, written now under locks taken in one statement in one order: two batches that
      // share listings (most do) wait for each other here, never on each other's rows in opposite orders (40P01).
      await lockStories(tx, storyWrites);
      for (const { service, writes } of storyWrites) await writeHistory(tx, service, writes);
      // What the batch adds from its items' last decisions, after their own (their channels are locked already).
      const extra = options.after?.(decided) ?? [];
      if (extra.length > 0 && queued.length > 0) queued[queued.length - 1]! += await enqueueAllIn(tx, extra, now());
      return queued;
    });
    // Apart from the batch, and waiting on no row (see pruneHistory): a delete across the table inside it would. One
    // statement, so no transaction of its own (one round trip, not three).
    if (queued && options.pruneHistoryBefore !== undefined) await pruneHistory(db, options.pruneHistoryBefore);
    return queued;
  }

  return {
    async seen(searchId: number) {
      // In the order SQLite's primary key gives (bytes of the id), so both answer alike.
      return db
        .select()
        .from(searchSeen)
        .where(eq(searchSeen.searchId, searchId))
        .orderBy(sql`${searchSeen.propertyId} collate "C"`);
    },

    /** What each of these searches has seen, in one query (a run reads a whole group's at once). */
    async seenBy(searchIds: readonly number[]) {
      const out = new Map<number, SeenRow[]>(searchIds.map((id) => [id, []]));
      if (searchIds.length === 0) return out;
      const rows = await db
        .select()
        .from(searchSeen)
        .where(inArray(searchSeen.searchId, [...searchIds]))
        .orderBy(asc(searchSeen.searchId), sql`${searchSeen.propertyId} collate "C"`);
      for (const row of rows) out.get(row.searchId)!.push(row);
      return out;
    },

    commitRuns,

    commitPlanned,

    commitMany,

    postedIn: (q: PostedQuery) => postedIn(db, q),

    postedAlerts: (q: PostedQuery) => postedAlerts(db, q),

    async commitRun(outcome: RunOutcome, fence?: Fence) {
      return commitRuns([outcome], fence);
    },

    history: (service: string, propertyIds: readonly string[]) => historyIn(db, service, propertyIds),

    pruneHistory: (before: number) => pruneHistory(db, before),
  };
}
