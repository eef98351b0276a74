ALTER TABLE "content_page_versions" ADD COLUMN "author_id" uuid;--> statement-breakpoint
ALTER TABLE "content_page_versions" ADD CONSTRAINT "content_page_versions_author_id_members_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Issue 32: the history names people. Versions written before this know their author by email only.
UPDATE "content_page_versions" AS v SET "author_id" = m."id" FROM "members" AS m WHERE v."author_id" IS NULL AND v."author_email" <> '' AND lower(m."email") = lower(v."author_email");--> statement-breakpoint
-- The first copy of each page came from the repository, not a person: it carried the path "src/content".
UPDATE "content_page_versions" SET "author_email" = '' WHERE "kind" = 'seed' AND "author_email" = 'src/content';
