ALTER TABLE "chat_people" ADD COLUMN "read_through_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- People already in a scene start read (no badge of its old messages after the upgrade).
UPDATE "chat_people" SET "read_through_seq" = COALESCE((SELECT max("seq") FROM "messages" WHERE "messages"."chat_id" = "chat_people"."chat_id"), 0);
