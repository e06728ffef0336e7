// The database tables on Postgres, mirroring ../schema.ts (which tells what each holds) table for table and column for
// column, so one store's rows read the same from either. Times are integer milliseconds: bigint, read as numbers.
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// A time in milliseconds since the epoch: past integer's 2^31, so bigint, read as a number (exact up to 2^53).
const ms = (name: string) => bigint(name, { mode: 'number' });

// Issue 28 renamed the chat 'place' to channel and a digest's 'places' to areas in TypeScript only: the columns, tables
// and indexes keep their SQL names (place, places, saved_search, place_hold), mapped here, so no migration is needed.
export const buttonState = pgTable(
  'button_state',
  {
    token: text('token').primaryKey(),
    service: text('service').notNull().default(''),
    scope: text('scope').notNull().default(''),
    kind: text('kind').notNull(),
    payload: text('payload').notNull(),
    createdAt: ms('created_at').notNull(),
    lastUsedAt: ms('last_used_at').notNull(),
    payloadHash: text('payload_hash'),
  },
  (t) => [
    index('button_state_last_used_at_idx').on(t.lastUsedAt),
    uniqueIndex('button_state_payload_idx').on(t.service, t.scope, t.payloadHash),
  ],
);

export const locationCache = pgTable(
  'location_cache',
  {
    service: text('service').notNull().default(''),
    query: text('query').notNull(),
    results: text('results').notNull(),
    fetchedAt: ms('fetched_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.query] }), index('location_cache_expires_at_idx').on(t.expiresAt)],
);

export const marketCache = pgTable(
  'market_cache',
  {
    service: text('service').notNull().default(''),
    key: text('key').notNull(),
    pages: text('pages').notNull(),
    pageCount: integer('page_count').notNull(),
    totalItems: integer('total_items'),
    totalPages: integer('total_pages'),
    done: boolean('done').notNull(),
    fetchedAt: ms('fetched_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.key] }), index('market_cache_expires_at_idx').on(t.expiresAt)],
);

export const apiUsage = pgTable(
  'api_usage',
  {
    service: text('service').notNull(),
    window: text('window').notNull(),
    calls: integer('calls').notNull().default(0),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.window] })],
);

export const standingOrder = pgTable(
  'standing_order',
  {
    // Autoincrement ids: identity BY DEFAULT, Postgres's advice over serial, and rows copied in from SQLite keep their
    // ids.
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').notNull(),
    service: text('service').notNull(),
    channel: text('target').notNull(),
    number: integer('number').notNull(),
    owner: text('owner').notNull(),
    paused: boolean('paused').notNull().default(false),
    pausedReason: text('paused_reason'),
    schedule: text('schedule').notNull(),
    createdAt: ms('created_at').notNull(),
    nextRunAt: ms('next_run_at').notNull(),
    lastRunAt: ms('last_run_at'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('standing_order_target_number_idx').on(t.kind, t.channel, t.number),
    index('standing_order_owner_idx').on(t.kind, t.owner),
    index('standing_order_due_idx').on(t.kind, t.service, t.paused, t.nextRunAt),
  ],
);

export const standingOrderNumber = pgTable(
  'standing_order_number',
  {
    kind: text('kind').notNull(),
    channel: text('target').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.channel] })],
);

export const alertFields = pgTable(
  'saved_search',
  {
    id: integer('id')
      .notNull()
      .references(() => standingOrder.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    query: text('query').notNull(),
    operation: text('operation').notNull(),
    paramsKey: text('params_key').notNull(),
    summary: text('summary').notNull(),
    // Words in and out, as in ../schema.ts.
    words: text('words').notNull().default(''),
    lifecycle: text('lifecycle').notNull().default(''),
    primedAt: ms('primed_at'),
    errorSince: ms('error_since'),
    errorReported: boolean('error_reported').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.id] }), index('saved_search_params_idx').on(t.paramsKey)],
);

