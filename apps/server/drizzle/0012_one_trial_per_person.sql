CREATE TABLE "trial_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"provider" text NOT NULL,
	"subscription_ref" text NOT NULL,
	"card_fingerprint_hash" text,
	"customer_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charge_ref" text;--> statement-breakpoint
ALTER TABLE "trial_uses" ADD CONSTRAINT "trial_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trial_uses_subscription_idx" ON "trial_uses" USING btree ("provider","subscription_ref");--> statement-breakpoint
CREATE INDEX "trial_uses_user_idx" ON "trial_uses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trial_uses_card_idx" ON "trial_uses" USING btree ("card_fingerprint_hash");--> statement-breakpoint
CREATE INDEX "trial_uses_customer_idx" ON "trial_uses" USING btree ("customer_hash");--> statement-breakpoint
CREATE INDEX "payments_charge_ref_idx" ON "payments" USING btree ("provider","charge_ref");--> statement-breakpoint
-- Hand-written backfill (issue 26), keep at the end when renumbering:
-- every card subscription checkout so far (Stripe, and the sandbox for card and crypto alike)
-- started a free trial and took no money, so its payment charged $0 with a trial;
UPDATE "payments" SET "trial_days" = 3, "amount_cents" = 0
  WHERE "plan" IN ('monthly', 'annual') AND "provider" IN ('sandbox', 'stripe');--> statement-breakpoint
-- and every account that had a trial has used it.
INSERT INTO "trial_uses" ("user_id", "provider", "subscription_ref", "created_at")
  SELECT "user_id", "provider", "provider_subscription_id", "created_at" FROM "subscriptions"
  WHERE "trial_ends_at" IS NOT NULL
  ON CONFLICT DO NOTHING;
