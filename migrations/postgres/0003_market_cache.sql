CREATE TABLE "market_cache" (
	"service" text DEFAULT '' NOT NULL,
	"key" text NOT NULL,
	"pages" text NOT NULL,
	"page_count" integer NOT NULL,
	"total_items" integer,
	"total_pages" integer,
	"done" boolean NOT NULL,
	"fetched_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "market_cache_service_key_pk" PRIMARY KEY("service","key")
);
--> statement-breakpoint
CREATE INDEX "market_cache_expires_at_idx" ON "market_cache" USING btree ("expires_at");