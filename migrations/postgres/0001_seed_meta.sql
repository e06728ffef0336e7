-- The database's own facts, as SQLite's 0003 seeds them: a random id (10 hex characters), the fencing counter at 0,
-- and the lineage, which starts as the database's first id and is kept by a restore (delivery ids are made of it).
-- ON CONFLICT DO NOTHING: rows copied in from another database (a move from SQLite) keep their values.
INSERT INTO "db_meta" ("key", "value") VALUES ('db_id', substr(md5(random()::text), 1, 10)), ('generation', '0') ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "db_meta" ("key", "value") SELECT 'lineage', "value" FROM "db_meta" WHERE "key" = 'db_id' ON CONFLICT ("key") DO NOTHING;
