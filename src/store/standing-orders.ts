// What every kind of standing order stores alike on SQLite (the contract: ./contracts/standing-orders.ts): numbering
// per channel, reading by channel, number and id, pausing, removing, the due scan and counting. Each kind's repository
// (./alert-definitions.ts, ./digests.ts) spreads this in and adds its own columns' methods.
import { and, asc, eq, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Store } from './db.js';
import type { StandingOrderRow } from './contracts/standing-orders.js';
import { firstFreeNumber } from './alert-digest-writes.js';
import type { alertDefinition, alertNumber, digest, digestNumber } from './schema.js';
import { channelHold } from './schema.js';

/** The tables of the kinds: the columns the core reads are named alike in each. */
type OrderTable = typeof alertDefinition | typeof digest;

export interface OrderTableOf {
  table: OrderTable;
  /** The table of the last number given in each channel (never given again there). */
  numbers: typeof alertNumber | typeof digestNumber;
  /** How `due` narrows to the part of a shared run. */
  only(value: never): SQL | undefined;
  /** `due`'s order: the longest-waiting first. */
  dueOrder: SQL[];
  /** Resuming without a time makes it due at once (alerts) rather than at the time it had (digests). */
  resumeNow: boolean;
}

/** The shared methods of one kind on SQLite; `row` reads a selected row as the kind's type. */
export function standingOrdersOn<Row extends StandingOrderRow, Only>(
  store: Store,
  kind: OrderTableOf,
  now: () => number,
) {
  const { db } = store;
  const t = kind.table;
  // The columns by name, typed as one kind's: both tables name and type them alike.
  const c = t as typeof digest;
  const rows = (q: unknown) => q as Row[];
  const n = kind.numbers as typeof digestNumber;
  const countWhere = (where: SQL | undefined): number =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(c)
      .where(where)
      .get()!.n;

  return {
    /** Counts in a channel (the per-channel limit; call inside the save's transaction). */
    countIn: (channel: string) => countWhere(eq(c.channel, channel)),
    countWhere,
    /** The next number in `channel`, never one given there before. Call inside the save's transaction. */
    nextNumber(channel: string): number {
      const top = db
        .select({ n: sql<number | null>`max(${c.number})` })
        .from(c)
        .where(eq(c.channel, channel))
        .get()!.n;
      const next = firstFreeNumber(top);
      return db
        .insert(n)
        .values({ channel, last: next })
        .onConflictDoUpdate({ target: n.channel, set: { last: sql`max(${n.last} + 1, ${next})` } })
        .returning()
        .get().last;
    },
    shared: {
      listByChannel(channel: string): Row[] {
        return rows(db.select().from(c).where(eq(c.channel, channel)).orderBy(asc(c.number)).all());
      },
      byNumber(channel: string, number: number): Row | undefined {
        return db
          .select()
          .from(c)
          .where(and(eq(c.channel, channel), eq(c.number, number)))
          .get() as Row | undefined;
      },
      byId(id: number): Row | undefined {
        return db.select().from(c).where(eq(c.id, id)).get() as Row | undefined;
      },
      setPaused(id: number, paused: boolean, nextRunAt?: number): void {
        const next = nextRunAt ?? (!paused && kind.resumeNow ? now() : undefined);
        db.update(c)
          .set({ paused, ...(next !== undefined ? { nextRunAt: next } : {}) })
          .where(eq(c.id, id))
          .run();
      },
      due(service: string, at: number, only?: Only): Row[] {
        const held = db.select({ channel: channelHold.channel }).from(channelHold);
        return rows(
          db
            .select()
            .from(c)
            .where(
              and(
                eq(c.service, service),
                only === undefined ? undefined : kind.only(only as never),
                eq(c.paused, false),
                lte(c.nextRunAt, at),
                notInArray(c.channel, held),
              ),
            )
            .orderBy(...kind.dueOrder)
            .all(),
        );
      },
      count(service?: string): number {
        return countWhere(service ? eq(c.service, service) : undefined);
      },
    },
  };
}
