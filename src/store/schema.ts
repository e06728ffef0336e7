// The database tables. Times are integer milliseconds since the epoch; JSON columns hold text.
// `service` columns hold the property service's base URL, so the sandbox's sample ids never reach the real service.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** The state behind a chat button, so a button on a week-old message still works after a restart. */
// Issue 28 renamed the chat 'place' to channel and a digest's 'places' to areas in TypeScript only: the columns, tables
// and indexes keep their SQL names (place, places, saved_search, place_hold), mapped here, so no migration is needed.
export const buttonState = sqliteTable(
  'button_state',
  {
    // Opaque, url-safe, at most 40 characters: fits Slack's button value and Discord's custom_id.
    token: text('token').primaryKey(),
    service: text('service').notNull().default(''),
    /**
     * The conversation the button was posted in (`slack:C123`, `discord:456`): pressed anywhere else it does nothing.
     * Not the team: in a channel shared between workspaces each presses from its own. '' for rows from before.
     */
    scope: text('scope').notNull().default(''),
    kind: text('kind').notNull(),
    payload: text('payload').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull(),
    /**
     * A hash of the kind and payload: an identical reply in the same conversation reuses the row instead of writing
     * another (20 identical searches, one row). Null for rows from before.
     */
    payloadHash: text('payload_hash'),
  },
  // Pruning scans by last use.
  (t) => [
    index('button_state_last_used_at_idx').on(t.lastUsedAt),
    uniqueIndex('button_state_payload_idx').on(t.service, t.scope, t.payloadHash),
  ],
);

/** Autocomplete answers per service and normalised query text, kept until they expire. */
export const locationCache = sqliteTable(
  'location_cache',
  {
    service: text('service').notNull().default(''),
    query: text('query').notNull(),
    results: text('results').notNull(),
    fetchedAt: integer('fetched_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.query] }), index('location_cache_expires_at_idx').on(t.expiresAt)],
);

/**
 * The market data's answers (src/market/data.ts), per service and operation with its parameters: the pages read so far
 * and when the first was fetched, so that every process and instance on this database reads what one already fetched.
 */
export const marketCache = sqliteTable(
  'market_cache',
  {
    service: text('service').notNull().default(''),
    /** The operation and its parameters in name order (`get-get-transactions?location_id=5002&period=3m&…`). */
    key: text('key').notNull(),
    /** The pages read, in order: a JSON array of arrays of records. */
    pages: text('pages').notNull(),
    pageCount: integer('page_count').notNull(),
    totalItems: integer('total_items'),
    totalPages: integer('total_pages'),
    /** Every page was read. */
    done: integer('done', { mode: 'boolean' }).notNull(),
    fetchedAt: integer('fetched_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.key] }), index('market_cache_expires_at_idx').on(t.expiresAt)],
);

/**
 * Calls made per service and calendar window ('day:2026-11-22', 'month:2026-11'), so a restart cannot reset the budget.
 */
export const apiUsage = sqliteTable(
  'api_usage',
  {
    service: text('service').notNull(),
    window: text('window').notNull(),
    calls: integer('calls').notNull().default(0),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.window] })],
);

/**
 * A standing order: what every kind (an alert, a digest) keeps alike, once. Its kind's own fields live in the kind's
 * side table (alertFields, digestFields), keyed by this id: decision 0008.
 */
export const standingOrder = sqliteTable(
  'standing_order',
  {
    // One id space for every kind: alerts kept their ids, digests were moved past them (decision 0008).
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `alert` | `digest`: which side table holds the rest. */
    kind: text('kind').notNull(),
    service: text('service').notNull(),
    /**
     * Its target, where it posts: a channel (`slack:T1:C1`, `discord:G:C`, `console:local`), or a person's direct
     * messages, `<platform>:<team>:@<person>`; the form says which, and both start with the team.
     */
    channel: text('target').notNull(),
    /** Its number among its kind's orders of its target, shown to people; never reused there (standingOrderNumber). */
    number: integer('number').notNull(),
    owner: text('owner').notNull(),
    paused: integer('paused', { mode: 'boolean' }).notNull().default(false),
    /** Why it is paused, when it was paused by Manzil rather than a person (null otherwise, and when running). */
    pausedReason: text('paused_reason'),
    /** When it runs, JSON: an alert's `{ "every": "run" }` (every run of its job), a digest's `{ "every": "week", … }`. */
    schedule: text('schedule').notNull(),
    createdAt: integer('created_at').notNull(),
    nextRunAt: integer('next_run_at').notNull(),
    lastRunAt: integer('last_run_at'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('standing_order_target_number_idx').on(t.kind, t.channel, t.number),
    index('standing_order_owner_idx').on(t.kind, t.owner),
    index('standing_order_due_idx').on(t.kind, t.service, t.paused, t.nextRunAt),
  ],
);

/** The last number given to each kind's orders in each target: numbers are never reused there, even after a removal. */
export const standingOrderNumber = sqliteTable(
  'standing_order_number',
  {
    kind: text('kind').notNull(),
    channel: text('target').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.channel] })],
);

