CREATE TABLE "chat_characters" (
	"chat_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"muted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_characters_chat_id_bot_id_pk" PRIMARY KEY("chat_id","bot_id")
);
--> statement-breakpoint
CREATE TABLE "chat_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chat_id" uuid NOT NULL,
	"code" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_members" smallint NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_people" (
	"chat_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"persona_id" uuid,
	"invite_id" uuid,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	"blocked" boolean DEFAULT false NOT NULL,
	CONSTRAINT "chat_people_chat_id_user_id_pk" PRIMARY KEY("chat_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "is_group" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "scene_place" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "scene_situation" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "turn_mode" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "continue_remaining" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "speaker" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "author_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "private_to" uuid;--> statement-breakpoint
ALTER TABLE "chat_characters" ADD CONSTRAINT "chat_characters_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_characters" ADD CONSTRAINT "chat_characters_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_invites" ADD CONSTRAINT "chat_invites_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_people" ADD CONSTRAINT "chat_people_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_people" ADD CONSTRAINT "chat_people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_people" ADD CONSTRAINT "chat_people_persona_id_bots_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_invites_code_idx" ON "chat_invites" USING btree ("code");--> statement-breakpoint
CREATE INDEX "chat_invites_chat_idx" ON "chat_invites" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "chat_people_user_idx" ON "chat_people" USING btree ("user_id");