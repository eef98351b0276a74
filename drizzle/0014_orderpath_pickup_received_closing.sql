-- issue 29: the store pickup place and hours and the days until a shipped order counts as received
-- (decisions 183, 185), and when a member closed their account (decision 184). Empty pickup fields fall
-- back to the shop's address and opening hours, so no data is copied.
ALTER TABLE "company" ADD COLUMN "pickup_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "pickup_hours" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "auto_deliver_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "closed_at" timestamp with time zone;
