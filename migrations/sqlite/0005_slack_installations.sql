CREATE TABLE `slack_installation` (
	`key` text PRIMARY KEY NOT NULL,
	`team_id` text,
	`enterprise_id` text,
	`sealed` text NOT NULL,
	`key_id` text NOT NULL,
	`installed_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
