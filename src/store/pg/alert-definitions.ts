// Saved searches on Postgres, as ../alert-definitions.ts on SQLite (the contract, ../contracts/alerts.ts, tells what
// each method means; the same calls give the same results). SQLite has one writer at a time; here several instances
// write at once, so a save locks its channel (./standing-orders.ts) and its owner (transaction-scoped advisory locks) before it counts and numbers, and a fenced write checks the lease
// under a row lock (holdsLeaseIn) until it commits.
import { and, asc, eq, isNull, max, ne, sql, type SQL } from 'drizzle-orm';
import type { AlertDefinitionRepo, AlertLimits, CreateResult, NewAlert } from '../contracts/alerts.js';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import { ALERT_SCHEDULE, failureText, ownColumns } from '../alert-digest-writes.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { alertFields as a, standingOrder as o } from './schema.js';
import { pgStandingOrdersOn } from './standing-orders.js';
import type { PgRunner, PgTx } from './tx.js';

const ALERT = 'alert';
const CHANNEL_LOCK = 0x616c7274;
const OWNER_LOCK = 0x6f776e72;
const columns = { ...ownColumns(o), ...ownColumns(a), id: o.id };
const joined = eq(a.id, o.id);

/** Serialises saves by one owner until the transaction ends: taken after the channel's lock, never before it. */
async function lockOwner(tx: PgTx, owner: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${OWNER_LOCK}::int, hashtext(${owner}))`);
}

const read = (r: PgRunner, where: SQL | undefined, order: SQL[]) =>
  r
    .select(columns)
    .from(o)
    .innerJoin(a, joined)
    .where(where)
    .orderBy(...order);

export function createPgAlertDefinitionRepo(store: PgStore, now: () => number = Date.now): AlertDefinitionRepo {
  const { db } = store;
  const orders = pgStandingOrdersOn(
    store,
    {
      kind: ALERT,
      read,
      join: { table: a, on: joined },
      lock: CHANNEL_LOCK,
      part: sql<string>`${a.paramsKey}`,
      wait: sql`coalesce(${o.lastRunAt}, 0)`,
      resumeNow: true,
    },
    now,
  );
  const { countWhere } = orders;
  const ofKind = eq(o.kind, ALERT);

  return {
    async create(input: NewAlert, limits: AlertLimits): Promise<CreateResult> {
      return db.transaction(async (tx): Promise<CreateResult> => {
        await orders.lockChannel(tx, input.channel);
        await lockOwner(tx, input.owner);
        const [same] = await read(
          tx,
          and(
            ofKind,
            eq(o.channel, input.channel),
            eq(o.service, input.service),
            eq(a.paramsKey, input.paramsKey),
            eq(a.words, input.words ?? ''),
          ),
          [],
        ).limit(1);
        if (same) return { ok: false, reason: 'duplicate', existing: same };
        if ((await countWhere(tx, eq(o.channel, input.channel))) >= limits.perChannel)
          return { ok: false, reason: 'channel' };
        if ((await countWhere(tx, eq(o.owner, input.owner))) >= limits.perOwner) return { ok: false, reason: 'owner' };
        const number = await orders.nextNumber(tx, input.channel);
        const at = now();
        const { service, channel, owner, schedule, nextRunAt, ...own } = input;
        const [order] = await tx
          .insert(o)
          .values({
            kind: ALERT,
            service,
            channel,
            owner,
            number,
            schedule: schedule ?? ALERT_SCHEDULE,
            createdAt: at,
            nextRunAt: nextRunAt ?? at,
          })
          .returning({ id: o.id });
        await tx.insert(a).values({ id: order!.id, ...own });
        const [row] = await read(tx, eq(o.id, order!.id), []);
        return { ok: true, row: row! };
      });
    },

    ...orders.shared,

    async remove(id: number) {
      await db.delete(o).where(and(ofKind, eq(o.id, id)));
    },

    async lastPolled(service: string, paramsKey: string) {
      const [row] = await db
        .select({ at: max(o.lastRunAt) })
        .from(o)
        .innerJoin(a, joined)
        .where(and(eq(o.service, service), eq(a.paramsKey, paramsKey), isNull(o.lastError)));
      return row?.at ?? undefined;
    },

    async active() {
      return read(db, and(ofKind, eq(o.paused, false)), [asc(o.id)]);
    },

    async countElsewhere(service: string, channel?: string) {
      return countWhere(db, and(ne(o.service, service), channel ? eq(o.channel, channel) : undefined));
    },

    async setSchedule(id: number, schedule: string, nextRunAt: number) {
      await db
        .update(o)
        .set({ schedule, nextRunAt })
        .where(and(ofKind, eq(o.id, id)));
    },

    async recordFailure(searchId: number, error: string, at: number, fence?: Fence) {
      return db.transaction(async (tx) => {
        if (!(await holdsLeaseIn(tx, fence))) return undefined;
        const changed = await tx
          .update(o)
          .set({ lastError: failureText(error), lastRunAt: at, nextRunAt: at })
          .where(and(ofKind, eq(o.id, searchId)))
          .returning({ id: o.id });
        if (changed.length === 0) return undefined;
        await tx
          .update(a)
          .set({ errorSince: sql`coalesce(${a.errorSince}, ${at}::bigint)` })
          .where(eq(a.id, searchId));
        const [row] = await read(tx, eq(o.id, searchId), []);
        return row;
      });
    },

    async reportFailing(searchId: number, delivery: NewDelivery, fence?: Fence) {
      await db.transaction(async (tx) => {
        if (!(await holdsLeaseIn(tx, fence))) return;
        await tx.update(a).set({ errorReported: true }).where(eq(a.id, searchId));
        await enqueueIn(tx, delivery, now());
      });
    },
  };
}
