ALTER TABLE "promotions" ADD COLUMN "per_member_limit" integer;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "first_order_only" boolean DEFAULT false NOT NULL;