// Saved searches: a channel's standing orders for new listings. src/alerts decides; this file only stores.
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import type { AlertDefinitionRepo, AlertLimits, AlertRow, CreateResult, NewAlert } from './contracts/alerts.js';
import type { Synced } from './contracts/synced.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import type { Fence } from './contracts/leases.js';
import { holdsLease } from './leases.js';
import { failureText } from './alert-digest-writes.js';
import { alertDefinition, alertNumber } from './schema.js';
import { standingOrdersOn } from './standing-orders.js';

export function createAlertDefinitionRepo(store: Store, now: () => number = Date.now): Synced<AlertDefinitionRepo> {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox = createOutboxRepo(store, now);
  const orders = standingOrdersOn<AlertRow, string>(
    store,
    {
      table: alertDefinition,
      numbers: alertNumber,
      only: (paramsKey: string) => eq(alertDefinition.paramsKey, paramsKey),
      dueOrder: [sql`coalesce(${alertDefinition.lastRunAt}, 0)`, asc(alertDefinition.id)],
      resumeNow: true,
    },
    now,
  );
  const holds = (fence: Fence | undefined) => holdsLease(store, fence);
  const count = orders.countWhere;

  return {
    /**
     * Saves a search with the next free number in its place. In the same transaction: the same search (same service
     * and canonical query) already saved in this place is refused (a double click on "Save as alert"), then the limits.
     */
    create(input: NewAlert, limits: AlertLimits): CreateResult {
      return tx((): CreateResult => {
        const same = db
          .select()
          .from(alertDefinition)
          .where(
            and(
              eq(alertDefinition.channel, input.channel),
              eq(alertDefinition.service, input.service),
              eq(alertDefinition.paramsKey, input.paramsKey),
            ),
          )
          .get();
        if (same) return { ok: false, reason: 'duplicate', existing: same };
        if (orders.countIn(input.channel) >= limits.perChannel) return { ok: false, reason: 'channel' };
        if (count(eq(alertDefinition.owner, input.owner)) >= limits.perOwner) return { ok: false, reason: 'owner' };
        // Numbers are never reused in a channel: a counter per channel, seeded from the alerts there.
        const number = orders.nextNumber(input.channel);
        const at = now();
        const row = db
          .insert(alertDefinition)
          .values({ ...input, number, createdAt: at, nextRunAt: at })
          .returning()
          .get();
        return { ok: true, row };
      });
    },

    ...orders.shared,

    /** Removes a search with its seen set and its undelivered entries (cascade). */
    remove(id: number): void {
      db.delete(alertDefinition).where(eq(alertDefinition.id, id)).run();
    },

    /**
     * When a search of this query (service and params key) last polled it successfully, or undefined: what the chat's
     * answer cache must not be older than, since the poll may have found new listings (the poller may run elsewhere).
     */
    lastPolled(service: string, paramsKey: string): number | undefined {
      return (
        db
          .select({ at: sql<number | null>`max(${alertDefinition.lastRunAt})` })
          .from(alertDefinition)
          .where(
            and(
              eq(alertDefinition.service, service),
              eq(alertDefinition.paramsKey, paramsKey),
              isNull(alertDefinition.lastError),
            ),
          )
          .get()?.at ?? undefined
      );
    },

    /** Every search not paused, of any service and channel: what the start-up checks (src/alerts/impossible.ts). */
    active(): AlertRow[] {
      return db
        .select()
        .from(alertDefinition)
        .where(eq(alertDefinition.paused, false))
        .orderBy(asc(alertDefinition.id))
        .all();
    },

    /**
     * Saved searches that belong to another property service than `service` (they are not run), in all or one place.
     */
    countElsewhere(service: string, channel?: string): number {
      return count(
        and(ne(alertDefinition.service, service), channel ? eq(alertDefinition.channel, channel) : undefined),
      );
    },

    /**
     * A run that could not fetch: the error is kept (and since when), nothing is marked seen. With a `fence`, only
     * while
     * it still holds the poller's lease (undefined otherwise: a stale run records nothing).
     */
    recordFailure(searchId: number, error: string, at: number, fence?: Fence): AlertRow | undefined {
      return tx(() =>
        holds(fence)
          ? db
              .update(alertDefinition)
              .set({
                lastError: failureText(error),
                errorSince: sql`coalesce(${alertDefinition.errorSince}, ${at})`,
                lastRunAt: at,
                nextRunAt: at,
              })
              .where(eq(alertDefinition.id, searchId))
              .returning()
              .get()
          : undefined,
      );
    },

    /** Queues the "this search keeps failing" notice once (under the fence, when given). */
    reportFailing(searchId: number, delivery: NewDelivery, fence?: Fence): void {
      tx(() => {
        if (!holds(fence)) return;
        db.update(alertDefinition).set({ errorReported: true }).where(eq(alertDefinition.id, searchId)).run();
        outbox.enqueue(delivery);
      });
    },
  };
}
