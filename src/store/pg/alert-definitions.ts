// Saved searches on Postgres, as ../alert-definitions.ts on SQLite (which tells what each method means; the same calls
// give
// the same results). SQLite has one writer at a time; here several instances write at once, so a save locks its place
// and its owner (transaction-scoped advisory locks) before it counts and numbers, and a fenced write checks the lease
// under a row lock (holdsLeaseIn) until it commits.
import { and, asc, count, eq, isNull, lte, max, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import type { Promised } from '../promised.js';
import { failureText, firstFreeNumber, pausedSet } from '../alert-digest-writes.js';
import type { CreateResult, NewAlert, AlertDefinitionRepo } from '../alert-definitions.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { alertNumber, channelHold, alertDefinition } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

// Advisory lock namespaces (the first key of pg_advisory_xact_lock(int, int)): 'alrt' and 'ownr' in ASCII.
const CHANNEL_LOCK = 0x616c7274;
const OWNER_LOCK = 0x6f776e72;

/**
 * Serialises saves in one channel (and by one owner) until the transaction ends. Always channel first, then owner: two
 * saves
 * never wait on each other in opposite orders. Each statement after it reads what the previous holder committed.
 */
async function lockForCreate(tx: PgTx, channel: string, owner: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHANNEL_LOCK}::int, hashtext(${channel}))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${OWNER_LOCK}::int, hashtext(${owner}))`);
}

const countWhere = async (r: PgRunner, where: SQL | undefined): Promise<number> =>
  (await r.select({ n: count() }).from(alertDefinition).where(where))[0]!.n;

/** The next number in `channel`: never one given before there, even if its alert was removed. */
async function nextNumber(tx: PgTx, channel: string): Promise<number> {
  const [top] = await tx
    .select({ n: max(alertDefinition.number) })
    .from(alertDefinition)
    .where(eq(alertDefinition.channel, channel));
  const next = firstFreeNumber(top?.n);
  const [row] = await tx
    .insert(alertNumber)
    .values({ channel, last: next })
    .onConflictDoUpdate({
      target: alertNumber.channel,
      set: { last: sql`greatest(${alertNumber.last} + 1, ${next}::int)` },
    })
    .returning({ last: alertNumber.last });
  return row!.last;
}

export function createPgAlertDefinitionRepo(
  store: PgStore,
  now: () => number = Date.now,
): Promised<AlertDefinitionRepo> {
  const { db } = store;

  return {
    async create(input: NewAlert, limits: { perChannel: number; perOwner: number }): Promise<CreateResult> {
      return db.transaction(async (tx): Promise<CreateResult> => {
        await lockForCreate(tx, input.channel, input.owner);
        const [same] = await tx
          .select()
          .from(alertDefinition)
          .where(
            and(
              eq(alertDefinition.channel, input.channel),
              eq(alertDefinition.service, input.service),
              eq(alertDefinition.paramsKey, input.paramsKey),
            ),
          )
          .limit(1);
        if (same) return { ok: false, reason: 'duplicate', existing: same };
        if ((await countWhere(tx, eq(alertDefinition.channel, input.channel))) >= limits.perChannel)
          return { ok: false, reason: 'channel' };
        if ((await countWhere(tx, eq(alertDefinition.owner, input.owner))) >= limits.perOwner)
          return { ok: false, reason: 'owner' };
        const number = await nextNumber(tx, input.channel);
        const at = now();
        const [row] = await tx
          .insert(alertDefinition)
          .values({ ...input, number, createdAt: at, nextRunAt: at })
          .returning();
        return { ok: true, row: row! };
      });
    },

    async listByChannel(channel: string) {
      return db
        .select()
        .from(alertDefinition)
        .where(eq(alertDefinition.channel, channel))
        .orderBy(asc(alertDefinition.number));
    },

    async byNumber(channel: string, number: number) {
      const [row] = await db
        .select()
        .from(alertDefinition)
        .where(and(eq(alertDefinition.channel, channel), eq(alertDefinition.number, number)));
      return row;
    },

    async byId(id: number) {
      const [row] = await db.select().from(alertDefinition).where(eq(alertDefinition.id, id));
      return row;
    },

    async setPaused(id: number, paused: boolean) {
      await db.update(alertDefinition).set(pausedSet(paused, now())).where(eq(alertDefinition.id, id));
    },

    async remove(id: number) {
      await db.delete(alertDefinition).where(eq(alertDefinition.id, id));
    },

    async due(service: string, at: number, paramsKey?: string) {
      const held = db.select({ channel: channelHold.channel }).from(channelHold);
      const ofQuery = paramsKey === undefined ? undefined : eq(alertDefinition.paramsKey, paramsKey);
      return db
        .select()
        .from(alertDefinition)
        .where(
          and(
            eq(alertDefinition.service, service),
            ofQuery,
            eq(alertDefinition.paused, false),
            lte(alertDefinition.nextRunAt, at),
            notInArray(alertDefinition.channel, held),
          ),
        )
        .orderBy(sql`coalesce(${alertDefinition.lastRunAt}, 0)`, asc(alertDefinition.id));
    },

    async lastPolled(service: string, paramsKey: string) {
      const [row] = await db
        .select({ at: max(alertDefinition.lastRunAt) })
        .from(alertDefinition)
        .where(
          and(
            eq(alertDefinition.service, service),
            eq(alertDefinition.paramsKey, paramsKey),
            isNull(alertDefinition.lastError),
          ),
        );
      return row?.at ?? undefined;
    },

    async active() {
      return db
        .select()
        .from(alertDefinition)
        .where(eq(alertDefinition.paused, false))
        .orderBy(asc(alertDefinition.id));
    },

    async count(service?: string) {
      return countWhere(db, service ? eq(alertDefinition.service, service) : undefined);
    },

    async countElsewhere(service: string, channel?: string) {
      return countWhere(
        db,
        and(ne(alertDefinition.service, service), channel ? eq(alertDefinition.channel, channel) : undefined),
      );
    },

    async recordFailure(searchId: number, error: string, at: number, fence?: Fence) {
      return db.transaction(async (tx) => {
        if (!(await holdsLeaseIn(tx, fence))) return undefined;
        const [row] = await tx
          .update(alertDefinition)
          .set({
            lastError: failureText(error),
            errorSince: sql`coalesce(${alertDefinition.errorSince}, ${at}::bigint)`,
            lastRunAt: at,
            nextRunAt: at,
          })
          .where(eq(alertDefinition.id, searchId))
          .returning();
        return row;
      });
    },

    async reportFailing(searchId: number, delivery: NewDelivery, fence?: Fence) {
      await db.transaction(async (tx) => {
        if (!(await holdsLeaseIn(tx, fence))) return;
        await tx.update(alertDefinition).set({ errorReported: true }).where(eq(alertDefinition.id, searchId));
        await enqueueIn(tx, delivery, now());
      });
    },
  };
}
