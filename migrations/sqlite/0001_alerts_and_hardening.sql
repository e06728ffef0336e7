CREATE TABLE `api_usage` (
	`service` text NOT NULL,
	`window` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`service`, `window`)
);
--> statement-breakpoint
CREATE TABLE `job_lease` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`until` integer NOT NULL,
	`last_run_at` integer,
	`last_run_ms` integer,
	`last_run_ok` integer
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`search_id` integer,
	`place` text NOT NULL,
	`kind` text NOT NULL,
	`property_id` text,
	`dedupe_key` text NOT NULL,
	`payload` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_by` text,
	`claimed_until` integer,
	`message_id` text,
	`last_error` text,
	`possible_duplicate` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`search_id`) REFERENCES `saved_search`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_dedupe_key_idx` ON `outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_place_idx` ON `outbox` (`place`,`state`);--> statement-breakpoint
CREATE TABLE `saved_search` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service` text NOT NULL,
	`place` text NOT NULL,
	`number` integer NOT NULL,
	`owner` text NOT NULL,
	`text` text NOT NULL,
	`query` text NOT NULL,
	`operation` text NOT NULL,
	`params_key` text NOT NULL,
	`summary` text NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`primed_at` integer,
	`last_run_at` integer,
	`next_run_at` integer NOT NULL,
	`last_error` text,
	`error_since` integer,
	`error_reported` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_search_place_number_idx` ON `saved_search` (`place`,`number`);--> statement-breakpoint
CREATE INDEX `saved_search_owner_idx` ON `saved_search` (`owner`);--> statement-breakpoint
CREATE INDEX `saved_search_due_idx` ON `saved_search` (`paused`,`next_run_at`);--> statement-breakpoint
CREATE INDEX `saved_search_params_idx` ON `saved_search` (`service`,`params_key`);--> statement-breakpoint
CREATE TABLE `search_seen` (
	`search_id` integer NOT NULL,
	`property_id` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`last_price` real,
	`location_key` text,
	`bedrooms` text,
	`size` real,
	`posted` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`search_id`, `property_id`),
	FOREIGN KEY (`search_id`) REFERENCES `saved_search`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_location_cache` (
	`service` text DEFAULT '' NOT NULL,
	`query` text NOT NULL,
	`results` text NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`service`, `query`)
);
--> statement-breakpoint
-- Reviewed: old cache rows are not copied. Their service is unknown, and a cache can always be fetched again.
DROP TABLE `location_cache`;--> statement-breakpoint
ALTER TABLE `__new_location_cache` RENAME TO `location_cache`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `location_cache_expires_at_idx` ON `location_cache` (`expires_at`);--> statement-breakpoint
ALTER TABLE `button_state` ADD `service` text DEFAULT '' NOT NULL;