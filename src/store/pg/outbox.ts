// The outbox on Postgres, implementing ../contracts/outbox.ts (which says what each method promises) as ../outbox.ts
// does on SQLite. SQLite has one writer at a time; here several instances claim at once, so a claim takes a lock on
// each channel it takes entries from and on each entry (FOR UPDATE SKIP LOCKED): two instances never claim one entry,
// nor one channel at the same time. Every change a drainer makes is fenced by its claim's token, as there.
import { and, asc, eq, gt, inArray, lt, ne, notExists, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { claimedEntries, firstChannels, INTERRUPTED, newEntry, statsOf } from '../claims.js';
import type { ClaimedEntry, ClaimOptions, NewDelivery, OutboxRepo } from '../contracts/outbox.js';
import { lineageSql, nextGeneration } from './meta.js';
import type { PgStore } from './open.js';
import { markDelivered, settleFollower } from './delivered.js';
import { outbox, channelHold } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

/**
 * Inserts a delivery unless one with the same dedupe key exists (the same fact is never queued twice), inside the
 * caller's transaction: 1 when inserted, 0 when it existed.
 */
export async function enqueueIn(tx: PgRunner, d: NewDelivery, at: number): Promise<number> {
  const result = await tx
    .insert(outbox)
    .values({ ...newEntry(d, at), origin: lineageSql })
    .onConflictDoNothing({ target: outbox.dedupeKey });
  return result.rowCount ?? 0;
}

/** Many deliveries in few statements (a busy run queues thousands), in their order; how many were new. */
export async function enqueueAllIn(tx: PgRunner, ds: readonly NewDelivery[], at: number): Promise<number> {
  let queued = 0;
  for (let i = 0; i < ds.length; i += ENQUEUE_CHUNK) {
    const rows = ds.slice(i, i + ENQUEUE_CHUNK).map((d) => ({ ...newEntry(d, at), origin: lineageSql }));
    // DO NOTHING also passes over a second row of this very statement with the same dedupe key.
    queued += (await tx.insert(outbox).values(rows).onConflictDoNothing({ target: outbox.dedupeKey })).rowCount ?? 0;
  }
  return queued;
}

const ENQUEUE_CHUNK = 500;

// The first key of the two-key advisory locks on channels, so they can never meet another lock of this database.
const CHANNEL_LOCKS = 0x6f7574; // 'out'

const platformFilter = (platforms: readonly string[]) =>
  or(...platforms.map((p) => sql`${outbox.channel} like ${`${p}:%`}`));
const owned = (id: number, token: number) =>
  and(eq(outbox.id, id), eq(outbox.claimToken, token), inArray(outbox.state, ['claimed', 'sending']));
const released = { claimedBy: null, claimedUntil: null, claimToken: null } as const;
const uncertainFrom = sql`coalesce(${outbox.uncertainSince}, ${outbox.lastAttemptAt}, ${outbox.createdAt})`;

/** Groups entries by their claim's token: one statement per claim, not per entry. */
function byToken(entries: readonly { id: number; token: number }[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const e of entries) out.set(e.token, [...(out.get(e.token) ?? []), e.id]);
  return out;
}

/** Due now, as ../outbox.ts decides: pending and due, or claimed with a claim that ran out or a holder that lapsed. */
function claimable(o: ClaimOptions): SQL | undefined {
  const lapsed = [...(o.lapsed ?? [])];
  return or(
    and(eq(outbox.state, 'pending'), sql`${outbox.nextAttemptAt} <= ${o.at}`),
    and(
      inArray(outbox.state, ['claimed', 'sending']),
      or(sql`${outbox.claimedUntil} <= ${o.at}`, lapsed.length > 0 ? inArray(outbox.claimedBy, lapsed) : undefined),
    ),
  );
}

/**
 * Where a claim looks: these platforms' due entries, not in a held or busy channel, nor in a channel another live
 * holder
 * has a claim in (its drainer posts that channel in order), as in ../outbox.ts.
 */
function claimableWhere(tx: PgTx, o: ClaimOptions): SQL | undefined {
  const lapsed = [...(o.lapsed ?? [])];
  const other = alias(outbox, 'other');
  const liveOther = tx
    .select({ id: other.id })
    .from(other)
    .where(
      and(
        eq(other.channel, outbox.channel),
        inArray(other.state, ['claimed', 'sending']),
        ne(other.claimedBy, o.holder),
        gt(other.claimedUntil, o.at),
        lapsed.length > 0 ? notInArray(other.claimedBy, lapsed) : undefined,
      ),
    );
  const held = tx.select({ channel: channelHold.channel }).from(channelHold).where(gt(channelHold.retryAt, o.at));
  return and(
    platformFilter(o.platforms),
    claimable(o),
    notInArray(outbox.channel, held),
    o.busy?.length ? notInArray(outbox.channel, [...o.busy]) : undefined,
    notExists(liveOther),
  );
}

/**
 * Locks up to `count` of the channels from `candidates[from]` on, in their order, skipping those another claim holds
 * right now; held until the transaction ends. Tried a batch at a time, so a claim locks hardly more channels than it
 * takes. `next`: where the next call goes on from.
 */
async function lockChannels(
  tx: PgTx,
  candidates: readonly string[],
  from: number,
  count: number,
): Promise<{ locked: string[]; next: number }> {
  const locked: string[] = [];
  let next = from;
  while (locked.length < count && next < candidates.length) {
    const batch = candidates.slice(next, next + count - locked.length);
    next += batch.length;
    const got = await tx.execute<{ channel: string }>(
      sql`SELECT p AS channel FROM json_array_elements_text(${JSON.stringify(batch)}::json) AS p WHERE pg_try_advisory_xact_lock(${CHANNEL_LOCKS}::int, hashtext(p))`,
    );
    const mine = new Set(got.rows.map((r) => r.channel));
    locked.push(...batch.filter((p) => mine.has(p)));
  }
  return { locked, next };
}

/**
 * The claim's entries, locked: in each of the locked channels, its oldest `perChannel` due entries. A channel one of
 * whose
 * picked entries could not be taken (another transaction holds it, such as a lapsed holder's late change, or it changed
 * since) is left for the next claim, so a channel's entries are never taken out of order.
 */
async function lockEntries(tx: PgTx, o: ClaimOptions, channels: readonly string[], take: number) {
  if (channels.length === 0) return [];
  const ranked = tx
    .select({
      id: outbox.id,
      channel: outbox.channel,
      n: sql<number>`row_number() over (partition by ${outbox.channel} order by ${outbox.id})`.as('n'),
    })
    .from(outbox)
    .where(and(claimableWhere(tx, o), inArray(outbox.channel, [...channels])))
    .as('ranked');
  const picked = await tx
    .select({ id: ranked.id, channel: ranked.channel })
    .from(ranked)
    .where(sql`${ranked.n} <= ${o.perChannel}`)
    .orderBy(asc(ranked.id));
  if (picked.length === 0) return [];
  // Claimable checked again on each row as locked: a row changed since the pick is taken only if it still is.
  const rows = await tx
    .select()
    .from(outbox)
    .where(
      and(
        inArray(
          outbox.id,
          picked.map((r) => r.id),
        ),
        claimable(o),
      ),
    )
    .orderBy(asc(outbox.id))
    .for('update', { skipLocked: true });
  const got = new Set(rows.map((r) => r.id));
  const incomplete = new Set(picked.filter((r) => !got.has(r.id)).map((r) => r.channel));
  const keep = new Set(
    firstChannels(
      picked.filter((r) => !incomplete.has(r.channel)),
      take,
    ),
  );
  return rows.filter((r) => keep.has(r.id));
}

export function createPgOutboxRepo(store: PgStore, now: () => number = Date.now): OutboxRepo {
  const { db } = store;
  const count = (result: { rowCount: number | null }) => result.rowCount ?? 0;

  /**
   * Takes entries due now, as ../outbox.ts does (at most `perChannel` per channel over at most `channels` channels, oldest
   * first, held and busy channels left alone; a post found in flight recorded as maybe delivered), in one transaction:
   * the channels by their oldest due entry, each locked for the claim (one another claim holds is passed over), then
   * their entries, then the claim written under a new token. Several instances claim at once here, which SQLite's
   * single writer never does: the locks keep each entry, and each channel, to one claim.
   */
  async function claimDue(o: ClaimOptions): Promise<ClaimedEntry[]> {
    if (o.platforms.length === 0) return [];
    return db.transaction(async (tx) => {
      const candidates = await tx
        .select({ channel: outbox.channel })
        .from(outbox)
        .where(claimableWhere(tx, o))
        .groupBy(outbox.channel)
        .orderBy(sql`min(${outbox.id})`);
      // A channel locked here may yield nothing: another claim that committed after the candidates were read took it
      // (its locks ended with its transaction). The claim then goes on down the list rather than coming back short.
      const order = candidates.map((c) => c.channel);
      const rows: Awaited<ReturnType<typeof lockEntries>> = [];
      const taken = new Set<string>();
      for (let from = 0; taken.size < o.channels && from < order.length;) {
        const batch = await lockChannels(tx, order, from, o.channels - taken.size);
        from = batch.next;
        for (const row of await lockEntries(tx, o, batch.locked, o.channels - taken.size)) {
          rows.push(row);
          taken.add(row.channel);
        }
      }
      if (rows.length === 0) return [];
      rows.sort((a, b) => a.id - b.id);
      const token = await nextGeneration(tx);
      await tx
        .update(outbox)
        .set({
          state: 'claimed',
          claimedBy: o.holder,
          claimedUntil: o.at + o.leaseMs,
          claimToken: token,
          maybeDelivered: sql`${outbox.maybeDelivered} or ${outbox.state} = 'sending'`,
          uncertainSince: sql`case when ${outbox.state} = 'sending' then ${uncertainFrom} else ${outbox.uncertainSince} end`,
        })
        .where(
          inArray(
            outbox.id,
            rows.map((r) => r.id),
          ),
        );
      // The latest post started in each claimed channel, whoever started it: one grouped query for the claim.
      const last = await tx
        .select({ channel: outbox.channel, at: sql<number | null>`max(${outbox.lastAttemptAt})`.mapWith(Number) })
        .from(outbox)
        .where(inArray(outbox.channel, [...new Set(rows.map((r) => r.channel))]))
        .groupBy(outbox.channel);
      return claimedEntries(rows, token, last);
    });
  }

  return {
    enqueue: (d, at = now()) => enqueueIn(db, d, at),

    claimDue,

    async extendClaims(entries, until) {
      let n = 0;
      for (const [token, ids] of byToken(entries)) {
        n += count(
          await db
            .update(outbox)
            .set({ claimedUntil: until })
            .where(and(eq(outbox.claimToken, token), eq(outbox.state, 'claimed'), inArray(outbox.id, ids))),
        );
      }
      return n;
    },

    async markPosting(id, token, at, until) {
      const result = await db
        .update(outbox)
        .set({
          state: 'sending',
          claimedUntil: until,
          firstAttemptAt: sql`coalesce(${outbox.firstAttemptAt}, ${at})`,
          lastAttemptAt: at,
        })
        .where(and(eq(outbox.id, id), eq(outbox.claimToken, token), eq(outbox.state, 'claimed')));
      return count(result) === 1;
    },

    markDelivered: (id, token, messageId, at, possibleDuplicate = false, threadRoot = false) =>
      markDelivered(db, { id, token, messageId, at, possibleDuplicate, threadRoot }),

    async markFailed(id, token, f) {
      const [row] = await db
        .update(outbox)
        .set({
          ...(f.spendAttempt === false ? {} : { attempts: sql`${outbox.attempts} + 1` }),
          lastError: f.error.slice(0, 500),
          ...released,
          ...(f.retryAt === undefined ? { state: 'failed' } : { state: 'pending', nextAttemptAt: f.retryAt }),
          maybeDelivered: sql`${outbox.maybeDelivered} or ${f.maybeDelivered === true}`,
          ...(f.maybeDelivered ? { uncertainSince: uncertainFrom } : {}),
          ...(f.possibleDuplicate ? { possibleDuplicate: true } : {}),
        })
        .where(owned(id, token))
        .returning();
      return row;
    },

    settleFollower: (id, token, followed) => settleFollower(db, { id, token, followed }),

    async requeue(entries, at) {
      if (entries.length === 0) return;
      await db.transaction(async (tx) => {
        for (const [token, ids] of byToken(entries)) {
          await tx
            .update(outbox)
            .set({ state: 'pending', ...released, nextAttemptAt: sql`greatest(${outbox.nextAttemptAt}, ${at})` })
            .where(and(eq(outbox.claimToken, token), eq(outbox.state, 'claimed'), inArray(outbox.id, ids)));
        }
      });
    },

    async release(holder) {
      return db.transaction(async (tx) => {
        const inFlight = await tx
          .update(outbox)
          .set({
            state: 'pending',
            ...released,
            maybeDelivered: true,
            lastError: INTERRUPTED,
            uncertainSince: uncertainFrom,
          })
          .where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'sending')));
        const waiting = await tx
          .update(outbox)
          .set({ state: 'pending', ...released })
          .where(and(eq(outbox.claimedBy, holder), eq(outbox.state, 'claimed')));
        return count(inFlight) + count(waiting);
      });
    },

    async retryParked(which, at = now()) {
      return count(
        await db
          .update(outbox)
          .set({ state: 'pending', nextAttemptAt: at, firstAttemptAt: null, attempts: 0, ...released })
          .where(and(eq(outbox.state, 'failed'), which === 'all' ? undefined : eq(outbox.id, which))),
      );
    },

    async holdChannel(channel, reason, at, retryAt) {
      // One statement: xmax is 0 on a row this statement inserted, not on one it updated.
      const [row] = await db
        .insert(channelHold)
        .values({ channel, reason: reason.slice(0, 300), since: at, retryAt })
        .onConflictDoUpdate({ target: channelHold.channel, set: { reason: reason.slice(0, 300), retryAt } })
        .returning({ inserted: sql<boolean>`xmax = 0` });
      return row!.inserted;
    },

    async releaseChannel(channel, at = now()) {
      return db.transaction(async (tx) => {
        if (count(await tx.delete(channelHold).where(eq(channelHold.channel, channel))) === 0) return false;
        await tx
          .update(outbox)
          .set({ nextAttemptAt: at })
          .where(and(eq(outbox.channel, channel), eq(outbox.state, 'pending'), sql`${outbox.nextAttemptAt} > ${at}`));
        return true;
      });
    },

    heldChannels: () => db.select().from(channelHold),

    async heldChannel(channel) {
      const [row] = await db
        .select({ reason: channelHold.reason, since: channelHold.since })
        .from(channelHold)
        .where(eq(channelHold.channel, channel));
      return row;
    },

    async prune(at, options) {
      const result = await db
        .delete(outbox)
        .where(
          and(
            inArray(outbox.state, ['delivered', 'failed', 'folded']),
            lt(sql`coalesce(${outbox.deliveredAt}, ${outbox.createdAt})`, at - options.outboxMaxAgeMs),
          ),
        );
      return { outbox: count(result) };
    },

    async list(filter = {}) {
      const states =
        filter.state === undefined ? undefined : typeof filter.state === 'string' ? [filter.state] : [...filter.state];
      const where = and(
        filter.channel ? eq(outbox.channel, filter.channel) : undefined,
        states ? inArray(outbox.state, states) : undefined,
      );
      return db.select().from(outbox).where(where).orderBy(asc(outbox.id));
    },

    async byId(id) {
      const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
      return row;
    },

    async nextDue(platforms) {
      if (platforms.length === 0) return undefined;
      const heldUntil = sql`coalesce((SELECT ${channelHold.retryAt} FROM ${channelHold} WHERE ${channelHold.channel} = ${outbox.channel}), 0)`;
      const [row] = await db
        .select({
          t: sql<
            number | null
          >`min(case when ${outbox.state} = 'pending' then greatest(${outbox.nextAttemptAt}, ${heldUntil}) else ${outbox.claimedUntil} end)`.mapWith(
            Number,
          ),
        })
        .from(outbox)
        .where(and(platformFilter(platforms), inArray(outbox.state, ['pending', 'claimed', 'sending'])));
      return row?.t ?? undefined;
    },

    async stats(at = now()) {
      const rows = await db
        .select({
          state: outbox.state,
          n: sql<number>`count(*)`.mapWith(Number),
          oldest: sql<number | null>`min(${outbox.createdAt})`.mapWith(Number),
          dups: sql<number>`count(*) filter (where ${outbox.possibleDuplicate})`.mapWith(Number),
        })
        .from(outbox)
        .groupBy(outbox.state);
      const [held] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(channelHold);
      return statsOf(rows, held!.n, at);
    },

    async releaseHeld(at, fold) {
      const due = and(eq(outbox.state, 'held'), sql`${outbox.nextAttemptAt} <= ${at}`);
      const channels = await db.selectDistinct({ channel: outbox.channel }).from(outbox).where(due);
      let queued = 0;
      for (const { channel } of channels) {
        // The update locks the rows it takes: an instance releasing the same channel at once waits, then takes none.
        queued += await db.transaction(async (tx) => {
          const held = (
            await tx
              .update(outbox)
              .set({ state: 'pending', nextAttemptAt: at })
              .where(and(due, eq(outbox.channel, channel)))
              .returning()
          ).sort((a, b) => a.id - b.id);
          if (held.length <= 1) return held.length;
          await tx
            .update(outbox)
            .set({ state: 'folded' })
            .where(
              inArray(
                outbox.id,
                held.map((r) => r.id),
              ),
            );
          return enqueueIn(tx, fold(channel, held), at);
        });
      }
      return queued;
    },

    async latestOf(channel, kind, searchId) {
      const [row] = await db
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
        .limit(1);
      return row;
    },
  };
}
