CREATE TABLE "image_transforms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"style" text NOT NULL,
	"state" text DEFAULT 'uploaded' NOT NULL,
	"original_key" text NOT NULL,
	"result_key" text,
	"rights_confirmed_at" timestamp with time zone,
	"charged" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image_transforms" ADD CONSTRAINT "image_transforms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "image_transforms_running_idx" ON "image_transforms" USING btree ("user_id") WHERE "image_transforms"."state" = 'processing';--> statement-breakpoint
CREATE INDEX "image_transforms_user_created_idx" ON "image_transforms" USING btree ("user_id","created_at" DESC NULLS LAST);