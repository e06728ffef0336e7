// The shared bench's saved searches (bench/shared.ts), made in SQL so that a million take seconds, not the store's
// create a million times: the distinct queries into a table of the bench's own, one search per query, a real first
// look over those (shared.ts runs it), then every other search a copy of its query's first-look search, seen rows
// and all. A first look calls the service once per query and records the same listings for every search asking it
// (nothing is posted on a first look), so the copies are what a first look over all of them would have written.
import type pg from 'pg';
import { paramsKey, type SavedQuery } from '../src/alerts/index.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import type { Query } from '../src/query/index.js';
import type { SharedSizes } from './shared-measures.js';

/** Distinct queries' rows per INSERT statement: 4 parameters a row, far below Postgres's 65,535. */
const ROWS_PER_INSERT = 2_000;
/** Searches one statement copies (cloneSearches): a statement's rows stay in the millions at most. */
const SEARCHES_PER_COPY = 50_000;

/**
 * `distinct` queries: alerts.ts's combinations (operation × bedrooms × price cap × location) first, then the same with
 * a number of bathrooms and a furnishing (both filter in the sandbox, on rent and buy alike).
 */
export function distinctQueries(locations: number[], distinct: number): SavedQuery[] {
  const out: SavedQuery[] = [];
  for (const furnishing of [undefined, 'furnished', 'unfurnished']) {
    for (const bathrooms of [undefined, '1', '2', '3']) {
      for (const cap of [undefined, 'high', 'low'] as const) {
        for (const bedrooms of [undefined, '0', '1', '2', '3', '4']) {
          for (const op of ['search-rent', 'search-buy'] as const) {
            const priceMax =
              cap &&
              { high: op === 'search-rent' ? '150000' : '3000000', low: op === 'search-rent' ? '90000' : '1500000' }[
                cap
              ];
            for (const id of locations) {
              const params: Record<string, string> = {};
              if (bedrooms) params.bedrooms = bedrooms;
              if (bathrooms) params.bathrooms = bathrooms;
              if (priceMax) params.price_max = priceMax;
              if (furnishing) params.furnishing = furnishing;
              const query: Query = { operation: op, params, location: `place ${id}`, unknownWords: [] };
              out.push({ query, location: { id, name: `Place ${id}` } });
              if (out.length === distinct) return out;
            }
          }
        }
      }
    }
  }
  throw new Error(`bench: only ${out.length} distinct queries over ${locations.length} locations (${distinct} wanted)`);
}

const EVERY_RUN = JSON.stringify({ every: 'run' });

/**
 * Search i (1-based) asks query (i - 1) % distinct and sits in channel (i - 1) / perChannel, numbered in it as the
 * store's create numbers it; so a channel's searches are consecutive and never ask one query twice.
 */
const layout = (sizes: SharedSizes) => ({ perChannel: Math.ceil(sizes.searches / sizes.channels), ...sizes });

/**
 * The distinct queries into a table of the bench's own (bench_query: n, the encoded query, its operation and params
 * key), a few multi-row INSERTs; the searches are then made from it in SQL.
 */
export async function saveQueries(client: pg.Client, queries: SavedQuery[]): Promise<void> {
  await client.query(
    'CREATE TABLE bench_query (n integer PRIMARY KEY, query text NOT NULL, operation text NOT NULL, params_key text NOT NULL)',
  );
  for (let from = 0; from < queries.length; from += ROWS_PER_INSERT) {
    const values: unknown[] = [];
    const rows: string[] = [];
    for (const q of queries.slice(from, from + ROWS_PER_INSERT)) {
      const k = values.length;
      rows.push(`($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4})`);
      values.push(from + rows.length - 1, encodeSavedQuery(q), q.query.operation, paramsKey(q));
    }
    await client.query(`INSERT INTO bench_query (n, query, operation, params_key) VALUES ${rows.join(', ')}`, values);
  }
}

/**
 * Searches `from`..`to` (ids, 1-based) in one statement per table, generated in SQL, filling the columns the store's
 * create fills: the first look's searches, one per distinct query.
 */
