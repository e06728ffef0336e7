// What every kind of standing order stores alike on Postgres, as ../standing-orders.ts on SQLite (the contract:
// ../contracts/standing-orders.ts), over the one `standing_order` table. Several instances save at once here: a save
// takes its kind's advisory lock on the target (lockChannel) before it counts and numbers, so two saves in one target
// wait for each other.
import { and, asc, count, eq, like, lte, max, min, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DueScan, StandingOrderRow } from '../contracts/standing-orders.js';
import { firstFreeNumber, partsWhere } from '../alert-digest-writes.js';
import type { PgStore } from './open.js';
import { channelHold, standingOrder as o, standingOrderNumber } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

/** What a kind tells the shared part: its name, how its rows are read, what a part of a run is. */
export interface PgOrderKind<Row extends StandingOrderRow, Part> {
  kind: string;
  /** Its rows (the standing order joined with its side table) where `where` holds, in `order`. */
  read(r: PgRunner, where: SQL | undefined, order: SQL[]): Promise<Row[]>;
  /** Its side table joined to standing_order, for the due scan's grouping. */
  join: { table: PgTable; on: SQL };
  /** The kind's advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)). */
  lock: number;
  /** What a part of a shared run is (a column of either table). */
  part: SQL<Part>;
  /** The longest-waiting first, ascending (the id breaks ties). */
  wait: SQL;
  /** Resuming without a time makes it due at once (alerts) rather than at the time it had (digests). */
  resumeNow: boolean;
}

/** Only orders whose target is on one of `platforms`; none when the list is empty, all when unset. */
function onPlatforms(platforms: readonly string[] | undefined): SQL | undefined {
  if (platforms === undefined) return undefined;
  return or(sql`false`, ...platforms.map((p) => sql`substr(${o.channel}, 1, ${p.length + 1}::int) = ${`${p}:`}`));
}

/** The shared methods of one kind on Postgres. */
export function pgStandingOrdersOn<Row extends StandingOrderRow, Part>(
  store: PgStore,
  kind: PgOrderKind<Row, Part>,
  now: () => number,
) {
  const { db } = store;
  const ofKind = eq(o.kind, kind.kind);
  const countWhere = async (r: PgRunner, where: SQL | undefined): Promise<number> =>
    (await r.select({ n: count() }).from(o).where(and(ofKind, where)))[0]!.n;
  const dueWhere = (service: string, at: number, scan: DueScan | undefined) => {
    // An anti-join, not NOT IN (subquery): Postgres costs a hashed subplan again on every row of a nested loop, and so
    // read a job's due searches by scanning every search (18 ms a job at 100,000, issue 42) rather than by their
    // queries' index and the primary key.
    const held = db
      .select({ one: sql`1` })
      .from(channelHold)
      .where(eq(channelHold.channel, o.channel));
    return and(
      ofKind,
      eq(o.service, service),
      eq(o.paused, false),
      lte(o.nextRunAt, at),
      // Not run since: an instant alert's next_run_at is left as it was by its runs (runDone), its last run says it.
      sql`coalesce(${o.lastRunAt}, 0) <= ${at}`,
      notExists(held),
      onPlatforms(scan?.platforms),
    );
  };
  const first = async (where: SQL | undefined) => (await kind.read(db, where, []))[0];
  /** Serialises saves in one target until the transaction ends; take it first, before any other lock. */
  const lockChannel = async (tx: PgTx, channel: string): Promise<void> => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${kind.lock}::int, hashtext(${channel}))`);
  };

  return {
    countWhere,
    lockChannel,
    /** The next number in `channel`, never one given there before to this kind. Call holding the target's lock. */
    async nextNumber(tx: PgTx, channel: string): Promise<number> {
      const [top] = await tx
        .select({ n: max(o.number) })
        .from(o)
        .where(and(ofKind, eq(o.channel, channel)));
      const next = firstFreeNumber(top?.n);
      const n = standingOrderNumber;
      const [given] = await tx
        .insert(n)
        .values({ kind: kind.kind, channel, last: next })
        .onConflictDoUpdate({ target: [n.kind, n.channel], set: { last: sql`greatest(${n.last} + 1, ${next}::int)` } })
        .returning({ last: n.last });
      return given!.last;
    },
    shared: {
      async listByChannel(channel: string): Promise<Row[]> {
        return kind.read(db, and(ofKind, eq(o.channel, channel)), [asc(o.number)]);
      },
      async listByOwner(team: string, owner: string): Promise<Row[]> {
        // `_` in LIKE matches any character: the prefix is checked exactly.
        const rows = await kind.read(db, and(ofKind, eq(o.owner, owner), like(o.channel, `${team}:%`)), [
          asc(o.channel),
          asc(o.number),
        ]);
        return rows.filter((r) => r.channel.startsWith(`${team}:`));
      },
      async byNumber(channel: string, number: number): Promise<Row | undefined> {
        return first(and(ofKind, eq(o.channel, channel), eq(o.number, number)));
      },
      async byId(id: number): Promise<Row | undefined> {
        return first(and(ofKind, eq(o.id, id)));
      },
      async setPaused(id: number, paused: boolean, nextRunAt?: number, reason?: string): Promise<void> {
        const next = nextRunAt ?? (!paused && kind.resumeNow ? now() : undefined);
        await db
          .update(o)
          .set({
            paused,
            pausedReason: paused ? (reason ?? null) : null,
            ...(next !== undefined ? { nextRunAt: next } : {}),
          })
          .where(and(ofKind, eq(o.id, id)));
      },
      async dueParts(service: string, at: number, scan?: DueScan): Promise<Part[]> {
        const rows = await db
          .select({ part: kind.part })
          .from(o)
          .innerJoin(kind.join.table, kind.join.on)
          .where(dueWhere(service, at, scan))
          .groupBy(kind.part)
          .orderBy(min(kind.wait), min(o.id));
        return rows.map((r) => r.part);
      },
      async due(service: string, at: number, part?: Part | readonly Part[], scan?: DueScan): Promise<Row[]> {
        const onePart = partsWhere(kind.part, part);
        return kind.read(db, and(dueWhere(service, at, scan), onePart), [kind.wait, asc(o.id)]);
      },
      async count(service?: string): Promise<number> {
        return countWhere(db, service ? eq(o.service, service) : undefined);
      },
      async renumber(id: number, number: number): Promise<boolean> {
        return db.transaction(async (tx) => {
          const [row] = await tx
            .select({ channel: o.channel })
            .from(o)
            .where(and(ofKind, eq(o.id, id)));
          if (!row) return false;
          await lockChannel(tx, row.channel);
          const [held] = await tx
            .select({ id: o.id })
            .from(o)
            .where(and(ofKind, eq(o.channel, row.channel), eq(o.number, number)));
          if (held) return held.id === id;
          await tx
            .update(o)
            .set({ number })
            .where(and(ofKind, eq(o.id, id)));
          return true;
        });
      },
    },
  };
}
