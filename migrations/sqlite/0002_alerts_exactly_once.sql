CREATE TABLE `alert_number` (
	`place` text PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `maybe_delivered` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `search_seen` ADD `reported_price` real;