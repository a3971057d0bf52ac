CREATE TABLE "bot_picture_sends" (
	"user_id" uuid NOT NULL,
	"picture_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_picture_sends_user_id_picture_id_pk" PRIMARY KEY("user_id","picture_id")
);
--> statement-breakpoint
ALTER TABLE "bot_pictures" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_picture_sends" ADD CONSTRAINT "bot_picture_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_picture_sends" ADD CONSTRAINT "bot_picture_sends_picture_id_bot_pictures_id_fk" FOREIGN KEY ("picture_id") REFERENCES "public"."bot_pictures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_picture_sends" ADD CONSTRAINT "bot_picture_sends_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_picture_sends_user_bot_idx" ON "bot_picture_sends" USING btree ("user_id","bot_id");