/** An alert's own fields (a saved search), beside its standing order; the table keeps its name (decision 0008). */
export const alertFields = sqliteTable(
  'saved_search',
  {
    id: integer('id')
      .notNull()
      .references(() => standingOrder.id, { onDelete: 'cascade' }),
    /** The command as typed. */
    text: text('text').notNull(),
    /** The parsed query and resolved location, versioned JSON. */
    query: text('query').notNull(),
    operation: text('operation').notNull(),
    /** Canonical endpoint parameters (no page, no sort): searches with the same key are fetched once per run. */
    paramsKey: text('params_key').notNull(),
    summary: text('summary').notNull(),
    /**
     * Its words in and out (issue 40: `-shared`, `not by allsopp`) as one canonical key (query/words.ts wordsKey), ''
     * for none: checked in each run's listings for this alert alone, never part of the params key, so alerts that differ
     * only in their words still share one fetch. Two alerts of a channel are the same alert when key and words agree.
     */
    words: text('words').notNull().default(''),
    /**
     * The lifecycle events it also posts (issue 40: `… with back on market`, `… with gone`), as a canonical key
     * (alerts/lifecycle.ts): '' for none (new listings and price drops only), `back`, `gone` or `back,gone`.
     */
    lifecycle: text('lifecycle').notNull().default(''),
    /** Set by the first run, which records what exists and posts nothing. */
    primedAt: integer('primed_at'),
    errorSince: integer('error_since'),
    /** True once the channel was told that this search keeps failing. */
    errorReported: integer('error_reported', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.id] }), index('saved_search_params_idx').on(t.paramsKey)],
);

