CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"day" text NOT NULL,
	"text" text NOT NULL,
	"memory_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"event_date" text,
	"importance" smallint DEFAULT 3 NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"origin" text NOT NULL,
	"source_message_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"terms" text[] DEFAULT '{}'::text[] NOT NULL,
	"dedupe_key" text NOT NULL,
	"embedding" real[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_extractions" (
	"chat_id" uuid PRIMARY KEY NOT NULL,
	"through_seq" bigint DEFAULT 0 NOT NULL,
	"summary_imported" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"memory_id" uuid NOT NULL,
	"change" text NOT NULL,
	"origin" text NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"event_date" text,
	"importance" smallint NOT NULL,
	"pinned" boolean NOT NULL,
	"source_message_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_settings" (
	"user_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"journal" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_settings_user_id_bot_id_pk" PRIMARY KEY("user_id","bot_id")
);
--> statement-breakpoint
CREATE TABLE "message_memories" (
	"message_id" uuid NOT NULL,
	"memory_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"drew_on" boolean DEFAULT false NOT NULL,
	CONSTRAINT "message_memories_message_id_memory_id_pk" PRIMARY KEY("message_id","memory_id")
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "remember" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_extractions" ADD CONSTRAINT "memory_extractions_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_revisions" ADD CONSTRAINT "memory_revisions_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_settings" ADD CONSTRAINT "memory_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_settings" ADD CONSTRAINT "memory_settings_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_memories" ADD CONSTRAINT "message_memories_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_memories" ADD CONSTRAINT "message_memories_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_day_idx" ON "journal_entries" USING btree ("user_id","bot_id","day");--> statement-breakpoint
CREATE INDEX "memories_pair_idx" ON "memories" USING btree ("user_id","bot_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "memories_dedupe_idx" ON "memories" USING btree ("user_id","bot_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "memories_pinned_idx" ON "memories" USING btree ("user_id","bot_id") WHERE "memories"."pinned";--> statement-breakpoint
CREATE INDEX "memories_terms_idx" ON "memories" USING gin ("terms");--> statement-breakpoint
CREATE INDEX "memory_revisions_memory_idx" ON "memory_revisions" USING btree ("memory_id","created_at");--> statement-breakpoint
CREATE INDEX "message_memories_memory_idx" ON "message_memories" USING btree ("memory_id");--> statement-breakpoint
-- Hand-written (docs/memory.md "Search"): the terms index takes each insert at once; a pending list (fastupdate) is read in full by every search and made a search of 20 000 memories cost tens of milliseconds.
ALTER INDEX "memories_terms_idx" SET (fastupdate = off);
