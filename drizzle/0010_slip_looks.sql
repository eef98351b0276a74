CREATE TABLE "slip_looks" (
	"order_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"slip_path" text NOT NULL,
	"looked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slip_looks_order_id_staff_id_pk" PRIMARY KEY("order_id","staff_id")
);
--> statement-breakpoint
ALTER TABLE "slip_looks" ADD CONSTRAINT "slip_looks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slip_looks" ADD CONSTRAINT "slip_looks_staff_id_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;