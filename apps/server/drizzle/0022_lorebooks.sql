CREATE TABLE "chat_lorebooks" (
	"chat_id" uuid NOT NULL,
	"lorebook_id" uuid NOT NULL,
	CONSTRAINT "chat_lorebooks_chat_id_lorebook_id_pk" PRIMARY KEY("chat_id","lorebook_id")
);
--> statement-breakpoint
CREATE TABLE "lorebook_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lorebook_id" uuid NOT NULL,
	"uid" integer NOT NULL,
	"keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"secondary_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"selective_logic" text DEFAULT 'and_any' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"constant" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"insertion_order" integer DEFAULT 100 NOT NULL,
	"position" text DEFAULT 'after_char' NOT NULL,
	"depth" smallint DEFAULT 4 NOT NULL,
	"probability" smallint DEFAULT 100 NOT NULL,
	"case_sensitive" boolean DEFAULT false NOT NULL,
	"use_regex" boolean DEFAULT false NOT NULL,
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lorebooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"scan_depth" smallint DEFAULT 4 NOT NULL,
	"token_budget" integer DEFAULT 0 NOT NULL,
	"global" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_traces" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"trace" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_lorebooks" ADD CONSTRAINT "chat_lorebooks_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_lorebooks" ADD CONSTRAINT "chat_lorebooks_lorebook_id_lorebooks_id_fk" FOREIGN KEY ("lorebook_id") REFERENCES "public"."lorebooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorebook_entries" ADD CONSTRAINT "lorebook_entries_lorebook_id_lorebooks_id_fk" FOREIGN KEY ("lorebook_id") REFERENCES "public"."lorebooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorebooks" ADD CONSTRAINT "lorebooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorebooks" ADD CONSTRAINT "lorebooks_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_traces" ADD CONSTRAINT "prompt_traces_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_lorebooks_book_idx" ON "chat_lorebooks" USING btree ("lorebook_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lorebook_entries_uid_idx" ON "lorebook_entries" USING btree ("lorebook_id","uid");--> statement-breakpoint
CREATE INDEX "lorebooks_user_idx" ON "lorebooks" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lorebooks_bot_idx" ON "lorebooks" USING btree ("bot_id");