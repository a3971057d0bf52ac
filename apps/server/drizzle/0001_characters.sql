CREATE TABLE "bot_pictures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bot_id" uuid NOT NULL,
	"media_key" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "avatar_key" text;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "review_state" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "voice" text DEFAULT 'en-us+f3' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "occupation" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "personality" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "personality_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "scenario" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "example_messages" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "system_prompt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "post_history_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "alternate_greetings" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "character_book" jsonb;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "creator_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "creator" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "character_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "extensions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "card_extra" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_pictures" ADD CONSTRAINT "bot_pictures_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_pictures_bot_idx" ON "bot_pictures" USING btree ("bot_id","position");--> statement-breakpoint
CREATE INDEX "bots_listed_idx" ON "bots" USING btree ("created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "bots_listed_source_idx" ON "bots" USING btree ("is_official","created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "bots_listed_anime_idx" ON "bots" USING btree ("created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved' and "bots"."tags" @> '{anime}'::text[];--> statement-breakpoint
CREATE INDEX "bots_listed_anime_source_idx" ON "bots" USING btree ("is_official","created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved' and "bots"."tags" @> '{anime}'::text[];--> statement-breakpoint
CREATE INDEX "bots_listed_realistic_idx" ON "bots" USING btree ("created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved' and "bots"."tags" @> '{realistic}'::text[];--> statement-breakpoint
CREATE INDEX "bots_listed_realistic_source_idx" ON "bots" USING btree ("is_official","created_at","id") WHERE "bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved' and "bots"."tags" @> '{realistic}'::text[];--> statement-breakpoint
CREATE INDEX "bots_author_idx" ON "bots" USING btree ("author_id","created_at","id");--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_age_adult" CHECK ("bots"."age" >= 18);