CREATE TABLE "chat_segments" (
	"chat_id" uuid NOT NULL,
	"source_chat_id" uuid NOT NULL,
	"through_seq" bigint NOT NULL,
	CONSTRAINT "chat_segments_chat_id_source_chat_id_pk" PRIMARY KEY("chat_id","source_chat_id")
);
--> statement-breakpoint
CREATE TABLE "message_overrides" (
	"chat_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"text" text,
	"tokens" integer,
	"deleted" boolean DEFAULT false NOT NULL,
	"edited_at" timestamp with time zone,
	CONSTRAINT "message_overrides_chat_id_message_id_pk" PRIMARY KEY("chat_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "parent_chat_id" uuid;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "root_chat_id" uuid;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "fork_message_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_segments" ADD CONSTRAINT "chat_segments_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_segments" ADD CONSTRAINT "chat_segments_source_chat_id_chats_id_fk" FOREIGN KEY ("source_chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_overrides" ADD CONSTRAINT "message_overrides_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_overrides" ADD CONSTRAINT "message_overrides_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_segments_source_idx" ON "chat_segments" USING btree ("source_chat_id","through_seq");--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_parent_chat_id_chats_id_fk" FOREIGN KEY ("parent_chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_root_idx" ON "chats" USING btree ("root_chat_id");--> statement-breakpoint
-- Search in a chat (issue 29, docs/chat.md "Search in a chat"): the text lower-cased with every
-- Han character a word of its own (Chinese has no spaces; a query is then a phrase of them).
CREATE OR REPLACE FUNCTION message_search_text(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(regexp_replace(t, '([㐀-䶿一-鿿豈-﫿])', ' \1 ', 'g')) $$;--> statement-breakpoint
-- Stored, so that a search reads it instead of computing it again for every row it checks,
-- and so that PostgreSQL keeps statistics of its words (the planner's choice between this
-- index and the chat's own rows).
-- The chat's id is a word of it too (`#<uuid>`, which no text can make: the parser never keeps a
-- `#`), so a search asks the index for "this chat and these words" at once.
ALTER TABLE "messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, message_search_text("text")) || array_to_tsvector(ARRAY['#' || "chat_id"::text])) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector") WHERE "role" <> 'system';
