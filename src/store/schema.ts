// The database tables. Times are integer milliseconds since the epoch; JSON columns hold text.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The state behind a chat button, so a button on a week-old message still works after a restart. */
export const buttonState = sqliteTable(
  'button_state',
  {
    // Opaque, url-safe, at most 40 characters: fits Slack's button value and Discord's custom_id.
    token: text('token').primaryKey(),
    kind: text('kind').notNull(),
    payload: text('payload').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull(),
  },
  // Pruning scans by last use.
  (t) => [index('button_state_last_used_at_idx').on(t.lastUsedAt)],
);

/** Autocomplete answers per normalised query text, kept until they expire. */
export const locationCache = sqliteTable(
  'location_cache',
  {
    query: text('query').primaryKey(),
    results: text('results').notNull(),
    fetchedAt: integer('fetched_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('location_cache_expires_at_idx').on(t.expiresAt)],
);
