// What a channel was posted (./schema.ts channel_posted, channel_posted_alert), on SQLite: written from a run's posted
// seen rows in the transaction that records it (./seen.ts), read by key for the run's listings and their locations.
import type Database from 'better-sqlite3';
import type { ChannelPosted, PostedAlert, PostedQuery } from './contracts/seen.js';

/** A posted seen row as the run left it: what the channel's row is written from. */
export interface PostedSeen {
  service: string;
  channel: string;
  propertyId: string;
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  lastPrice: number | null;
  /** The price this alert told the channel (its last price on rows from before reported prices). */
  told: number | null;
}

const COLUMNS = `cp.service, cp.place AS channel, cp.property_id AS propertyId, cp.location_key AS locationKey, cp.bedrooms,
  cp.size, cp.last_price AS lastPrice, cp.reported_price AS reportedPrice, cp.message_ref AS messageRef`;
// By key: the listings' ids (the primary key), and their locations (channel_posted_location_idx). Two selects, not
// one with OR, which SQLite would answer by scanning the channel's rows.
const IN_CHANNELS = `SELECT * FROM channel_posted WHERE service = @service AND place IN (SELECT value FROM json_each(@channels))`;
const KEYED = `WITH cp AS (${IN_CHANNELS} AND property_id IN (SELECT value FROM json_each(@ids))
  UNION ${IN_CHANNELS} AND location_key IN (SELECT value FROM json_each(@keys)))`;
const ALERTED = `m.service = cp.service AND m.place = cp.place AND m.property_id = cp.property_id`;

export function channelPostedStatements(sqlite: Database.Database) {
  // The channel's row: the fingerprint as last read, and the lowest price the channel was told. A row whose alerts
  // have all gone is the channel's no more: it starts again from this one.
  const upsert = sqlite.prepare(
    `INSERT INTO channel_posted (service, place, property_id, location_key, bedrooms, size, last_price, reported_price)
     VALUES (@service, @channel, @propertyId, @locationKey, @bedrooms, @size, @lastPrice, @told)
     ON CONFLICT (service, place, property_id) DO UPDATE SET location_key = excluded.location_key,
       bedrooms = excluded.bedrooms, size = excluded.size, last_price = excluded.last_price,
       reported_price = CASE WHEN EXISTS (SELECT 1 FROM channel_posted_alert m
           WHERE m.service = excluded.service AND m.place = excluded.place AND m.property_id = excluded.property_id)
         THEN coalesce(min(reported_price, excluded.reported_price), reported_price, excluded.reported_price)
         ELSE excluded.reported_price END,
       message_ref = CASE WHEN EXISTS (SELECT 1 FROM channel_posted_alert m
           WHERE m.service = excluded.service AND m.place = excluded.place AND m.property_id = excluded.property_id)
         THEN message_ref END`,
  );
  const alerted = sqlite.prepare(
    `INSERT INTO channel_posted_alert (service, place, property_id, search_id) VALUES (@service, @channel, @propertyId, @searchId)
     ON CONFLICT DO NOTHING`,
  );
  const rows = sqlite.prepare(
    `${KEYED} SELECT ${COLUMNS} FROM cp
     WHERE EXISTS (SELECT 1 FROM channel_posted_alert m WHERE ${ALERTED})
     ORDER BY cp.place, cp.property_id`,
  );
  const alertRows = sqlite.prepare(
    `${KEYED} SELECT ${COLUMNS}, m.search_id AS searchId, o.number, s.summary
     FROM cp JOIN channel_posted_alert m ON ${ALERTED} JOIN standing_order o ON o.id = m.search_id
       JOIN saved_search s ON s.id = m.search_id
     ORDER BY cp.place, o.number, cp.property_id`,
  );
  const params = (q: PostedQuery) => ({
    service: q.service,
    channels: JSON.stringify(q.channels),
    ids: JSON.stringify(q.propertyIds),
    keys: JSON.stringify(q.locationKeys),
  });
  return {
    /** One alert's posted seen row, recorded as the channel's (in the caller's transaction). */
    record(row: PostedSeen, searchId: number): void {
      upsert.run(row);
      alerted.run({ service: row.service, channel: row.channel, propertyId: row.propertyId, searchId });
    },
    postedIn: (q: PostedQuery): ChannelPosted[] =>
      q.channels.length === 0 ? [] : (rows.all(params(q)) as ChannelPosted[]),
    postedAlerts: (q: PostedQuery): PostedAlert[] =>
      q.channels.length === 0 ? [] : (alertRows.all(params(q)) as PostedAlert[]),
  };
}
