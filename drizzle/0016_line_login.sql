CREATE TABLE "line_sign_ins" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"nonce" text DEFAULT '' NOT NULL,
	"code_verifier" text DEFAULT '' NOT NULL,
	"member_id" uuid,
	"next_path" text DEFAULT '/' NOT NULL,
	"subject" text,
	"display_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_line_accounts" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_line_accounts_subject_key" UNIQUE("subject")
);
--> statement-breakpoint
ALTER TABLE "line_sign_ins" ADD CONSTRAINT "line_sign_ins_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_line_accounts" ADD CONSTRAINT "member_line_accounts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_sign_ins_expires_idx" ON "line_sign_ins" USING btree ("expires_at");