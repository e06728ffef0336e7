// Saved searches: a channel's standing orders for new listings. src/alerts decides; this file only stores.
import { and, asc, eq, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import type { Fence } from './contracts/leases.js';
import { holdsLease } from './leases.js';
import { failureText, firstFreeNumber, pausedSet } from './alert-digest-writes.js';
import { channelHold, alertDefinition } from './schema.js';

export type AlertRow = typeof alertDefinition.$inferSelect;

export interface NewAlert {
  service: string;
  channel: string;
  owner: string;
  text: string;
  query: string;
  operation: string;
  paramsKey: string;
  summary: string;
}

export type CreateResult =
  | { ok: true; row: AlertRow }
  | { ok: false; reason: 'channel' | 'owner' }
  | { ok: false; reason: 'duplicate'; existing: AlertRow };

export function createAlertDefinitionRepo(store: Store, now: () => number = Date.now) {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox = createOutboxRepo(store, now);
  const nextNumber = sqlite.prepare(
    `INSERT INTO alert_number (place, last) VALUES (@channel, @next) ON CONFLICT (place) DO UPDATE SET last = max(last + 1, @next) RETURNING last`,
  );
  const holds = (fence: Fence | undefined) => holdsLease(store, fence);
  const count = (where: ReturnType<typeof eq>) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(alertDefinition)
      .where(where)
      .get()!.n;

  return {
    /**
     * Saves a search with the next free number in its place. In the same transaction: the same search (same service
     * and canonical query) already saved in this place is refused (a double click on "Save as alert"), then the limits.
     */
    create(input: NewAlert, limits: { perChannel: number; perOwner: number }): CreateResult {
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
        if (count(eq(alertDefinition.channel, input.channel)) >= limits.perChannel)
          return { ok: false, reason: 'channel' };
        if (count(eq(alertDefinition.owner, input.owner)) >= limits.perOwner) return { ok: false, reason: 'owner' };
        // Numbers are never reused in a channel: a counter per channel, seeded from the alerts there (databases from before
        // it).
        const top = db
          .select({ n: sql<number | null>`max(${alertDefinition.number})` })
          .from(alertDefinition)
          .where(eq(alertDefinition.channel, input.channel))
          .get()!.n;
        const { last: number } = nextNumber.get({ channel: input.channel, next: firstFreeNumber(top) }) as {
          last: number;
        };
        const at = now();
        const row = db
          .insert(alertDefinition)
          .values({ ...input, number, createdAt: at, nextRunAt: at })
          .returning()
          .get();
        return { ok: true, row };
      });
    },

    listByChannel(channel: string): AlertRow[] {
      return db
        .select()
        .from(alertDefinition)
        .where(eq(alertDefinition.channel, channel))
        .orderBy(asc(alertDefinition.number))
        .all();
    },

    byNumber(channel: string, number: number): AlertRow | undefined {
      return db
        .select()
        .from(alertDefinition)
        .where(and(eq(alertDefinition.channel, channel), eq(alertDefinition.number, number)))
        .get();
    },

    byId(id: number): AlertRow | undefined {
      return db.select().from(alertDefinition).where(eq(alertDefinition.id, id)).get();
    },

    setPaused(id: number, paused: boolean): void {
      db.update(alertDefinition).set(pausedSet(paused, now())).where(eq(alertDefinition.id, id)).run();
    },

    /** Removes a search with its seen set and its undelivered entries (cascade). */
    remove(id: number): void {
      db.delete(alertDefinition).where(eq(alertDefinition.id, id)).run();
    },

    /**
     * Active searches of this service whose turn has come, the longest-waiting first. Searches of a channel held
     * because
     * it cannot receive wait with it: their listings would only pile up. `paramsKey`: only the searches of that query.
     */
    due(service: string, at: number, paramsKey?: string): AlertRow[] {
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
        .orderBy(sql`coalesce(${alertDefinition.lastRunAt}, 0)`, asc(alertDefinition.id))
        .all();
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

    count(service?: string): number {
      const q = db.select({ n: sql<number>`count(*)` }).from(alertDefinition);
      return (service ? q.where(eq(alertDefinition.service, service)) : q).get()!.n;
    },

    /**
     * Saved searches that belong to another property service than `service` (they are not run), in all or one place.
     */
    countElsewhere(service: string, channel?: string): number {
      return count(
        and(
          ne(alertDefinition.service, service),
          channel ? eq(alertDefinition.channel, channel) : undefined,
        ) as ReturnType<typeof eq>,
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

export type AlertDefinitionRepo = ReturnType<typeof createAlertDefinitionRepo>;
