// What every kind of standing order stores alike on SQLite (the contract: ./contracts/standing-orders.ts), over the one
// `standing_order` table: numbering per target, reading by target, number and id, pausing, the due scan and counting.
// Each kind's repository (./alert-definitions.ts, ./digests.ts) spreads this in and adds its side table's methods.
import { and, asc, eq, like, lte, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Store } from './db.js';
import type { DueScan, StandingOrderRow } from './contracts/standing-orders.js';
import { firstFreeNumber, partsWhere } from './alert-digest-writes.js';
import { channelHold, standingOrder as o, standingOrderNumber } from './schema.js';

/** What a kind tells the shared part: its name, how its rows are read, what a part of a run is. */
export interface OrderKind<Row extends StandingOrderRow, Part> {
  kind: string;
  /** Its rows (the standing order joined with its side table) where `where` holds, in `order`. */
  read(where: SQL | undefined, order: SQL[]): Row[];
  /** The same read prepared once, `where` holding `sql.placeholder`s that each call fills in (hot reads only). */
  prepareRead(where: SQL | undefined, order: SQL[]): (params: Record<string, unknown>) => Row[];
  /** Its side table joined to standing_order, for the due scan's grouping. */
  join: { table: SQLiteTable; on: SQL };
  /** What a part of a shared run is (a column of either table). */
  part: SQL<Part>;
  /** The longest-waiting first, ascending (the id breaks ties). */
  wait: SQL;
  /** Resuming without a time makes it due at once (alerts) rather than at the time it had (digests). */
  resumeNow: boolean;
}

/** Only orders whose target is on one of `platforms`; none when the list is empty, all when unset. */
export function onPlatforms(platforms: readonly string[] | undefined): SQL | undefined {
  if (platforms === undefined) return undefined;
  // Compared exactly (LIKE would ignore case on SQLite): the target's text up to and with the first colon.
  return or(sql`1 = 0`, ...platforms.map((p) => sql`substr(${o.channel}, 1, ${p.length + 1}) = ${`${p}:`}`));
}

/** The shared methods of one kind on SQLite. */
export function standingOrdersOn<Row extends StandingOrderRow, Part>(
  store: Store,
  kind: OrderKind<Row, Part>,
  now: () => number,
) {
  const { db } = store;
  const ofKind = eq(o.kind, kind.kind);
  // Each post the outbox delivers reads its alert by id (its buttons and the channel's matching alerts): prepared
  // once, not built by drizzle and prepared by SQLite on every call.
  const byIdRead = kind.prepareRead(and(ofKind, eq(o.id, sql.placeholder('id'))), []);
  const countWhere = (where: SQL | undefined): number =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(o)
      .where(and(ofKind, where))
      .get()!.n;
  const dueWhere = (service: string, at: number, scan: DueScan | undefined, byPart = false) => {
    const held = db.select({ channel: channelHold.channel }).from(channelHold);
    return and(
      // A batch's due read goes by its parts' index (an alert's params key, a digest's id): with `+` the kind keeps
      // SQLite off the due index, which it otherwise walks for every due order of the service, batch after batch
      // (a fresh database has no statistics to tell it better): 3.5 ms a batch at 10,000 alerts, and growing.
      byPart ? sql`+${o.kind} = ${kind.kind}` : ofKind,
      eq(o.service, service),
      eq(o.paused, false),
      lte(o.nextRunAt, at),
      // Not run since: an instant alert's next_run_at is left as it was by its runs (runDone), its last run says it.
      sql`coalesce(${o.lastRunAt}, 0) <= ${at}`,
      notInArray(o.channel, held),
      onPlatforms(scan?.platforms),
    );
  };

  return {
    /** Counts in a target (the per-channel limit; call inside the save's transaction). */
    countIn: (channel: string) => countWhere(eq(o.channel, channel)),
    countWhere,
    /** The next number in `channel`, never one given there before to this kind. Call inside the save's transaction. */
    nextNumber(channel: string): number {
      const top = db
        .select({ n: sql<number | null>`max(${o.number})` })
        .from(o)
        .where(and(ofKind, eq(o.channel, channel)))
        .get()!.n;
      const next = firstFreeNumber(top);
      const n = standingOrderNumber;
      return db
        .insert(n)
        .values({ kind: kind.kind, channel, last: next })
        .onConflictDoUpdate({ target: [n.kind, n.channel], set: { last: sql`max(${n.last} + 1, ${next})` } })
        .returning()
        .get().last;
    },
    shared: {
      listByChannel(channel: string): Row[] {
        return kind.read(and(ofKind, eq(o.channel, channel)), [asc(o.number)]);
      },
      listByOwner(team: string, owner: string): Row[] {
        // LIKE is a superset here (SQLite's ignores case, `_` matches any character): the prefix is checked exactly.
        return kind
          .read(and(ofKind, eq(o.owner, owner), like(o.channel, `${team}:%`)), [asc(o.channel), asc(o.number)])
          .filter((r) => r.channel.startsWith(`${team}:`));
      },
      byNumber(channel: string, number: number): Row | undefined {
        return kind.read(and(ofKind, eq(o.channel, channel), eq(o.number, number)), [])[0];
      },
      byId(id: number): Row | undefined {
        return byIdRead({ id })[0];
      },
      setPaused(id: number, paused: boolean, nextRunAt?: number, reason?: string): void {
        const next = nextRunAt ?? (!paused && kind.resumeNow ? now() : undefined);
        db.update(o)
          .set({
            paused,
            pausedReason: paused ? (reason ?? null) : null,
            ...(next !== undefined ? { nextRunAt: next } : {}),
          })
          .where(and(ofKind, eq(o.id, id)))
          .run();
      },
      dueParts(service: string, at: number, scan?: DueScan): Part[] {
        return db
          .select({ part: kind.part })
          .from(o)
          .innerJoin(kind.join.table, kind.join.on)
          .where(dueWhere(service, at, scan))
          .groupBy(kind.part)
          .orderBy(min(kind.wait), min(o.id))
          .all()
          .map((r) => r.part);
      },
      due(service: string, at: number, part?: Part | readonly Part[], scan?: DueScan): Row[] {
        const onePart = partsWhere(kind.part, part);
        return kind.read(and(dueWhere(service, at, scan, onePart !== undefined), onePart), [kind.wait, asc(o.id)]);
      },
      count(service?: string): number {
        return countWhere(service ? eq(o.service, service) : undefined);
      },
      renumber(id: number, number: number): boolean {
        return store.sqlite
          .transaction(() => {
            const row = db
              .select({ channel: o.channel })
              .from(o)
              .where(and(ofKind, eq(o.id, id)))
              .get();
            if (!row) return false;
            const held = db
              .select({ id: o.id })
              .from(o)
              .where(and(ofKind, eq(o.channel, row.channel), eq(o.number, number)))
              .get();
            if (held) return held.id === id;
            db.update(o)
              .set({ number })
              .where(and(ofKind, eq(o.id, id)))
              .run();
            return true;
          })
          .immediate();
      },
    },
  };
}
