// What every kind of standing order stores alike on Postgres, as ../standing-orders.ts on SQLite (the contract:
// ../contracts/standing-orders.ts). Several instances save at once here: a save takes its kind's advisory lock on the
// channel (lockChannel) before it counts and numbers, so two saves in one channel wait for each other.
import { and, asc, count, eq, lte, max, notInArray, sql, type SQL } from 'drizzle-orm';
import type { StandingOrderRow } from '../contracts/standing-orders.js';
import { firstFreeNumber } from '../alert-digest-writes.js';
import type { PgStore } from './open.js';
import type { alertDefinition, alertNumber, digest, digestNumber } from './schema.js';
import { channelHold } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

/** The tables of the kinds: the columns the core reads are named alike in each. */
type OrderTable = typeof alertDefinition | typeof digest;

export interface PgOrderTableOf {
  table: OrderTable;
  /** The table of the last number given in each channel (never given again there). */
  numbers: typeof alertNumber | typeof digestNumber;
  /** The kind's advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)). */
  lock: number;
  /** How `due` narrows to the part of a shared run. */
  only(value: never): SQL | undefined;
  /** `due`'s order: the longest-waiting first. */
  dueOrder: SQL[];
  /** Resuming without a time makes it due at once (alerts) rather than at the time it had (digests). */
  resumeNow: boolean;
}

/** The shared methods of one kind on Postgres. */
export function pgStandingOrdersOn<Row extends StandingOrderRow, Only>(
  store: PgStore,
  kind: PgOrderTableOf,
  now: () => number,
) {
  const { db } = store;
  // The columns by name, typed as one kind's: both tables name and type them alike.
  const c = kind.table as typeof digest;
  const rows = (q: unknown) => q as Row[];
  const countWhere = async (r: PgRunner, where: SQL | undefined): Promise<number> =>
    (await r.select({ n: count() }).from(c).where(where))[0]!.n;

  return {
    countWhere,
    /** Serialises saves in one channel until the transaction ends; take it first, before any other lock. */
    async lockChannel(tx: PgTx, channel: string): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${kind.lock}::int, hashtext(${channel}))`);
    },
    /** The next number in `channel`, never one given there before. Call holding the channel's lock. */
    async nextNumber(tx: PgTx, channel: string): Promise<number> {
      const [top] = await tx
        .select({ n: max(c.number) })
        .from(c)
        .where(eq(c.channel, channel));
      const next = firstFreeNumber(top?.n);
      const n = kind.numbers as typeof digestNumber;
      const [given] = await tx
        .insert(n)
        .values({ channel, last: next })
        .onConflictDoUpdate({ target: n.channel, set: { last: sql`greatest(${n.last} + 1, ${next}::int)` } })
        .returning({ last: n.last });
      return given!.last;
    },
    shared: {
      async listByChannel(channel: string): Promise<Row[]> {
        return rows(await db.select().from(c).where(eq(c.channel, channel)).orderBy(asc(c.number)));
      },
      async byNumber(channel: string, number: number): Promise<Row | undefined> {
        const [row] = await db
          .select()
          .from(c)
          .where(and(eq(c.channel, channel), eq(c.number, number)));
        return row as Row | undefined;
      },
      async byId(id: number): Promise<Row | undefined> {
        const [row] = await db.select().from(c).where(eq(c.id, id));
        return row as Row | undefined;
      },
      async setPaused(id: number, paused: boolean, nextRunAt?: number): Promise<void> {
        const next = nextRunAt ?? (!paused && kind.resumeNow ? now() : undefined);
        await db
          .update(c)
          .set({ paused, ...(next !== undefined ? { nextRunAt: next } : {}) })
          .where(eq(c.id, id));
      },
      async due(service: string, at: number, only?: Only): Promise<Row[]> {
        const held = db.select({ channel: channelHold.channel }).from(channelHold);
        return rows(
          await db
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
            .orderBy(...kind.dueOrder),
        );
      },
      async count(service?: string): Promise<number> {
        return countWhere(db, service ? eq(c.service, service) : undefined);
      },
    },
  };
}
