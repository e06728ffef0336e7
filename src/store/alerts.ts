// Saved searches, what each has seen, and the outbox of deliveries. src/alerts decides; this file only stores,
// and every multi-row change it offers is one transaction, so a crash leaves either all of it or none.
import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { jobLease, outbox, savedSearch, searchSeen } from './schema.js';

export type SavedSearchRow = typeof savedSearch.$inferSelect;
export type SeenRow = typeof searchSeen.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;

export interface NewSavedSearch {
  service: string;
  place: string;
  owner: string;
  text: string;
  query: string;
  operation: string;
  paramsKey: string;
  summary: string;
}

export interface SeenUpdate {
  propertyId: string;
  price: number | null;
  /** The price the channel now knows: set when the listing is first recorded or a drop is posted; kept otherwise. */
  reportedPrice?: number | null;
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  posted: boolean;
}

export interface NewDelivery {
  searchId: number | null;
  place: string;
  kind: string;
  propertyId?: string | null;
  dedupeKey: string;
  payload: string;
}

/** What one poller run learned about one saved search, written in a single transaction. */
export interface RunOutcome {
  searchId: number;
  at: number;
  seen: SeenUpdate[];
  deliveries: NewDelivery[];
  /** Set on the first run. */
  primed?: boolean;
  /** When the search had been failing and the channel was told, it is told again that it recovered. */
  clearError: boolean;
}

export interface OutboxStats {
  pending: number;
  /** Taken by a drainer: waiting their turn in a channel (claimed) or with their post in flight. */
  sending: number;
  /** Of those, the posts in flight. */
  inFlight: number;
  failed: number;
  delivered: number;
  possibleDuplicates: number;
  /** Age of the oldest entry not yet delivered (ms), 0 when none. */
  oldestPendingMs: number;
}

