CREATE TABLE `db_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instance` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `place_hold` (
	`place` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`since` integer NOT NULL,
	`retry_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `job_lease` ADD `token` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `origin` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `claim_token` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `first_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `last_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `uncertain_since` integer;--> statement-breakpoint
-- Hand-written (reviewed): the database's random id, made once at its creation, and the fencing counter.
INSERT INTO `db_meta` (`key`, `value`) VALUES ('db_id', lower(hex(randomblob(5)))), ('generation', '0');--> statement-breakpoint
-- The lineage starts as the database's first id and is kept by a restore (delivery ids are made of it).
INSERT INTO `db_meta` (`key`, `value`) SELECT 'lineage', `value` FROM `db_meta` WHERE `key` = 'db_id';--> statement-breakpoint
-- Entries already retried before the upgrade give up by time from when they were written.
UPDATE `outbox` SET `first_attempt_at` = `created_at`, `last_attempt_at` = `created_at` WHERE `attempts` > 0;--> statement-breakpoint
-- An entry that may already have been posted is uncertain since it was written (the most cautious time).
UPDATE `outbox` SET `uncertain_since` = `created_at` WHERE `maybe_delivered` = 1 OR `state` = 'sending';

