// What a channel was posted (../schema.ts channel_posted, channel_posted_alert) on Postgres, as ../channel-posted.ts
// on SQLite: written from a run's posted seen rows in the transaction that records it (./seen.ts), read by key for the
// run's listings and their locations.
import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import type { ChannelPosted, PostedAlert, PostedQuery } from '../contracts/seen.js';
import { alertFields, channelPosted, channelPostedAlert, standingOrder } from './schema.js';
import type { PgRunner, PgTx } from './tx.js';

const columns = {
  service: channelPosted.service,
  channel: channelPosted.channel,
  propertyId: channelPosted.propertyId,
  locationKey: channelPosted.locationKey,
  bedrooms: channelPosted.bedrooms,
  size: channelPosted.size,
  lastPrice: channelPosted.lastPrice,
  reportedPrice: channelPosted.reportedPrice,
  messageRef: channelPosted.messageRef,
};

const alerted = and(
  eq(channelPostedAlert.service, channelPosted.service),
  eq(channelPostedAlert.channel, channelPosted.channel),
  eq(channelPostedAlert.propertyId, channelPosted.propertyId),
);

/** By key: the listings' ids (the primary key) or their locations (channel_posted_location_idx). */
const byKey = (q: PostedQuery) =>
  and(
    eq(channelPosted.service, q.service),
    sql`${channelPosted.channel} = ANY(${sql.param([...q.channels])}::text[])`,
    or(
      sql`${channelPosted.propertyId} = ANY(${sql.param([...q.propertyIds])}::text[])`,
      sql`${channelPosted.locationKey} = ANY(${sql.param([...q.locationKeys])}::text[])`,
    ),
  );

/** What these channels were posted, of these listings or locations, in SQLite's order (channel, id). */
export async function postedIn(runner: PgRunner, q: PostedQuery): Promise<ChannelPosted[]> {
  if (q.channels.length === 0) return [];
  return runner
    .select(columns)
    .from(channelPosted)
    .where(
      and(
        byKey(q),
        exists(
          runner
            .select({ one: sql`1` })
            .from(channelPostedAlert)
            .where(alerted),
        ),
      ),
    )
    .orderBy(sql`${channelPosted.channel} collate "C"`, sql`${channelPosted.propertyId} collate "C"`);
}

/** The same, once for each alert that matched it, in SQLite's order (channel, number, id). */
export async function postedAlerts(runner: PgRunner, q: PostedQuery): Promise<PostedAlert[]> {
  if (q.channels.length === 0) return [];
  return runner
    .select({
      ...columns,
      searchId: channelPostedAlert.searchId,
      number: standingOrder.number,
      summary: alertFields.summary,
    })
    .from(channelPosted)
    .innerJoin(channelPostedAlert, alerted)
    .innerJoin(standingOrder, eq(standingOrder.id, channelPostedAlert.searchId))
    .innerJoin(alertFields, eq(alertFields.id, channelPostedAlert.searchId))
    .where(byKey(q))
    .orderBy(
      sql`${channelPosted.channel} collate "C"`,
      asc(standingOrder.number),
      sql`${channelPosted.propertyId} collate "C"`,
    );
}

/**
 * The run's posted seen rows (of these searches and listings, as just written) recorded as their channels': one row
 * per channel and listing, with the fingerprint as last read and the lowest price the channel was told (a row whose
 * alerts have all gone starts again from this one), and each alert that matched it. Two statements for the whole run;
 * the rows taken in key order, so two runs writing the same rows never wait on each other in opposite orders.
 */
export async function recordPosted(
  tx: PgTx,
  written: readonly { searchId: number; propertyId: string }[],
): Promise<void> {
  if (written.length === 0) return;
  const posted = sql`from unnest(${sql.param(written.map((w) => w.searchId))}::int[], ${sql.param(written.map((w) => w.propertyId))}::text[]) as w(search_id, property_id)
    join search_seen ss on ss.search_id = w.search_id and ss.property_id = w.property_id and ss.posted
    join standing_order s on s.id = ss.search_id`;
  await tx.execute(sql`
    insert into channel_posted (service, place, property_id, location_key, bedrooms, size, last_price, reported_price)
    select distinct on (s.service, s.target, ss.property_id) s.service, s.target, ss.property_id, ss.location_key,
      ss.bedrooms, ss.size, ss.last_price,
      min(coalesce(ss.reported_price, ss.last_price)) over (partition by s.service, s.target, ss.property_id)
    ${posted}
    order by s.service, s.target, ss.property_id, ss.search_id
    on conflict (service, place, property_id) do update set location_key = excluded.location_key,
      bedrooms = excluded.bedrooms, size = excluded.size, last_price = excluded.last_price,
      reported_price = case when exists (select 1 from channel_posted_alert m
          where m.service = excluded.service and m.place = excluded.place and m.property_id = excluded.property_id)
        then least(channel_posted.reported_price, excluded.reported_price) else excluded.reported_price end,
      message_ref = case when exists (select 1 from channel_posted_alert m
          where m.service = excluded.service and m.place = excluded.place and m.property_id = excluded.property_id)
        then channel_posted.message_ref end`);
  await tx.execute(sql`
    insert into channel_posted_alert (service, place, property_id, search_id)
    select s.service, s.target, ss.property_id, ss.search_id ${posted}
    order by s.service, s.target, ss.property_id, ss.search_id
    on conflict do nothing`);
}
