// A listing's life story (./contracts/history.ts) on SQLite: read by key for a run's listings, written in the
// transaction that records the run (./seen.ts), pruned by the run's commit once nobody has seen a listing for long.
import type Database from 'better-sqlite3';
import type { HistoryWrites, ListingHistory } from './contracts/history.js';

const COLUMNS = `service, property_id AS propertyId, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt,
  last_price AS lastPrice, prices, gone_since AS goneSince, times_back AS timesBack, back_at AS backAt,
  away_ms AS awayMs, title`;

export function historyStatements(sqlite: Database.Database) {
  const read = sqlite.prepare(
    `SELECT ${COLUMNS} FROM listing_history
     WHERE service = @service AND property_id IN (SELECT value FROM json_each(@ids)) ORDER BY property_id`,
  );
  // Written whole, as the run decided from the row it read in this transaction; the first sight never moves later.
  const upsert = sqlite.prepare(
    `INSERT INTO listing_history (service, property_id, first_seen_at, last_seen_at, last_price, prices, gone_since,
       times_back, back_at, away_ms, title)
     VALUES (@service, @propertyId, @firstSeenAt, @lastSeenAt, @lastPrice, @prices, @goneSince, @timesBack, @backAt,
       @awayMs, @title)
     ON CONFLICT (service, property_id) DO UPDATE SET first_seen_at = min(first_seen_at, excluded.first_seen_at),
       last_seen_at = max(last_seen_at, excluded.last_seen_at), last_price = excluded.last_price,
       prices = excluded.prices, gone_since = excluded.gone_since, times_back = excluded.times_back,
       back_at = excluded.back_at, away_ms = excluded.away_ms, title = coalesce(excluded.title, title)`,
  );
  const seen = sqlite.prepare(
    `UPDATE listing_history SET last_seen_at = @at
     WHERE service = @service AND property_id IN (SELECT value FROM json_each(@ids)) AND last_seen_at < @at`,
  );
  // Gone only while nobody has seen it since: another query of the batch may have read it a moment ago.
  const gone = sqlite.prepare(
    `UPDATE listing_history SET gone_since = @at
     WHERE service = @service AND property_id IN (SELECT value FROM json_each(@ids)) AND gone_since IS NULL
       AND last_seen_at < @at`,
  );
  const prune = sqlite.prepare(`DELETE FROM listing_history WHERE last_seen_at < @before`);
  return {
    read: (service: string, ids: readonly string[]): ListingHistory[] =>
      ids.length === 0 ? [] : (read.all({ service, ids: JSON.stringify(ids) }) as ListingHistory[]),
    /** One query's writes, in the caller's transaction. */
    write(service: string, w: HistoryWrites): void {
      for (const row of w.rows) upsert.run(row);
      if (w.seen.length > 0) seen.run({ service, at: w.at, ids: JSON.stringify(w.seen) });
      if (w.gone.length > 0) gone.run({ service, at: w.at, ids: JSON.stringify(w.gone) });
    },
    prune: (before: number): number => prune.run({ before }).changes,
  };
}