export function createAlertsRepo(store: Store, now: () => number = Date.now) {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
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
  const nextNumber = sqlite.prepare(
    `INSERT INTO alert_number (place, last) VALUES (@place, @next) ON CONFLICT (place) DO UPDATE SET last = max(last + 1, @next) RETURNING last`,
  );

  return {
    /** Saves a search with the next free number in its place; limits are checked in the same transaction. */
    create(input: NewSavedSearch, limits: { perPlace: number; perOwner: number }): { ok: true; row: SavedSearchRow } | { ok: false; reason: 'place' | 'owner' } {
      return tx(() => {
        const inPlace = db.select({ n: sql<number>`count(*)` }).from(savedSearch).where(eq(savedSearch.place, input.place)).get()!.n;
        if (inPlace >= limits.perPlace) return { ok: false as const, reason: 'place' as const };
        const byOwner = db.select({ n: sql<number>`count(*)` }).from(savedSearch).where(eq(savedSearch.owner, input.owner)).get()!.n;
        if (byOwner >= limits.perOwner) return { ok: false as const, reason: 'owner' as const };
        // Numbers are never reused in a place: a counter per place, seeded from the alerts there (databases from before it).
        const top = db.select({ n: sql<number | null>`max(${savedSearch.number})` }).from(savedSearch).where(eq(savedSearch.place, input.place)).get()!.n;
        const { last: number } = nextNumber.get({ place: input.place, next: (top ?? 0) + 1 }) as { last: number };
        const at = now();
        const row = db.insert(savedSearch).values({ ...input, number, createdAt: at, nextRunAt: at }).returning().get();
        return { ok: true as const, row };
      });
    },

    listByPlace(place: string): SavedSearchRow[] {
      return db.select().from(savedSearch).where(eq(savedSearch.place, place)).orderBy(asc(savedSearch.number)).all();
    },

    byNumber(place: string, number: number): SavedSearchRow | undefined {
      return db.select().from(savedSearch).where(and(eq(savedSearch.place, place), eq(savedSearch.number, number))).get();
    },

    byId(id: number): SavedSearchRow | undefined {
      return db.select().from(savedSearch).where(eq(savedSearch.id, id)).get();
    },

    setPaused(id: number, paused: boolean): void {
      db.update(savedSearch).set({ paused, ...(paused ? {} : { nextRunAt: now() }) }).where(eq(savedSearch.id, id)).run();
    },

    /** Removes a search with its seen set and its undelivered entries (cascade). */
    remove(id: number): void {
      db.delete(savedSearch).where(eq(savedSearch.id, id)).run();
    },

    /** Active searches of this service whose turn has come, the longest-waiting first. */
    due(service: string, at: number): SavedSearchRow[] {
      return db
        .select()
        .from(savedSearch)
        .where(and(eq(savedSearch.service, service), eq(savedSearch.paused, false), lte(savedSearch.nextRunAt, at)))
        .orderBy(sql`coalesce(${savedSearch.lastRunAt}, 0)`, asc(savedSearch.id))
        .all();
    },

    count(service?: string): number {
      const q = db.select({ n: sql<number>`count(*)` }).from(savedSearch);
      return (service ? q.where(eq(savedSearch.service, service)) : q).get()!.n;
    },

    seen(searchId: number): SeenRow[] {
      return db.select().from(searchSeen).where(eq(searchSeen.searchId, searchId)).all();
    },

    /** Records a run: seen rows upserted, deliveries queued (each once), the search's bookkeeping: all or nothing. */
    commitRun(outcome: RunOutcome): number {
      return tx(() => commit(outcome));
    },

    /**
     * Several searches' runs (one coalesced query) in one transaction. `read` are the ids the query returned: their
     * seen rows get `last_seen_at` = the run's time, changed or not (one statement). With `lease`, see below.
     */
    commitRuns(outcomes: readonly RunOutcome[], read: readonly string[] = [], lease?: { name: string; holder: string }): number | undefined {
      return tx(() => {
        // Only while this instance still holds the run's lease: one that stalled past it and was taken over records
        // nothing (undefined), so two instances never record the same search's listings.
        if (lease && db.select().from(jobLease).where(eq(jobLease.name, lease.name)).get()?.holder !== lease.holder) return undefined;
        const queued = outcomes.reduce((n, o) => n + commit(o), 0);
        if (read.length > 0 && outcomes.length > 0) {
          touchSeen.run({ at: outcomes[0]!.at, searches: JSON.stringify(outcomes.map((o) => o.searchId)), ids: JSON.stringify(read) });
        }
        return queued;
      });
    },

    /** A run that could not fetch: the error is kept (and since when), nothing is marked seen. */
    recordFailure(searchId: number, error: string, at: number): SavedSearchRow | undefined {
      return db
        .update(savedSearch)
        .set({ lastError: error.slice(0, 500), errorSince: sql`coalesce(${savedSearch.errorSince}, ${at})`, lastRunAt: at, nextRunAt: at })
        .where(eq(savedSearch.id, searchId))
        .returning()
        .get();
    },

    /** Queues the "this search keeps failing" notice once. */
    reportFailing(searchId: number, delivery: NewDelivery): void {
      tx(() => {
        db.update(savedSearch).set({ errorReported: true }).where(eq(savedSearch.id, searchId)).run();
        enqueue(delivery, now());
      });
    },

    enqueue: (d: NewDelivery) => enqueue(d, now()),

    /**
     * Takes up to `limit` entries due now for this instance: pending ones, ones left `claimed` (never posted) by an
     * instance whose claim has run out, and ones left `sending` (posted when it stopped) by one. Each is marked
     * `claimed` until `at + leaseMs`; `markPosting` marks the one whose post starts. `recovered` is true for an entry
     * that may already be on the platform: its post was in flight at a crash, or its last attempt failed in a way that
     * may have posted it (a timeout): the platform is asked before it is sent again.
     */
    claimDue(holder: string, at: number, leaseMs: number, limit: number, platforms: readonly string[]): (OutboxRow & { recovered: boolean })[] {
      return tx(() => {
        const platformFilter = or(...platforms.map((p) => sql`${outbox.place} like ${`${p}:%`}`));
        const rows = db
          .select()
          .from(outbox)
          .where(
            and(
              platformFilter,
              or(
                and(eq(outbox.state, 'pending'), lte(outbox.nextAttemptAt, at)),
                and(inArray(outbox.state, ['claimed', 'sending']), lte(outbox.claimedUntil, at)),
              ),
            ),
          )
          .orderBy(asc(outbox.id))
          .limit(limit)
          .all();
        if (rows.length === 0) return [];
        // A post found in flight (a crash) is recorded as maybe delivered, not only remembered here: if the entry goes
        // back to the queue before its turn (a channel held by a 429, a shutdown, a claim run out), the next claim
        // still asks the platform before sending it.
        db.update(outbox)
          .set({ state: 'claimed', claimedBy: holder, claimedUntil: at + leaseMs, maybeDelivered: sql`${outbox.maybeDelivered} or ${outbox.state} = 'sending'` })
          .where(inArray(outbox.id, rows.map((r) => r.id)))
          .run();
        return rows.map((r) => ({ ...r, recovered: r.state === 'sending' || r.maybeDelivered }));
      });
    },

    /** Extends this instance's claim while it waits its turn in a channel's queue. */
    extendClaim(id: number, holder: string, until: number): void {
      db.update(outbox).set({ claimedUntil: until }).where(and(eq(outbox.id, id), eq(outbox.claimedBy, holder))).run();
    },

    /**
     * Its post starts now: `sending` until `until`. A crash from here on leaves it `sending`, and the next start asks
     * the platform before sending it again. The check for an earlier uncertain attempt is done by then: cleared.
     * False when this instance no longer holds the claim (another took it over): then it must not post.
     */
    markPosting(id: number, holder: string, until: number): boolean {
      return (
        db.update(outbox)
          .set({ state: 'sending', claimedUntil: until, maybeDelivered: false })
          .where(and(eq(outbox.id, id), eq(outbox.claimedBy, holder), eq(outbox.state, 'claimed')))
          .run().changes === 1
      );
    },

    /**
     * Gives claimed entries back to the queue, unposted and without spending an attempt, due at `at` at the earliest
     * (a channel held by the platform's Retry-After keeps its order: every entry waits, not only the refused one).
     */
    requeue(ids: readonly number[], holder: string, at: number): void {
      if (ids.length === 0) return;
      db.update(outbox)
        .set({ state: 'pending', claimedBy: null, claimedUntil: null, nextAttemptAt: sql`max(${outbox.nextAttemptAt}, ${at})` })
        .where(and(inArray(outbox.id, [...ids]), eq(outbox.claimedBy, holder), eq(outbox.state, 'claimed')))
        .run();
    },

    markDelivered(id: number, messageId: string, at: number, possibleDuplicate = false): void {
      db.update(outbox)
        .set({ state: 'delivered', messageId, deliveredAt: at, claimedBy: null, claimedUntil: null, maybeDelivered: false, ...(possibleDuplicate ? { possibleDuplicate: true } : {}) })
        .where(eq(outbox.id, id))
        .run();
    },

    /**
     * A failed attempt: back to pending for `retryAt`, or parked as failed when attempts are spent (no `retryAt`).
     * `maybeDelivered`: the attempt may have posted it all the same (a timeout...), so the platform is asked before the
     * next one. `rateLimited`: the platform only said "not now" (a 429), which spends no attempt.
     */
    markFailed(
      id: number,
      error: string,
      o: { retryAt?: number | undefined; possibleDuplicate?: boolean; maybeDelivered?: boolean; rateLimited?: boolean } = {},
    ): OutboxRow | undefined {
      const { retryAt, possibleDuplicate = false, maybeDelivered = false, rateLimited = false } = o;
      return db
        .update(outbox)
        .set({
          ...(rateLimited ? {} : { attempts: sql`${outbox.attempts} + 1` }),
          lastError: error.slice(0, 500),
          claimedBy: null,
          claimedUntil: null,
          ...(retryAt === undefined ? { state: 'failed' } : { state: 'pending', nextAttemptAt: retryAt }),
          ...(possibleDuplicate ? { possibleDuplicate: true } : {}),
          maybeDelivered,
        })
        .where(eq(outbox.id, id))
        .returning()
        .get();
    },

    /**
     * Gives back unfinished claims at shutdown, so the next start sends them without waiting for the lease. A post
     * still in flight may land after this: it goes back marked maybe delivered, so the next start asks first.
     */
    release(holder: string): number {
      return tx(() => {
        const inFlight = db.update(outbox).set({ state: 'pending', claimedBy: null, claimedUntil: null, maybeDelivered: true }).where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'sending'))).run().changes;
        return inFlight + db.update(outbox).set({ state: 'pending', claimedBy: null, claimedUntil: null }).where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'claimed'))).run().changes;
      });
    },

    /**
     * Bounded growth: delivered or failed entries older than `outboxMaxAgeMs` go (pending ones never do). What a search
     * has seen is kept as long as the search: a listing no run read for months may still be live deeper in the results,
     * and comes back to page 1 when newer ones are withdrawn; forgotten, it would be posted as new. It goes with the
     * search (cascade). Returns how many entries were deleted.
     */
    prune(at: number, options: { outboxMaxAgeMs: number }): { outbox: number } {
      return {
        outbox: db
          .delete(outbox)
          .where(and(inArray(outbox.state, ['delivered', 'failed']), lt(sql`coalesce(${outbox.deliveredAt}, ${outbox.createdAt})`, at - options.outboxMaxAgeMs)))
          .run().changes,
      };
    },

    outbox(filter: { place?: string; state?: string } = {}): OutboxRow[] {
      const where = and(filter.place ? eq(outbox.place, filter.place) : undefined, filter.state ? eq(outbox.state, filter.state) : undefined);
      return db.select().from(outbox).where(where).orderBy(asc(outbox.id)).all();
    },

    /** The earliest time a pending entry becomes due, if any. */
    nextDue(platforms: readonly string[]): number | undefined {
      const platformFilter = or(...platforms.map((p) => sql`${outbox.place} like ${`${p}:%`}`));
      const row = db
        .select({ t: sql<number | null>`min(case when ${outbox.state} = 'pending' then ${outbox.nextAttemptAt} else ${outbox.claimedUntil} end)` })
        .from(outbox)
        .where(and(platformFilter, inArray(outbox.state, ['pending', 'claimed', 'sending'])))
        .get();
      return row?.t ?? undefined;
    },

    stats(at: number = now()): OutboxStats {
      const rows = db
        .select({ state: outbox.state, n: sql<number>`count(*)`, oldest: sql<number | null>`min(${outbox.createdAt})`, dups: sql<number>`sum(${outbox.possibleDuplicate})` })
        .from(outbox)
        .groupBy(outbox.state)
        .all();
      const by = (s: string) => rows.find((r) => r.state === s);
      const oldest = Math.min(...['pending', 'claimed', 'sending'].map((s) => by(s)?.oldest ?? Infinity));
      return {
        pending: by('pending')?.n ?? 0,
        sending: (by('claimed')?.n ?? 0) + (by('sending')?.n ?? 0),
        inFlight: by('sending')?.n ?? 0,
        failed: by('failed')?.n ?? 0,
        delivered: by('delivered')?.n ?? 0,
        possibleDuplicates: rows.reduce((sum, r) => sum + (r.dups ?? 0), 0),
        oldestPendingMs: Number.isFinite(oldest) ? Math.max(0, at - oldest) : 0,
      };
    },

    /**
     * A lease on a singleton job: true when `holder` may run it until `at + ttlMs` (free, expired, or its own).
     * Several instances share one database; only one runs the poller at a time.
     */
    acquireLease(name: string, holder: string, at: number, ttlMs: number): boolean {
      return tx(() => {
        const row = db.select().from(jobLease).where(eq(jobLease.name, name)).get();
        if (row && row.holder !== holder && row.until > at) return false;
        db.insert(jobLease)
          .values({ name, holder, until: at + ttlMs })
          .onConflictDoUpdate({ target: jobLease.name, set: { holder, until: at + ttlMs } })
          .run();
        return true;
      });
    },

    finishLease(name: string, holder: string, run: { at: number; ms: number; ok: boolean }): void {
      db.update(jobLease)
        .set({ until: 0, lastRunAt: run.at, lastRunMs: run.ms, lastRunOk: run.ok })
        .where(and(eq(jobLease.name, name), eq(jobLease.holder, holder)))
        .run();
    },

    lastRun(name: string): { at: number; ms: number; ok: boolean } | undefined {
      const row = db.select().from(jobLease).where(eq(jobLease.name, name)).get();
      return row?.lastRunAt != null ? { at: row.lastRunAt, ms: row.lastRunMs ?? 0, ok: Boolean(row.lastRunOk) } : undefined;
    },
  };

  function commit(outcome: RunOutcome): number {
    const { searchId, at } = outcome;
    if (!db.select({ id: savedSearch.id }).from(savedSearch).where(eq(savedSearch.id, searchId)).get()) return 0; // removed meanwhile
    for (const s of outcome.seen) {
      const keepReported = s.reportedPrice === undefined;
      upsertSeen.run({
        searchId, propertyId: s.propertyId, at, price: s.price, reported: keepReported ? s.price : s.reportedPrice, keepReported: keepReported ? 1 : 0,
        locationKey: s.locationKey, bedrooms: s.bedrooms, size: s.size, posted: s.posted ? 1 : 0,
      });
    }
    let queued = 0;
    for (const d of outcome.deliveries) queued += enqueue(d, now());
    db.update(savedSearch)
      .set({
        lastRunAt: at,
        nextRunAt: at,
        ...(outcome.primed ? { primedAt: at } : {}),
        ...(outcome.clearError ? { lastError: null, errorSince: null, errorReported: false } : {}),
      })
      .where(eq(savedSearch.id, searchId))
      .run();
    return queued;
  }

  /** Inserts a delivery unless one with the same dedupe key exists: the same fact is never queued twice. */
  function enqueue(d: NewDelivery, at: number): number {
    return db
      .insert(outbox)
      .values({ searchId: d.searchId, place: d.place, kind: d.kind, propertyId: d.propertyId ?? null, dedupeKey: d.dedupeKey, payload: d.payload, createdAt: at, nextAttemptAt: at })
      .onConflictDoNothing({ target: outbox.dedupeKey })
      .run().changes;
  }
}

export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