export async function saveSearches(client: pg.Client, sizes: SharedSizes, service: string, from: number, to: number) {
  const { perChannel, distinct } = layout(sizes);
  await client.query(
    `INSERT INTO standing_order (id, kind, service, target, number, owner, schedule, created_at, next_run_at)
     SELECT g, 'alert', $1, 'bench:C' || ((g - 1) / $2), ((g - 1) % $2) + 1, 'U' || ((g - 1) % 500), $3, $4, $4
     FROM generate_series($5::int, $6::int) g`,
    [service, perChannel, EVERY_RUN, Date.now(), from, to],
  );
  await client.query(
    `INSERT INTO saved_search (id, text, query, operation, params_key, summary)
     SELECT g, 'bench', q.query, q.operation, q.params_key, 'bench'
     FROM generate_series($1::int, $2::int) g JOIN bench_query q ON q.n = (g - 1) % $3`,
    [from, to, distinct],
  );
}

/**
 * The other searches (distinct + 1 .. searches), each a copy of the first-look search of its query: what the run
 * recorded of it (its last run, primed time, errors) and its seen rows, as the first look would have recorded for
 * every search of the query (one call per query, the same listings for each: nothing is posted on a first look).
 * Foreign keys are not checked while copying (session_replication_role = replica): every row refers to a search made
 * just before it. Returns the seen rows copied.
 */
export async function cloneSearches(client: pg.Client, sizes: SharedSizes): Promise<number> {
  const { perChannel, distinct, searches } = layout(sizes);
  const rep = '((g - 1) % $2) + 1';
  await client.query('SET session_replication_role = replica');
  let seen = 0;
  try {
    for (let from = distinct + 1; from <= searches; from += SEARCHES_PER_COPY) {
      const to = Math.min(searches, from + SEARCHES_PER_COPY - 1);
      await client.query(
        `INSERT INTO standing_order (id, kind, service, target, number, owner, paused, paused_reason, schedule, created_at, next_run_at, last_run_at, last_error)
         SELECT g, r.kind, r.service, 'bench:C' || ((g - 1) / $4), ((g - 1) % $4) + 1, 'U' || ((g - 1) % 500),
           r.paused, r.paused_reason, r.schedule, r.created_at, r.next_run_at, r.last_run_at, r.last_error
         FROM generate_series($1::int, $3::int) g JOIN standing_order r ON r.id = ${rep}`,
        [from, distinct, to, perChannel],
      );
      await client.query(
        `INSERT INTO saved_search (id, text, query, operation, params_key, summary, primed_at, error_since, error_reported)
         SELECT g, r.text, r.query, r.operation, r.params_key, r.summary, r.primed_at, r.error_since, r.error_reported
         FROM generate_series($1::int, $3::int) g JOIN saved_search r ON r.id = ${rep}`,
        [from, distinct, to],
      );
      const copied = await client.query(
        `INSERT INTO search_seen (search_id, property_id, first_seen_at, last_seen_at, last_price, reported_price, location_key, bedrooms, size, posted)
         SELECT g, s.property_id, s.first_seen_at, s.last_seen_at, s.last_price, s.reported_price, s.location_key, s.bedrooms, s.size, s.posted
         FROM generate_series($1::int, $3::int) g JOIN search_seen s ON s.search_id = ${rep}`,
        [from, distinct, to],
      );
      seen += copied.rowCount ?? 0;
    }
  } finally {
    await client.query('SET session_replication_role = DEFAULT');
  }
  return seen;
}

/** Each channel's last alert number (as create leaves it), the id sequence past the ids given, and fresh statistics. */
export async function finishSaving(client: pg.Client, searches: number): Promise<void> {
  await client.query(`SELECT setval('standing_order_id_seq', ${searches})`);
  await client.query(
    `INSERT INTO standing_order_number (kind, target, last) SELECT kind, target, max(number) FROM standing_order GROUP BY kind, target`,
  );
  // As a database that has held its searches a while would be: vacuumed and analysed, so neither autovacuum's first
  // pass over the new rows nor a planner without statistics lands in the measured runs.
  await client.query('VACUUM (ANALYZE) standing_order, saved_search, search_seen, standing_order_number');
}
