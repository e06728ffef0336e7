// Saved searches on Postgres, as ../alert-definitions.ts on SQLite (the contract, ../contracts/alerts.ts, tells what
// each method means; the same calls give the same results). SQLite has one writer at a time; here several instances
// write at once, so a save locks its channel (./standing-orders.ts) and its owner (transaction-scoped advisory locks) before it counts and numbers, and a fenced write checks the lease
// under a row lock (holdsLeaseIn) until it commits.
import { and, asc, eq, isNull, max, ne, sql } from 'drizzle-orm';
import type { AlertDefinitionRepo, AlertLimits, AlertRow, CreateResult, NewAlert } from '../contracts/alerts.js';
import type { Fence } from '../contracts/leases.js';
import type { NewDelivery } from '../contracts/outbox.js';
import { failureText } from '../alert-digest-writes.js';
import { holdsLeaseIn } from './leases.js';
import type { PgStore } from './open.js';
import { enqueueIn } from './outbox.js';
import { alertDefinition, alertNumber } from './schema.js';
import { pgStandingOrdersOn } from './standing-orders.js';
import type { PgTx } from './tx.js';

// Advisory lock namespaces (the first key of pg_advisory_xact_lock(int, int)): 'alrt' and 'ownr' in ASCII.
const CHANNEL_LOCK = 0x616c7274;
const OWNER_LOCK = 0x6f776e72;

/** Serialises saves by one owner until the transaction ends: taken after the channel's lock, never before it. */
async function lockOwner(tx: PgTx, owner: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${OWNER_LOCK}::int, hashtext(${owner}))`);
}

export function createPgAlertDefinitionRepo(store: PgStore, now: () => number = Date.now): AlertDefinitionRepo {
  const { db } = store;
  const orders = pgStandingOrdersOn<AlertRow, string>(
    store,
    {
      table: alertDefinition,
      numbers: alertNumber,
      lock: CHANNEL_LOCK,
      only: (paramsKey: string) => eq(alertDefinition.paramsKey, paramsKey),
      dueOrder: [sql`coalesce(${alertDefinition.lastRunAt}, 0)`, asc(alertDefinition.id)],
      resumeNow: true,
    },
    now,
  );
  const { countWhere } = orders;

  return {
    async create(input: NewAlert, limits: AlertLimits): Promise<CreateResult> {
      return db.transaction(async (tx): Promise<CreateResult> => {
        // Always the channel first, then the owner: two saves never wait on each other in opposite orders.
        await orders.lockChannel(tx, input.channel);
        await lockOwner(tx, input.owner);
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
        const number = await orders.nextNumber(tx, input.channel);
        const at = now();
        const [row] = await tx
          .insert(alertDefinition)
          .values({ ...input, number, createdAt: at, nextRunAt: at })
          .returning();
        return { ok: true, row: row! };
      });
    },

    ...orders.shared,

    async remove(id: number) {
      await db.delete(alertDefinition).where(eq(alertDefinition.id, id));
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
