CREATE TABLE `person_use` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person` text NOT NULL,
	`kind` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `person_use_person_kind_at_idx` ON `person_use` (`person`,`kind`,`at`);--> statement-breakpoint
CREATE INDEX `person_use_at_idx` ON `person_use` (`at`);--> statement-breakpoint
ALTER TABLE `button_state` ADD `payload_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `button_state_payload_idx` ON `button_state` (`service`,`scope`,`payload_hash`);