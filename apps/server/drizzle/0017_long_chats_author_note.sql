ALTER TABLE "chats" ADD COLUMN "author_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "author_note_depth" smallint DEFAULT 4 NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_chat_created_idx" ON "messages" USING btree ("chat_id","created_at");