/** What each saved search has seen, with what is needed to spot a price drop or the same flat listed again. */
export const searchSeen = sqliteTable(
  'search_seen',
  {
    searchId: integer('search_id')
      .notNull()
      .references(() => alertFields.id, { onDelete: 'cascade' }),
    propertyId: text('property_id').notNull(),
    firstSeenAt: integer('first_seen_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    /** The price the last run read. */
    lastPrice: real('last_price'),
    /**
     * The price the channel was last told (when first seen, or in the last price-drop card): drops are measured from
     * it,
     * so several small cuts add up to one reported drop. Null on rows from before it existed: lastPrice stands in.
     */
    reportedPrice: real('reported_price'),
    /** For "the same flat from another agent": location, bedrooms and size of the listing. */
    locationKey: text('location_key'),
    bedrooms: text('bedrooms'),
    size: real('size'),
    /** True when a card was (or will be) posted for it; a listing merely recorded on the first run is false. */
    posted: integer('posted', { mode: 'boolean' }).notNull().default(false),
    /**
     * Complete runs in a row (the whole result read: alerts/fetch.ts `complete`) that did not list it, at most 2: two
     * make it gone for this alert (issue 40). Any run that lists it sets it back to 0; a cut or failed run leaves it.
     */
    missed: integer('missed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.searchId, t.propertyId] })],
);

/**
 * A listing's life story (issue 40), once per listing of a service, however many alerts see it: written in the
 * transaction that commits an alert run, read by key for the run's listings (and by Details). Pruned once nobody has
 * seen it for MANZIL_HISTORY_DAYS. See docs/decisions/0010-a-listings-life-story.md.
 */
export const listingHistory = sqliteTable(
  'listing_history',
  {
    service: text('service').notNull(),
    propertyId: text('property_id').notNull(),
    firstSeenAt: integer('first_seen_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    /** The price last read. */
    lastPrice: real('last_price'),
    /** Each distinct price seen in a row, with when: JSON `[[at, price], …]`, oldest first, at most 50. */
    prices: text('prices').notNull().default('[]'),
    /** When an alert found it gone (missing from two complete runs in a row); null while it is on the market. */
    goneSince: integer('gone_since'),
    /** How many times it came back after being gone. */
    timesBack: integer('times_back').notNull().default(0),
    /** When it last came back, and how long it had been away then (from the last time it was seen). */
    backAt: integer('back_at'),
    awayMs: integer('away_ms'),
    /** Its title as last read: what a "gone" post names, the listing being no longer in any answer. */
    title: text('title'),
  },
  (t) => [primaryKey({ columns: [t.service, t.propertyId] }), index('listing_history_last_seen_idx').on(t.lastSeenAt)],
);

/**
 * What a channel was posted: one row per listing a channel's alerts posted (or counted as posted: the same listing or
 * flat, already posted there by another), however many of them matched it. A run reads it by key for its candidate
 * listings only (their ids, and their locations for the same flat), and writes it in the transaction that records the
 * run, from its posted seen rows.
 */
export const channelPosted = sqliteTable(
  'channel_posted',
  {
    service: text('service').notNull(),
    channel: text('place').notNull(),
    propertyId: text('property_id').notNull(),
    /** The same-flat fingerprint (views/same-flat.ts): location, bedrooms, size and the price last read. */
    locationKey: text('location_key'),
    bedrooms: text('bedrooms'),
    size: real('size'),
    lastPrice: real('last_price'),
    /** The lowest price the channel was told of it: drops are measured from it, once per channel. */
    reportedPrice: real('reported_price'),
    /**
     * The platform's reference of the first card the channel was posted of it (a Slack message ts, a Discord message
     * id), for a later price drop to be posted in its thread (issue 40): written with that card's delivery (the
     * outbox's markDelivered), null for a card from before or not yet delivered, cleared when the channel starts over.
     */
    messageRef: text('message_ref'),
  },
  (t) => [
    primaryKey({ columns: [t.service, t.channel, t.propertyId] }),
    index('channel_posted_location_idx').on(t.service, t.channel, t.locationKey),
  ],
);

/**
 * Which of a channel's alerts matched a listing it was posted: what its one post names. The channel remembers a
 * listing for as long as one of these alerts does (they go with their alert).
 */
export const channelPostedAlert = sqliteTable(
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

/** Deliveries waiting for, or done by, a chat platform: written with the seen rows, marked delivered after the ack. */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    searchId: integer('search_id').references(() => alertFields.id, { onDelete: 'cascade' }),
    channel: text('place').notNull(),
    /** new | price_drop | summary | failing | recovered */
    kind: text('kind').notNull(),
    propertyId: text('property_id'),
    /** One delivery per fact: `12:new:16266089`, `12:drop:16266089:115000`. */
    dedupeKey: text('dedupe_key').notNull(),
    /** What is needed to render the message (versioned JSON). */
    payload: text('payload').notNull(),
    /**
     * pending | claimed (taken by a drainer, waiting its turn in the channel) | sending (its post is in flight, set
     * just
     * before it) | delivered | failed
     */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** The instance that took it and until when (so several instances never send one entry twice). */
    claimedBy: text('claimed_by'),
    claimedUntil: integer('claimed_until'),
    messageId: text('message_id'),
    lastError: text('last_error'),
    /** Re-sent after a crash without a way to check: may show twice. Counted, never hidden. */
    possibleDuplicate: integer('possible_duplicate', { mode: 'boolean' }).notNull().default(false),
    /**
     * The last attempt failed in a way that may have posted it all the same (a timeout, a dropped connection, a 5xx):
     * the platform is asked (findDelivered) before it is sent again, as for an entry found in flight after a crash.
     */
    maybeDelivered: integer('maybe_delivered', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
    /**
     * The database id (db_meta) current when the entry was written: with the id, the delivery id the platform sees
     * (`<origin>-<id>`), unique across databases, so a database restored from a backup that reissues ids never matches
     * an older, different message.
     */
    origin: text('origin').notNull().default(''),
    /** Fencing: the generation of the claim that holds it; every change by a drainer checks it. */
    claimToken: integer('claim_token'),
    /** When the first and the last attempt to post it started: retries give up by time, lookups look from there. */
    firstAttemptAt: integer('first_attempt_at'),
    lastAttemptAt: integer('last_attempt_at'),
    /**
     * When the earliest attempt that may have posted it started (kept until it is delivered): a platform whose re-send
     * is safe only for a while after such an attempt (Discord's nonce) counts from here.
     */
    uncertainSince: integer('uncertain_since'),
  },
  (t) => [
    uniqueIndex('outbox_dedupe_key_idx').on(t.dedupeKey),
    index('outbox_due_idx').on(t.state, t.nextAttemptAt),
    index('outbox_place_idx').on(t.channel, t.state),
  ],
);

/** Leases on singleton jobs (the poller's run), so several instances take turns instead of running twice. */
export const jobLease = sqliteTable('job_lease', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: integer('until').notNull(),
  /** Fencing: a new generation at each take-over; a renewal or a commit by an older generation changes nothing. */
  token: integer('token').notNull().default(0),
  lastRunAt: integer('last_run_at'),
  lastRunMs: integer('last_run_ms'),
  lastRunOk: integer('last_run_ok', { mode: 'boolean' }),
});

/** Each running instance's heartbeat: the claims of an instance whose heartbeat lapsed are taken over at once. */
export const instance = sqliteTable('instance', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: integer('started_at').notNull(),
  heartbeatAt: integer('heartbeat_at').notNull(),
});

/**
 * The database's own facts: `db_id` (random, made at its creation, made anew by `manzil restore`) and `generation`
 * (the counter behind fencing tokens).
 */
export const dbMeta = sqliteTable('db_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** A chat channel that cannot receive (the app removed, the channel archived): its queue is held, its alerts wait. */
export const channelHold = sqliteTable('place_hold', {
  channel: text('place').primaryKey(),
  reason: text('reason').notNull(),
  since: integer('since').notNull(),
  /** When the held queue is tried again. */
  retryAt: integer('retry_at').notNull(),
});

/**
 * A chat channel's own settings (issue 40): its quiet hours (instant alerts found in them wait, and are posted when they
 * end, several as one summary) and its time zone (MANZIL_TIMEZONE when unset), which summaries and quiet hours read.
 */
export const channelSetting = sqliteTable('place_setting', {
  channel: text('place').primaryKey(),
  /** Quiet hours, local `HH:MM` (from, to; `to` may be the next morning); both null when off. */
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  /** An IANA time zone name, or null for MANZIL_TIMEZONE. */
  timezone: text('timezone'),
  updatedAt: integer('updated_at').notNull(),
});

/** A digest's own fields (a channel's market digest), beside its standing order (decision 0008). */
export const digestFields = sqliteTable(
  'digest',
  {
    id: integer('id')
      .notNull()
      .references(() => standingOrder.id, { onDelete: 'cascade' }),
    /** The areas followed: JSON `[{ "id": 5002, "name": "Dubai Marina" }]`. */
    areas: text('places').notNull(),
    timezone: text('timezone').notNull(),
    /** The slot last composed and queued (its schedule, next run and last run are the standing order's). */
    lastSlot: integer('last_slot'),
    /** Upstream calls the last run cost. */
    lastCalls: integer('last_calls'),
  },
  (t) => [primaryKey({ columns: [t.id] })],
);

/**
 * A Slack workspace that added Manzil ("Add to Slack"): Bolt's installation, sealed with MANZIL_ENCRYPTION_KEY
 * (AES-256-GCM, src/store/sealing.ts), so the database alone never gives away a token. Keyed by enterprise and team.
 */
export const slackInstallation = sqliteTable('slack_installation', {
  /** `<enterprise id or ->:<team id or ->`. */
  key: text('key').primaryKey(),
  teamId: text('team_id'),
  enterpriseId: text('enterprise_id'),
  /** Bolt's Installation as JSON, sealed. */
  sealed: text('sealed').notNull(),
  /** Which key sealed it (the first 8 hex digits of its SHA-256), for rotation. */
  keyId: text('key_id').notNull(),
  installedAt: integer('installed_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** Upstream calls made for each team (`slack:T123`, `discord:456`) in each UTC month: its share of the quota spent. */
export const teamUsage = sqliteTable(
  'team_usage',
  {
    team: text('team').notNull(),
    /** `YYYY-MM`, UTC. */
    month: text('month').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [primaryKey({ columns: [t.team, t.month] })],
);

/** A team's own monthly share of calls, set by the operator (`manzil teams set`); others get TEAM_SHARE_PCT. */
export const teamBudget = sqliteTable('team_budget', {
  team: text('team').primaryKey(),
  monthlyCalls: integer('monthly_calls').notNull(),
});

/**
 * One costly ask of one person (`slack:T1:U1`) and its kind (a page, a run, a search): the per-person limits count
 * these in the database, so that every instance on it counts the same (src/teams/person-limits.ts).
 */
export const personUse = sqliteTable(
  'person_use',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    person: text('person').notNull(),
    kind: text('kind').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('person_use_person_kind_at_idx').on(t.person, t.kind, t.at), index('person_use_at_idx').on(t.at)],
);
