CREATE TABLE "second_step_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"ip" text NOT NULL,
	"kind" text NOT NULL,
	"counts_for_account" boolean DEFAULT true NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "second_step_locks" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	CONSTRAINT "second_step_locks_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
ALTER TABLE "second_step_failures" ADD CONSTRAINT "second_step_failures_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "second_step_failures_member_idx" ON "second_step_failures" USING btree ("member_id","failed_at");--> statement-breakpoint
CREATE INDEX "second_step_failures_ip_idx" ON "second_step_failures" USING btree ("ip","failed_at");--> statement-breakpoint
CREATE INDEX "second_step_locks_until_idx" ON "second_step_locks" USING btree ("locked_until");