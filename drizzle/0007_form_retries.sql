CREATE TABLE "form_retries" (
	"id" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"form_path" text NOT NULL,
	"values" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_retries" ADD CONSTRAINT "form_retries_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_retries_created_idx" ON "form_retries" USING btree ("created_at");