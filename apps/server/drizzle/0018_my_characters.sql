ALTER TABLE "bots" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "creator_page_hidden" boolean DEFAULT false NOT NULL;