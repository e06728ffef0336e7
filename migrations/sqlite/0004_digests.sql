CREATE TABLE `digest` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service` text NOT NULL,
	`place` text NOT NULL,
	`number` integer NOT NULL,
	`owner` text NOT NULL,
	`places` text NOT NULL,
	`schedule` text NOT NULL,
	`timezone` text NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`next_run_at` integer NOT NULL,
	`last_slot` integer,
	`last_run_at` integer,
	`last_calls` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `digest_place_number_idx` ON `digest` (`place`,`number`);--> statement-breakpoint
CREATE INDEX `digest_due_idx` ON `digest` (`paused`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `digest_number` (
	`place` text PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