export const searchSeen = pgTable(
  'search_seen',
  {
    searchId: integer('search_id')
      .notNull()
      .references(() => alertFields.id, { onDelete: 'cascade' }),
    propertyId: text('property_id').notNull(),
    firstSeenAt: ms('first_seen_at').notNull(),
    lastSeenAt: ms('last_seen_at').notNull(),
    lastPrice: doublePrecision('last_price'),
    reportedPrice: doublePrecision('reported_price'),
    locationKey: text('location_key'),
    bedrooms: text('bedrooms'),
    size: doublePrecision('size'),
    posted: boolean('posted').notNull().default(false),
    missed: integer('missed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.searchId, t.propertyId] })],
);

export const listingHistory = pgTable(
  'listing_history',
  {
    service: text('service').notNull(),
    propertyId: text('property_id').notNull(),
    firstSeenAt: ms('first_seen_at').notNull(),
    lastSeenAt: ms('last_seen_at').notNull(),
    lastPrice: doublePrecision('last_price'),
    prices: text('prices').notNull().default('[]'),
    goneSince: ms('gone_since'),
    timesBack: integer('times_back').notNull().default(0),
    backAt: ms('back_at'),
    awayMs: ms('away_ms'),
    title: text('title'),
  },
  (t) => [primaryKey({ columns: [t.service, t.propertyId] }), index('listing_history_last_seen_idx').on(t.lastSeenAt)],
);

export const channelPosted = pgTable(
  'channel_posted',
  {
    service: text('service').notNull(),
    channel: text('place').notNull(),
    propertyId: text('property_id').notNull(),
    locationKey: text('location_key'),
    bedrooms: text('bedrooms'),
    size: doublePrecision('size'),
    lastPrice: doublePrecision('last_price'),
    reportedPrice: doublePrecision('reported_price'),
    messageRef: text('message_ref'),
  },
  (t) => [
    primaryKey({ columns: [t.service, t.channel, t.propertyId] }),
    index('channel_posted_location_idx').on(t.service, t.channel, t.locationKey),
  ],
);

export const channelPostedAlert = pgTable(
  'channel_posted_alert',
  {
    service: text('service').notNull(),
    channel: text('place').notNull(),
    propertyId: text('property_id').notNull(),
    searchId: integer('search_id')
      .notNull()
      .references(() => alertFields.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.service, t.channel, t.propertyId, t.searchId] }),
    index('channel_posted_alert_search_idx').on(t.searchId),
  ],
);

export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    searchId: integer('search_id').references(() => alertFields.id, { onDelete: 'cascade' }),
    channel: text('place').notNull(),
    kind: text('kind').notNull(),
    propertyId: text('property_id'),
    dedupeKey: text('dedupe_key').notNull(),
    payload: text('payload').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at').notNull(),
    claimedBy: text('claimed_by'),
    claimedUntil: ms('claimed_until'),
    messageId: text('message_id'),
    lastError: text('last_error'),
    possibleDuplicate: boolean('possible_duplicate').notNull().default(false),
    maybeDelivered: boolean('maybe_delivered').notNull().default(false),
    createdAt: ms('created_at').notNull(),
    deliveredAt: ms('delivered_at'),
    origin: text('origin').notNull().default(''),
    claimToken: integer('claim_token'),
    firstAttemptAt: ms('first_attempt_at'),
    lastAttemptAt: ms('last_attempt_at'),
    uncertainSince: ms('uncertain_since'),
  },
  (t) => [
    uniqueIndex('outbox_dedupe_key_idx').on(t.dedupeKey),
    index('outbox_due_idx').on(t.state, t.nextAttemptAt),
    index('outbox_place_idx').on(t.channel, t.state),
  ],
);

export const jobLease = pgTable('job_lease', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: ms('until').notNull(),
  token: integer('token').notNull().default(0),
  lastRunAt: ms('last_run_at'),
  lastRunMs: integer('last_run_ms'),
  lastRunOk: boolean('last_run_ok'),
});

export const instance = pgTable('instance', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: ms('started_at').notNull(),
  heartbeatAt: ms('heartbeat_at').notNull(),
});

export const dbMeta = pgTable('db_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** A chat channel's own settings: quiet hours and time zone (../schema.ts tells what each holds). */
export const channelSetting = pgTable('place_setting', {
  channel: text('place').primaryKey(),
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  timezone: text('timezone'),
  updatedAt: ms('updated_at').notNull(),
});

export const channelHold = pgTable('place_hold', {
  channel: text('place').primaryKey(),
  reason: text('reason').notNull(),
  since: ms('since').notNull(),
  retryAt: ms('retry_at').notNull(),
});

export const digestFields = pgTable(
  'digest',
  {
    id: integer('id')
      .notNull()
      .references(() => standingOrder.id, { onDelete: 'cascade' }),
    areas: text('places').notNull(),
    timezone: text('timezone').notNull(),
    // A slot is a time.
    lastSlot: ms('last_slot'),
    lastCalls: integer('last_calls'),
  },
  (t) => [primaryKey({ columns: [t.id] })],
);

export const slackInstallation = pgTable('slack_installation', {
  key: text('key').primaryKey(),
  teamId: text('team_id'),
  enterpriseId: text('enterprise_id'),
  sealed: text('sealed').notNull(),
  keyId: text('key_id').notNull(),
  installedAt: ms('installed_at').notNull(),
  updatedAt: ms('updated_at').notNull(),
});

export const teamUsage = pgTable(
  'team_usage',
  {
    team: text('team').notNull(),
    month: text('month').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [primaryKey({ columns: [t.team, t.month] })],
);

export const teamBudget = pgTable('team_budget', {
  team: text('team').primaryKey(),
  monthlyCalls: integer('monthly_calls').notNull(),
});

export const personUse = pgTable(
  'person_use',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    person: text('person').notNull(),
    kind: text('kind').notNull(),
    at: ms('at').notNull(),
  },
  (t) => [index('person_use_person_kind_at_idx').on(t.person, t.kind, t.at), index('person_use_at_idx').on(t.at)],
);
