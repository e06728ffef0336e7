CREATE TABLE `button_state` (
	`token` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `button_state_last_used_at_idx` ON `button_state` (`last_used_at`);--> statement-breakpoint
CREATE TABLE `location_cache` (
	`query` text PRIMARY KEY NOT NULL,
	`results` text NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `location_cache_expires_at_idx` ON `location_cache` (`expires_at`);