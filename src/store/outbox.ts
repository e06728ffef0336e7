// The outbox: deliveries of any kind (alert cards, notices, digests) waiting for, or done by, a chat platform.
// src/outbox decides; this file only stores. Fencing: a claim carries a token (a new generation per claim), and every
// change a drainer makes checks it, so an instance that lost its claim (it stalled, another took the entry over) can
// change nothing.
import { and, asc, eq, inArray, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import {
  claimedEntries,
  deliveryIdOf,
  firstChannels,
  followedVerdict,
  INTERRUPTED,
  newEntry,
  statsOf,
} from './claims.js';
import type {
  ClaimedEntry,
  ClaimedRef,
  ClaimOptions,
  FailedAttempt,
  HeldChannel,
  NewDelivery,
  OutboxRepo,
  OutboxRow,
  OutboxStats,
} from './contracts/outbox.js';
import type { Synced } from './contracts/synced.js';
import type { Store } from './db.js';
import { nextGeneration, readDbId } from './meta.js';
import { outbox, channelHold } from './schema.js';

// Pure rules shared with the Postgres outbox (./claims.ts), exported from here as before.
export { deliveryIdOf, INTERRUPTED };

const platformFilter = (platforms: readonly string[]) =>
  or(...platforms.map((p) => sql`${outbox.channel} like ${`${p}:%`}`));

export function createOutboxRepo(store: Store, now: () => number = Date.now): Synced<OutboxRepo> {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const owned = (id: number, token: number) =>
    and(eq(outbox.id, id), eq(outbox.claimToken, token), inArray(outbox.state, ['claimed', 'sending']));
  const release = { claimedBy: null, claimedUntil: null, claimToken: null } as const;

  /** Inserts a delivery unless one with the same dedupe key exists: the same fact is never queued twice. */
  // The drainer's hot path (a few statements per post): prepared once, not built per call.
  const extendStmt = sqlite.prepare(
    `UPDATE outbox SET claimed_until = @until WHERE claim_token = @token AND state = 'claimed' AND id IN (SELECT value FROM json_each(@ids))`,
  );
  const postingStmt = sqlite.prepare(
    `UPDATE outbox SET state = 'sending', claimed_until = @until, first_attempt_at = coalesce(first_attempt_at, @at), last_attempt_at = @at
     WHERE id = @id AND claim_token = @token AND state = 'claimed'`,
  );
  const deliveredStmt = sqlite.prepare(
    `UPDATE outbox SET state = 'delivered', message_id = @messageId, delivered_at = @at, claimed_by = NULL, claimed_until = NULL,
       claim_token = NULL, maybe_delivered = 0, uncertain_since = NULL, possible_duplicate = max(possible_duplicate, @dup)
     WHERE id = @id AND claim_token = @token AND state IN ('claimed', 'sending')`,
  );
  // Where a listing's first card landed (issue 40): its channel's row, by the outbox row's keys (all primary keys).
  const threadRootStmt = sqlite.prepare(
    `UPDATE channel_posted SET message_ref = @messageId
     WHERE message_ref IS NULL AND (service, place, property_id) =
       (SELECT s.service, o.place, o.property_id FROM outbox o JOIN standing_order s ON s.id = o.search_id WHERE o.id = @id)`,
  );
  const unholdStmt = sqlite.prepare(`DELETE FROM place_hold WHERE place = ?`);

  // A busy run's commit queues thousands: prepared once. The origin is the lineage, or the db id when none was
  // recorded, as readLineage reads it (../meta.ts).
  const enqueueStmt = sqlite.prepare(
    `INSERT INTO outbox (search_id, place, kind, property_id, dedupe_key, payload, created_at, next_attempt_at,
       state, maybe_delivered, uncertain_since, origin)
     VALUES (@searchId, @channel, @kind, @propertyId, @dedupeKey, @payload, @at, @nextAttemptAt, @state, @maybe,
       @uncertainSince,
       coalesce((SELECT value FROM db_meta WHERE key = 'lineage'), @dbId))
     ON CONFLICT (dedupe_key) DO NOTHING`,
  );

  function enqueue(d: NewDelivery, at: number = now()): number {
    const e = newEntry(d, at);
    return enqueueStmt.run({
      searchId: e.searchId,
      channel: e.channel,
      kind: e.kind,
      propertyId: e.propertyId,
      dedupeKey: e.dedupeKey,
      payload: e.payload,
      at,
      // Held for quiet hours (never claimed until released), else pending and due now.
      nextAttemptAt: e.nextAttemptAt,
      state: e.state ?? 'pending',
      maybe: e.maybeDelivered ? 1 : 0,
      uncertainSince: e.uncertainSince ?? null,
      dbId: readDbId(sqlite),
    }).changes;
  }

  return {
    enqueue,

    /**
     * Takes entries due now, at most `perChannel` per channel over at most `channels` channels, oldest first: pending ones
     * due, ones whose claim ran out or whose holder's heartbeat lapsed (`claimed`: never posted; `sending`: posted when
     * it stopped, so recorded as maybe delivered). Held channels and `busy` ones are left alone.
     */
    claimDue(o: ClaimOptions): ClaimedEntry[] {
      if (o.platforms.length === 0) return [];
      return tx(() => {
        const lapsed = [...(o.lapsed ?? [])];
        const claimable = or(
          and(eq(outbox.state, 'pending'), sql`${outbox.nextAttemptAt} <= ${o.at}`),
          and(
            inArray(outbox.state, ['claimed', 'sending']),
            or(
              sql`${outbox.claimedUntil} <= ${o.at}`,
              lapsed.length > 0 ? inArray(outbox.claimedBy, lapsed) : undefined,
            ),
          ),
        );
        const held = db
          .select({ channel: channelHold.channel })
          .from(channelHold)
          .where(sql`${channelHold.retryAt} > ${o.at}`);
        // A channel another holder is still working on waits for it: one drainer posts a channel, in order.
        const taken = db
          .select({ channel: outbox.channel })
          .from(outbox)
          .where(
            and(
              inArray(outbox.state, ['claimed', 'sending']),
              sql`${outbox.claimedUntil} > ${o.at}`,
              ne(outbox.claimedBy, o.holder),
              lapsed.length > 0 ? notInArray(outbox.claimedBy, lapsed) : undefined,
            ),
          );
        const where = and(
          platformFilter(o.platforms),
          claimable,
          notInArray(outbox.channel, held),
          notInArray(outbox.channel, taken),
          o.busy?.length ? notInArray(outbox.channel, [...o.busy]) : undefined,
        );
        // Oldest first per channel, and channels by their oldest entry: one busy channel never fills a whole claim.
        const ranked = db
          .select({
            id: outbox.id,
            channel: outbox.channel,
            n: sql<number>`row_number() over (partition by ${outbox.channel} order by ${outbox.id})`.as('n'),
          })
          .from(outbox)
          .where(where)
          .as('ranked');
        const picked = db
          .select({ id: ranked.id, channel: ranked.channel })
          .from(ranked)
          .where(sql`${ranked.n} <= ${o.perChannel}`)
          .orderBy(asc(ranked.id))
          .all();
        const ids = firstChannels(picked, o.channels);
        if (ids.length === 0) return [];
        const rows = db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(asc(outbox.id)).all();
        const token = nextGeneration(sqlite);
        // A post found in flight (a crash) is recorded as maybe delivered, not only remembered here: if the entry goes
        // back to the queue before its turn, the next claim still looks for it before sending.
        db.update(outbox)
          .set({
            state: 'claimed',
            claimedBy: o.holder,
            claimedUntil: o.at + o.leaseMs,
            claimToken: token,
            maybeDelivered: sql`${outbox.maybeDelivered} or ${outbox.state} = 'sending'`,
            uncertainSince: sql`case when ${outbox.state} = 'sending' then coalesce(${outbox.uncertainSince}, ${outbox.lastAttemptAt}, ${outbox.createdAt}) else ${outbox.uncertainSince} end`,
          })
          .where(inArray(outbox.id, ids))
          .run();
        // The latest post started in each claimed channel, whoever started it: one grouped query for the claim.
        const last = db
          .select({ channel: outbox.channel, at: sql<number | null>`max(${outbox.lastAttemptAt})` })
          .from(outbox)
          .where(inArray(outbox.channel, [...new Set(rows.map((r) => r.channel))]))
          .groupBy(outbox.channel)
          .all();
        return claimedEntries(rows, token, last);
      });
    },

    /** Extends claims while their entries wait their turn in a channel's queue (one statement for the whole queue). */
    extendClaims(entries: readonly ClaimedRef[], until: number): number {
      if (entries.length === 0) return 0;
      const byToken = new Map<number, number[]>();
      for (const e of entries) byToken.set(e.token, [...(byToken.get(e.token) ?? []), e.id]);
      let n = 0;
      for (const [token, ids] of byToken) n += extendStmt.run({ token, until, ids: JSON.stringify(ids) }).changes;
      return n;
    },

    /**
     * Its post starts now: `sending` until `until`. A crash from here on leaves it `sending`, and the next claim looks
     * for
     * it before sending it again. False when the claim is no longer this token's: then it must not post.
     */
    markPosting(id: number, token: number, at: number, until: number): boolean {
      return postingStmt.run({ id, token, at, until }).changes === 1;
    },

    /** The platform has it. Only by the claim's holder: a stalled instance's late answer changes nothing. */
    markDelivered(
      id: number,
      token: number,
      messageId: string,
      at: number,
      possibleDuplicate = false,
      threadRoot = false,
    ): boolean {
      const mark = () => deliveredStmt.run({ id, token, messageId, at, dup: possibleDuplicate ? 1 : 0 }).changes === 1;
      if (!threadRoot) return mark();
      // The card's place is written with its delivery or not at all: one transaction, only when this claim marked it.
      return tx(() => {
        const marked = mark();
        if (marked) threadRootStmt.run({ id, messageId });
        return marked;
      });
    },

    /** A failed attempt or a look that could not answer: back to pending for `retryAt`, or parked. Fenced. */
    markFailed(id: number, token: number, f: FailedAttempt): OutboxRow | undefined {
      return db
        .update(outbox)
        .set({
          ...(f.spendAttempt === false ? {} : { attempts: sql`${outbox.attempts} + 1` }),
          lastError: f.error.slice(0, 500),
          ...release,
          ...(f.retryAt === undefined ? { state: 'failed' } : { state: 'pending', nextAttemptAt: f.retryAt }),
          // An earlier attempt that may have posted stays unresolved until the entry is delivered (or found).
          maybeDelivered: sql`${outbox.maybeDelivered} or ${f.maybeDelivered ? 1 : 0}`,
          ...(f.maybeDelivered
            ? { uncertainSince: sql`coalesce(${outbox.uncertainSince}, ${outbox.lastAttemptAt}, ${outbox.createdAt})` }
            : {}),
          ...(f.possibleDuplicate ? { possibleDuplicate: true } : {}),
        })
        .where(owned(id, token))
        .returning()
        .get();
    },

    settleFollower(id: number, token: number, followed: readonly string[]): 'post' | 'wait' | 'folded' {
      return tx(() => {
        const rows = db
          .select({ state: outbox.state, firstAttemptAt: outbox.firstAttemptAt })
          .from(outbox)
          .where(inArray(outbox.dedupeKey, [...followed]))
          .all();
        const verdict = followedVerdict(rows);
        if (verdict !== 'fold') return verdict;
        const folded = db
          .update(outbox)
          .set({ state: 'folded', ...release })
          .where(owned(id, token))
          .run();
        return folded.changes === 1 ? 'folded' : 'wait';
      });
    },

    /**
     * Gives claimed entries back unposted and without spending an attempt, due at `at` at the earliest (a channel held
     * by
     * a Retry-After keeps its order: every entry waits, not only the refused one). Their maybe-delivered flag stays.
     */
    requeue(entries: readonly ClaimedRef[], at: number): void {
      if (entries.length === 0) return;
      tx(() => {
        for (const e of entries) {
          db.update(outbox)
            .set({ state: 'pending', ...release, nextAttemptAt: sql`max(${outbox.nextAttemptAt}, ${at})` })
            .where(and(owned(e.id, e.token), eq(outbox.state, 'claimed')))
            .run();
        }
      });
    },

    /**
     * Gives back an instance's unfinished claims at shutdown, so the next start sends them without waiting. A post
     * still
     * in flight may land after this: it goes back marked maybe delivered, so it is looked for first.
     */
    release(holder: string): number {
      return tx(() => {
        const inFlight = db
          .update(outbox)
          .set({
            state: 'pending',
            ...release,
            maybeDelivered: true,
            lastError: INTERRUPTED,
            uncertainSince: sql`coalesce(${outbox.uncertainSince}, ${outbox.lastAttemptAt}, ${outbox.createdAt})`,
          })
          .where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'sending')))
          .run().changes;
        return (
          inFlight +
          db
            .update(outbox)
            .set({ state: 'pending', ...release })
            .where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'claimed')))
            .run().changes
        );
      });
    },

    /** Parked entries back to the queue (one by id, or all): `manzil outbox retry`. Returns how many. */
    retryParked(which: number | 'all', at: number = now()): number {
      return db
        .update(outbox)
        .set({ state: 'pending', nextAttemptAt: at, firstAttemptAt: null, attempts: 0, ...release })
        .where(and(eq(outbox.state, 'failed'), which === 'all' ? undefined : eq(outbox.id, which)))
        .run().changes;
    },

    /** Holds a channel that cannot receive until `retryAt`; true when it was not held before (say so once). */
    holdChannel(channel: string, reason: string, at: number, retryAt: number): boolean {
      return tx(() => {
        const before = db.select().from(channelHold).where(eq(channelHold.channel, channel)).get();
        db.insert(channelHold)
          .values({ channel, reason: reason.slice(0, 300), since: at, retryAt })
          .onConflictDoUpdate({ target: channelHold.channel, set: { reason: reason.slice(0, 300), retryAt } })
          .run();
        return before === undefined;
      });
    },

    /** The channel can receive again (a post went through, or a person said so): no longer held, its queue due now. */
    releaseChannel(channel: string, at: number = now()): boolean {
      // Called after every delivered post: a plain prepared delete when the channel was not held (nearly always).
      if (unholdStmt.run(channel).changes === 0) return false;
      db.update(outbox)
        .set({ nextAttemptAt: at })
        .where(and(eq(outbox.channel, channel), eq(outbox.state, 'pending'), sql`${outbox.nextAttemptAt} > ${at}`))
        .run();
      return true;
    },

    /** Every held channel, with when it is tried again. */
    heldChannels(): HeldChannel[] {
      return db.select().from(channelHold).all();
    },

    heldChannel(channel: string): { reason: string; since: number } | undefined {
      return db
        .select({ reason: channelHold.reason, since: channelHold.since })
        .from(channelHold)
        .where(eq(channelHold.channel, channel))
        .get();
    },

    /**
     * Bounded growth: delivered or parked entries older than `outboxMaxAgeMs` go (pending ones never do).
     * Returns how many entries were deleted.
     */
    prune(at: number, options: { outboxMaxAgeMs: number }): { outbox: number } {
      return {
        outbox: db
          .delete(outbox)
          .where(
            and(
              inArray(outbox.state, ['delivered', 'failed', 'folded']),
              lt(sql`coalesce(${outbox.deliveredAt}, ${outbox.createdAt})`, at - options.outboxMaxAgeMs),
            ),
          )
          .run().changes,
      };
    },

    list(filter: { channel?: string; state?: string | readonly string[] } = {}): OutboxRow[] {
      const states =
        filter.state === undefined ? undefined : typeof filter.state === 'string' ? [filter.state] : [...filter.state];
      const where = and(
        filter.channel ? eq(outbox.channel, filter.channel) : undefined,
        states ? inArray(outbox.state, states) : undefined,
      );
      return db.select().from(outbox).where(where).orderBy(asc(outbox.id)).all();
    },

    byId(id: number): OutboxRow | undefined {
      return db.select().from(outbox).where(eq(outbox.id, id)).get();
    },

    /** The earliest time an entry of these platforms becomes due, if any. */
    nextDue(platforms: readonly string[]): number | undefined {
      if (platforms.length === 0) return undefined;
      const row = db
        .select({
          t: sql<
            number | null
          >`min(case when ${outbox.state} = 'pending' then max(${outbox.nextAttemptAt}, coalesce((select ${channelHold.retryAt} from ${channelHold} where ${channelHold.channel} = ${outbox.channel}), 0)) else ${outbox.claimedUntil} end)`,
        })
        .from(outbox)
        .where(and(platformFilter(platforms), inArray(outbox.state, ['pending', 'claimed', 'sending'])))
        .get();
      return row?.t ?? undefined;
    },

    stats(at: number = now()): OutboxStats {
      const rows = db
        .select({
          state: outbox.state,
          n: sql<number>`count(*)`,
          oldest: sql<number | null>`min(${outbox.createdAt})`,
          dups: sql<number>`sum(${outbox.possibleDuplicate})`,
        })
        .from(outbox)
        .groupBy(outbox.state)
        .all();
      const held = db
        .select({ n: sql<number>`count(*)` })
        .from(channelHold)
        .get()!.n;
      return statsOf(rows, held, at);
    },

    releaseHeld(at: number, fold: (channel: string, held: OutboxRow[]) => NewDelivery): number {
      const due = and(eq(outbox.state, 'held'), sql`${outbox.nextAttemptAt} <= ${at}`);
      const channels = db.selectDistinct({ channel: outbox.channel }).from(outbox).where(due).all();
      let queued = 0;
      for (const { channel } of channels) {
        queued += tx(() => {
          const held = db
            .select()
            .from(outbox)
            .where(and(due, eq(outbox.channel, channel)))
            .orderBy(asc(outbox.id))
            .all();
          if (held.length === 0) return 0;
          const ids = held.map((r) => r.id);
          if (held.length === 1) {
            db.update(outbox).set({ state: 'pending', nextAttemptAt: at }).where(eq(outbox.id, ids[0]!)).run();
            return 1;
          }
          db.update(outbox).set({ state: 'folded' }).where(inArray(outbox.id, ids)).run();
          return enqueue(fold(channel, held), at);
        });
      }
      return queued;
    },

    latestOf(channel: string, kind: string, searchId?: number): OutboxRow | undefined {
      return db
        .select()
        .from(outbox)
        .where(
          and(
            eq(outbox.channel, channel),
            eq(outbox.kind, kind),
            ne(outbox.state, 'folded'),
            searchId === undefined ? undefined : eq(outbox.searchId, searchId),
          ),
        )
        .orderBy(sql`${outbox.id} desc`)
        .limit(1)
        .get();
    },
  };
}
