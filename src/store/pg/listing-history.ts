// A listing's life story (../contracts/history.ts) on Postgres, as ../listing-history.ts on SQLite: read by key for a
// run's listings, written at the end of the transaction that records the run (./seen.ts), pruned after it.
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { HistoryWrites, ListingHistory } from '../contracts/history.js';
import { listingHistory } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

/** Rows per upsert statement: 11 parameters a row stays far below Postgres's 65535. */
const CHUNK = 500;

/** These listings' stories, in SQLite's order (the ids' bytes). */
export async function historyIn(runner: PgRunner, service: string, ids: readonly string[]): Promise<ListingHistory[]> {
  if (ids.length === 0) return [];
  return runner
    .select()
    .from(listingHistory)
    .where(
      and(
        eq(listingHistory.service, service),
        sql`${listingHistory.propertyId} = ANY(${sql.param([...new Set(ids)])}::text[])`,
      ),
    )
    .orderBy(sql`${listingHistory.propertyId} collate "C"`);
}

const anyOf = (ids: readonly string[]) => sql`${listingHistory.propertyId} = ANY(${sql.param([...ids])}::text[])`;

/** One query's writes in the caller's transaction: rows whole (in key order), then the last sights, then the gone. */
export async function writeHistory(tx: PgTx, service: string, w: HistoryWrites): Promise<void> {
  const rows = [...new Map(w.rows.map((r) => [r.propertyId, r])).values()].sort((a, b) =>
    a.propertyId < b.propertyId ? -1 : 1,
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insert(listingHistory)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [listingHistory.service, listingHistory.propertyId],
        set: {
          firstSeenAt: sql`least(${listingHistory.firstSeenAt}, excluded.first_seen_at)`,
          lastSeenAt: sql`greatest(${listingHistory.lastSeenAt}, excluded.last_seen_at)`,
          lastPrice: sql`excluded.last_price`,
          prices: sql`excluded.prices`,
          goneSince: sql`excluded.gone_since`,
          timesBack: sql`excluded.times_back`,
          backAt: sql`excluded.back_at`,
          awayMs: sql`excluded.away_ms`,
          title: sql`coalesce(excluded.title, ${listingHistory.title})`,
        },
      });
  }
  const mine = eq(listingHistory.service, service);
  if (w.seen.length > 0)
    await tx
      .update(listingHistory)
      .set({ lastSeenAt: w.at })
      .where(and(mine, anyOf(w.seen), lt(listingHistory.lastSeenAt, w.at)));
  // Gone only while nobody has seen it since: another query of the batch may have read it a moment ago.
  if (w.gone.length > 0)
    await tx
      .update(listingHistory)
      .set({ goneSince: w.at })
      .where(and(mine, anyOf(w.gone), isNull(listingHistory.goneSince), lt(listingHistory.lastSeenAt, w.at)));
}

/**
 * Deletes the stories nobody has seen since `before`, but none a commit is writing now: those are skipped, not waited
 * for (a delete waiting on rows it reached in another order than a commit's writes would deadlock with it), and go
 * with a later prune if nobody sees them meanwhile.
 */
export async function pruneHistory(runner: PgRunner, before: number): Promise<number> {
  const gone = await runner.execute<{ id: string }>(
    sql`delete from ${listingHistory} where (service, property_id) in (select service, property_id from ${listingHistory} where last_seen_at < ${before}::bigint for update skip locked) returning property_id as id`,
  );
  return gone.rows.length;
}
