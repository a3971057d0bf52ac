CREATE TABLE "companion_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text,
	"quiet_start" smallint DEFAULT 1320 NOT NULL,
	"quiet_end" smallint DEFAULT 540 NOT NULL,
	"daily_cap" smallint DEFAULT 3 NOT NULL,
	"email_digest" boolean DEFAULT false NOT NULL,
	"unanswered" smallint DEFAULT 0 NOT NULL,
	"day" text,
	"day_count" smallint DEFAULT 0 NOT NULL,
	"digest_pending_since" timestamp with time zone,
	"digest_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companion_slots" (
	"chat_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"frequency" text NOT NULL,
	"slot_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "proactive_slot" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companion_settings" ADD CONSTRAINT "companion_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companion_slots" ADD CONSTRAINT "companion_slots_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companion_slots" ADD CONSTRAINT "companion_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companion_settings_digest_idx" ON "companion_settings" USING btree ("digest_pending_since") WHERE "companion_settings"."email_digest" and "companion_settings"."digest_pending_since" is not null;--> statement-breakpoint
CREATE INDEX "companion_slots_due_idx" ON "companion_slots" USING btree ("due_at") WHERE "companion_slots"."due_at" is not null;--> statement-breakpoint
CREATE INDEX "companion_slots_user_idx" ON "companion_slots" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_proactive_idx" ON "messages" USING btree ("chat_id","proactive_slot") WHERE "messages"."proactive_slot" is not null;--> statement-breakpoint
CREATE INDEX "safety_events_crisis_user_idx" ON "safety_events" USING btree ("user_id","created_at") WHERE "safety_events"."kind" = 'crisis';