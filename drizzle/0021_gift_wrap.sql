ALTER TABLE "company" ADD COLUMN "gift_wrap_options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "gift_card_price_satang" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "gift_wrap" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_wrap" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_wrap_satang" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_card_satang" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_hide_prices" boolean DEFAULT false NOT NULL;