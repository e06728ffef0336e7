CREATE TABLE `listing_history` (
	`service` text NOT NULL,
	`property_id` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`last_price` real,
	`prices` text DEFAULT '[]' NOT NULL,
	`gone_since` integer,
	`times_back` integer DEFAULT 0 NOT NULL,
	`back_at` integer,
	`away_ms` integer,
	`title` text,
	PRIMARY KEY(`service`, `property_id`)
);
--> statement-breakpoint
CREATE INDEX `listing_history_last_seen_idx` ON `listing_history` (`last_seen_at`);--> statement-breakpoint
ALTER TABLE `saved_search` ADD `lifecycle` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `channel_posted` ADD `message_ref` text;--> statement-breakpoint
ALTER TABLE `search_seen` ADD `missed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A listing's story from what the alerts had seen before this table, so an upgraded install does not call a listing
-- it has known for weeks "first seen today": the earliest and latest sight of it by any alert, its last price read.
INSERT INTO `listing_history` (`service`, `property_id`, `first_seen_at`, `last_seen_at`, `last_price`, `prices`)
SELECT `service`, `property_id`, `first`, `last`, `last_price`, json_array(json_array(`first`, `last_price`)) FROM (
  SELECT s.`service`, ss.`property_id`, ss.`last_price`,
    min(ss.`first_seen_at`) OVER w AS `first`, max(ss.`last_seen_at`) OVER w AS `last`,
    row_number() OVER (w ORDER BY ss.`last_seen_at` DESC, ss.`search_id`) AS `n`
  FROM `search_seen` ss JOIN `standing_order` s ON s.`id` = ss.`search_id`
  WINDOW w AS (PARTITION BY s.`service`, ss.`property_id`)
) WHERE `n` = 1;
