CREATE TABLE `channel_posted` (
	`service` text NOT NULL,
	`place` text NOT NULL,
	`property_id` text NOT NULL,
	`location_key` text,
	`bedrooms` text,
	`size` real,
	`last_price` real,
	`reported_price` real,
	PRIMARY KEY(`service`, `place`, `property_id`)
);
--> statement-breakpoint
CREATE INDEX `channel_posted_location_idx` ON `channel_posted` (`service`,`place`,`location_key`);--> statement-breakpoint
CREATE TABLE `channel_posted_alert` (
	`service` text NOT NULL,
	`place` text NOT NULL,
	`property_id` text NOT NULL,
	`search_id` integer NOT NULL,
	PRIMARY KEY(`service`, `place`, `property_id`, `search_id`),
	FOREIGN KEY (`search_id`) REFERENCES `saved_search`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_posted_alert_search_idx` ON `channel_posted_alert` (`search_id`);--> statement-breakpoint
-- What each channel was posted before this table, from every alert's posted seen rows, so an upgraded install posts
-- nothing twice: one row per channel and listing (the fingerprint its alerts read last, the lowest price any of them
-- told the channel) and each of its alerts that posted it or counted it as posted.
INSERT INTO `channel_posted` (`service`, `place`, `property_id`, `location_key`, `bedrooms`, `size`, `last_price`, `reported_price`)
SELECT `service`, `place`, `property_id`, `location_key`, `bedrooms`, `size`, `last_price`, `told` FROM (
  SELECT s.`service`, s.`target` AS `place`, ss.`property_id`, ss.`location_key`, ss.`bedrooms`, ss.`size`, ss.`last_price`,
    min(coalesce(ss.`reported_price`, ss.`last_price`)) OVER w AS `told`,
    row_number() OVER (w ORDER BY ss.`last_seen_at` DESC, ss.`search_id`) AS `n`
  FROM `search_seen` ss JOIN `standing_order` s ON s.`id` = ss.`search_id`
  WHERE ss.`posted` = 1
  WINDOW w AS (PARTITION BY s.`service`, s.`target`, ss.`property_id`)
) WHERE `n` = 1;
--> statement-breakpoint
INSERT INTO `channel_posted_alert` (`service`, `place`, `property_id`, `search_id`)
SELECT s.`service`, s.`target`, ss.`property_id`, ss.`search_id`
FROM `search_seen` ss JOIN `standing_order` s ON s.`id` = ss.`search_id`
WHERE ss.`posted` = 1;
