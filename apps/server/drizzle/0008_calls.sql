CREATE TABLE "calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"owner" text,
	"lease_until" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"connected_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"seconds_billed" integer DEFAULT 0 NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"resume_key_hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "spoken" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calls_live_idx" ON "calls" USING btree ("user_id") WHERE "calls"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "calls_user_started_idx" ON "calls" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "calls_lease_idx" ON "calls" USING btree ("lease_until") WHERE "calls"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "calls_resume_idx" ON "calls" USING btree ("resume_key_hash");