CREATE TABLE "shared_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "shared_cache_expires_idx" ON "shared_cache" USING btree ("expires_at");--> statement-breakpoint
-- Hand-written (drizzle cannot express it): the cache is not worth a WAL write; a crash empties it.
ALTER TABLE "shared_cache" SET UNLOGGED;
