CREATE TABLE `team_budget` (
	`team` text PRIMARY KEY NOT NULL,
	`monthly_calls` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `team_usage` (
	`team` text NOT NULL,
	`month` text NOT NULL,
	`calls` integer NOT NULL,
	PRIMARY KEY(`team`, `month`)
);
