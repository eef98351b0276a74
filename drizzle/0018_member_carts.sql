CREATE TABLE "member_cart_lines" (
	"member_id" uuid NOT NULL,
	"variant_code" text NOT NULL,
	"quantity" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_cart_lines_member_id_variant_code_pk" PRIMARY KEY("member_id","variant_code"),
	CONSTRAINT "member_cart_lines_quantity_range" CHECK ("member_cart_lines"."quantity" >= 0 and "member_cart_lines"."quantity" <= 9999)
);
--> statement-breakpoint
ALTER TABLE "member_cart_lines" ADD CONSTRAINT "member_cart_lines_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;