CREATE TABLE `standing_order` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`service` text NOT NULL,
	`target` text NOT NULL,
	`number` integer NOT NULL,
	`owner` text NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`paused_reason` text,
	`schedule` text NOT NULL,
	`created_at` integer NOT NULL,
	`next_run_at` integer NOT NULL,
	`last_run_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `standing_order_target_number_idx` ON `standing_order` (`kind`,`target`,`number`);--> statement-breakpoint
CREATE INDEX `standing_order_owner_idx` ON `standing_order` (`kind`,`owner`);--> statement-breakpoint
CREATE INDEX `standing_order_due_idx` ON `standing_order` (`kind`,`service`,`paused`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `standing_order_number` (
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`last` integer NOT NULL,
	PRIMARY KEY(`kind`, `target`)
);
--> statement-breakpoint
-- Hand-edited (decision 0008): every alert and digest is carried into standing_order with its number, owner and
-- state. Alerts keep their ids (search_seen, outbox and buttons point at them); digests are moved past every id an
-- alert had or may have had, and the outbox's digest keys (`digest:<id>:<slot>`) move with them, so a digest already
-- queued or posted for a slot is still found by its key after the upgrade and never queued twice.
-- (Foreign keys are off while migrations run: src/store/migrate.ts checks every reference before it commits.)
CREATE TEMP TABLE `digest_id_shift` AS SELECT max(
  coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'saved_search'), 0),
  coalesce((SELECT max(`id`) FROM `saved_search`), 0)
) AS `n`;--> statement-breakpoint
INSERT INTO `standing_order` (`id`, `kind`, `service`, `target`, `number`, `owner`, `paused`, `paused_reason`, `schedule`, `created_at`, `next_run_at`, `last_run_at`, `last_error`)
  SELECT `id`, 'alert', `service`, `place`, `number`, `owner`, `paused`, NULL, '{"every":"run"}', `created_at`, `next_run_at`, `last_run_at`, `last_error` FROM `saved_search`;--> statement-breakpoint
INSERT INTO `standing_order` (`id`, `kind`, `service`, `target`, `number`, `owner`, `paused`, `paused_reason`, `schedule`, `created_at`, `next_run_at`, `last_run_at`, `last_error`)
  SELECT `id` + (SELECT `n` FROM `digest_id_shift`), 'digest', `service`, `place`, `number`, `owner`, `paused`, NULL, `schedule`, `created_at`, `next_run_at`, `last_run_at`, `last_error` FROM `digest`;--> statement-breakpoint
-- Ids are never given again: the next is past every alert's and every (moved) digest's, removed ones included.
DELETE FROM `sqlite_sequence` WHERE `name` = 'standing_order';--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'standing_order', max(
  coalesce((SELECT max(`id`) FROM `standing_order`), 0),
  (SELECT `n` FROM `digest_id_shift`) + coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'digest'), 0)
);--> statement-breakpoint
INSERT INTO `standing_order_number` (`kind`, `target`, `last`) SELECT 'alert', `place`, `last` FROM `alert_number`;--> statement-breakpoint
INSERT INTO `standing_order_number` (`kind`, `target`, `last`) SELECT 'digest', `place`, `last` FROM `digest_number`;--> statement-breakpoint
-- In two steps: a key moved onto one not yet moved would collide in the unique index.
UPDATE `outbox` SET `dedupe_key` = 'digest~'
  || (CAST(substr(`dedupe_key`, 8, instr(substr(`dedupe_key`, 8), ':') - 1) AS INTEGER) + (SELECT `n` FROM `digest_id_shift`))
  || substr(`dedupe_key`, 7 + instr(substr(`dedupe_key`, 8), ':'))
  WHERE `dedupe_key` LIKE 'digest:%:%' AND substr(`dedupe_key`, 8, instr(substr(`dedupe_key`, 8), ':') - 1) NOT GLOB '*[^0-9]*'
    AND instr(substr(`dedupe_key`, 8), ':') > 1;--> statement-breakpoint
UPDATE `outbox` SET `dedupe_key` = 'digest:' || substr(`dedupe_key`, 8) WHERE `dedupe_key` LIKE 'digest~%';--> statement-breakpoint
DROP TABLE `alert_number`;--> statement-breakpoint
DROP TABLE `digest_number`;--> statement-breakpoint
CREATE TABLE `__new_digest` (
	`id` integer PRIMARY KEY NOT NULL,
	`places` text NOT NULL,
	`timezone` text NOT NULL,
	`last_slot` integer,
	`last_calls` integer,
	FOREIGN KEY (`id`) REFERENCES `standing_order`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_digest`("id", "places", "timezone", "last_slot", "last_calls") SELECT "id" + (SELECT `n` FROM `digest_id_shift`), "places", "timezone", "last_slot", "last_calls" FROM `digest`;--> statement-breakpoint
DROP TABLE `digest`;--> statement-breakpoint
ALTER TABLE `__new_digest` RENAME TO `digest`;--> statement-breakpoint
CREATE TABLE `__new_saved_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`query` text NOT NULL,
	`operation` text NOT NULL,
	`params_key` text NOT NULL,
	`summary` text NOT NULL,
	`primed_at` integer,
	`error_since` integer,
	`error_reported` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `standing_order`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_saved_search`("id", "text", "query", "operation", "params_key", "summary", "primed_at", "error_since", "error_reported") SELECT "id", "text", "query", "operation", "params_key", "summary", "primed_at", "error_since", "error_reported" FROM `saved_search`;--> statement-breakpoint
DROP TABLE `saved_search`;--> statement-breakpoint
ALTER TABLE `__new_saved_search` RENAME TO `saved_search`;--> statement-breakpoint
CREATE INDEX `saved_search_params_idx` ON `saved_search` (`params_key`);--> statement-breakpoint
DROP TABLE `digest_id_shift`;
