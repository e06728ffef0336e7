CREATE TABLE "place_setting" (
	"place" text PRIMARY KEY NOT NULL,
	"quiet_from" text,
	"quiet_to" text,
	"timezone" text,
	"updated_at" bigint NOT NULL
);
