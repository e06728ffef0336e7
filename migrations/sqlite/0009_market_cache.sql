CREATE TABLE `market_cache` (
	`service` text DEFAULT '' NOT NULL,
	`key` text NOT NULL,
	`pages` text NOT NULL,
	`page_count` integer NOT NULL,
	`total_items` integer,
	`total_pages` integer,
	`done` integer NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`service`, `key`)
);
--> statement-breakpoint
CREATE INDEX `market_cache_expires_at_idx` ON `market_cache` (`expires_at`);