ALTER TABLE "messages" ADD COLUMN "tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
-- Existing rows: an estimate of their tokens (about 4 characters per token).
UPDATE "messages" SET "tokens" = ceil(char_length("text") / 4.0) WHERE "text" <> '';--> statement-breakpoint
-- Replies left streaming by a version without leases: at most one per chat stays live, for one
-- minute; nothing renews it, so the sweep ends it as interrupted.
UPDATE "messages" SET "state" = 'failed', "error_code" = 'interrupted' WHERE "state" = 'streaming' AND "id" NOT IN (SELECT DISTINCT ON ("chat_id") "id" FROM "messages" WHERE "state" = 'streaming' ORDER BY "chat_id", "seq" DESC);--> statement-breakpoint
UPDATE "messages" SET "lease_until" = now() + interval '1 minute' WHERE "state" = 'streaming';--> statement-breakpoint
CREATE UNIQUE INDEX "messages_live_idx" ON "messages" USING btree ("chat_id") WHERE "messages"."state" = 'streaming';--> statement-breakpoint
CREATE INDEX "messages_lease_idx" ON "messages" USING btree ("lease_until") WHERE "messages"."state" = 'streaming';--> statement-breakpoint
-- Shared limit counters are written on every request without Redis: no WAL for them (a crash
-- of the database server empties them, which only restarts the windows).
ALTER TABLE "rate_limits" SET UNLOGGED;
