// Saved searches: a channel's standing orders for new listings, their shared columns in standing_order and their own
// in saved_search. src/alerts decides; this file only stores.
import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Store } from './db.js';
import type { AlertDefinitionRepo, AlertLimits, CreateResult, NewAlert } from './contracts/alerts.js';
import type { Synced } from './contracts/synced.js';
import type { NewDelivery } from './contracts/outbox.js';
import { createOutboxRepo } from './outbox.js';
import type { Fence } from './contracts/leases.js';
import { fenceCheck } from './leases.js';
import { ALERT_SCHEDULE, failureText, ownColumns } from './alert-digest-writes.js';
import { alertFields as a, standingOrder as o } from './schema.js';
import { standingOrdersOn } from './standing-orders.js';

export const ALERT = 'alert';
const columns = { ...ownColumns(o), ...ownColumns(a), id: o.id };
const joined = eq(a.id, o.id);

export function createAlertDefinitionRepo(store: Store, now: () => number = Date.now): Synced<AlertDefinitionRepo> {
  const { db, sqlite } = store;
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();
  const outbox = createOutboxRepo(store, now);
  const select = (where: SQL | undefined, order: SQL[]) =>
    db
      .select(columns)
      .from(o)
      .innerJoin(a, joined)
      .where(where)
      .orderBy(...order);
  const read = (where: SQL | undefined, order: SQL[]) => select(where, order).all();
  const orders = standingOrdersOn(
    store,
    {
      kind: ALERT,
      read,
      prepareRead: (where, order) => {
        const q = select(where, order).prepare();
        return (params) => q.all(params);
      },
      join: { table: a, on: joined },
      part: sql<string>`${a.paramsKey}`,
      wait: sql`coalesce(${o.lastRunAt}, 0)`,
      resumeNow: true,
    },
    now,
  );
  const ofKind = eq(o.kind, ALERT);
  const holds = fenceCheck(store);
  const count = orders.countWhere;

  return {
    /**
     * Saves a search with the next free number in its place. In the same transaction: the same search (same service
     * and canonical query) already saved in this place is refused (a double click on "Save as alert"), then the limits.
     */
    create(input: NewAlert, limits: AlertLimits): CreateResult {
      return tx((): CreateResult => {
        const [same] = read(
          and(
            ofKind,
            eq(o.channel, input.channel),
            eq(o.service, input.service),
            eq(a.paramsKey, input.paramsKey),
            eq(a.words, input.words ?? ''),
          ),
          [],
        );
        if (same) return { ok: false, reason: 'duplicate', existing: same };
        if (orders.countIn(input.channel) >= limits.perChannel) return { ok: false, reason: 'channel' };
        if (count(eq(o.owner, input.owner)) >= limits.perOwner) return { ok: false, reason: 'owner' };
        // Numbers are never reused in a channel: a counter per channel, seeded from the alerts there.
        const number = orders.nextNumber(input.channel);
        const at = now();
        const { service, channel, owner, schedule, nextRunAt, ...own } = input;
        const { id } = db
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
          .returning({ id: o.id })
          .get();
        db.insert(a)
          .values({ id, ...own })
          .run();
        return { ok: true, row: orders.shared.byId(id)! };
      });
    },

    ...orders.shared,

    /** Removes a search with its seen set and its undelivered entries (cascade). */
    remove(id: number): void {
      db.delete(o)
        .where(and(ofKind, eq(o.id, id)))
        .run();
    },

    /**
     * When a search of this query (service and params key) last polled it successfully, or undefined: what the chat's
     * answer cache must not be older than, since the poll may have found new listings (the poller may run elsewhere).
     */
    lastPolled(service: string, paramsKey: string): number | undefined {
      return (
        db
          .select({ at: sql<number | null>`max(${o.lastRunAt})` })
          .from(o)
          .innerJoin(a, joined)
          .where(and(eq(o.service, service), eq(a.paramsKey, paramsKey), isNull(o.lastError)))
          .get()?.at ?? undefined
      );
    },

    /** Every search not paused, of any service and channel: what the start-up checks (src/alerts/impossible.ts). */
    active() {
      return read(and(ofKind, eq(o.paused, false)), [asc(o.id)]);
    },

    /**
     * Saved searches that belong to another property service than `service` (they are not run), in all or one place.
     */
    countElsewhere(service: string, channel?: string): number {
      return count(and(ne(o.service, service), channel ? eq(o.channel, channel) : undefined));
    },

    /**
     * A run that could not fetch: the error is kept (and since when), nothing is marked seen. With a `fence`, only
     * while it still holds the poller's lease (undefined otherwise: a stale run records nothing).
     */
    recordFailure(searchId: number, error: string, at: number, fence?: Fence) {
      return tx(() => {
        if (!holds(fence)) return undefined;
        const changed = db
          .update(o)
          .set({ lastError: failureText(error), lastRunAt: at, nextRunAt: at })
          .where(and(ofKind, eq(o.id, searchId)))
          .run().changes;
        if (changed === 0) return undefined;
        db.update(a)
          .set({ errorSince: sql`coalesce(${a.errorSince}, ${at})` })
          .where(eq(a.id, searchId))
          .run();
        return orders.shared.byId(searchId);
      });
    },

    setSchedule(id: number, schedule: string, nextRunAt: number): void {
      db.update(o)
        .set({ schedule, nextRunAt })
        .where(and(ofKind, eq(o.id, id)))
        .run();
    },

    /** Queues the "this search keeps failing" notice once (under the fence, when given). */
    reportFailing(searchId: number, delivery: NewDelivery, fence?: Fence): void {
      tx(() => {
        if (!holds(fence)) return;
        db.update(a).set({ errorReported: true }).where(eq(a.id, searchId)).run();
        outbox.enqueue(delivery);
      });
    },
  };
}
