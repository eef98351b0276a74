CREATE TABLE "back_in_stock_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"variant_id" integer NOT NULL,
	"member_id" uuid,
	"email" text,
	"token" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "back_in_stock_requests_token_unique" UNIQUE("token"),
	CONSTRAINT "back_in_stock_member_or_email" CHECK (("back_in_stock_requests"."member_id" is null) <> ("back_in_stock_requests"."email" is null))
);
--> statement-breakpoint
ALTER TABLE "back_in_stock_requests" ADD CONSTRAINT "back_in_stock_requests_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "back_in_stock_requests" ADD CONSTRAINT "back_in_stock_requests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "back_in_stock_variant_member_idx" ON "back_in_stock_requests" USING btree ("variant_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "back_in_stock_variant_email_idx" ON "back_in_stock_requests" USING btree ("variant_id","email");--> statement-breakpoint
CREATE INDEX "back_in_stock_waiting_idx" ON "back_in_stock_requests" USING btree ("variant_id") WHERE "back_in_stock_requests"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "back_in_stock_member_idx" ON "back_in_stock_requests" USING btree ("member_id");
--> statement-breakpoint
-- Back in stock (docs/decisions/220): whatever writes a variant's stock (the back office's adjustment and
-- editors, the CSV import, a cancelled order's return, the operator, a product row carried to its one
-- variant), a variant of a product on sale that goes from 0 to above 0 mails each confirmed request once.
-- The update holds the variant's row lock until it commits, so a second restock racing it reads the first
-- one's stock (above 0: no restock) and a request is stamped by the statement that mails it: one mail per
-- request and restock, on whichever instance wrote the stock. The mail is rendered when sent (outbox).
CREATE OR REPLACE FUNCTION back_in_stock_announce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  restock record;
  mailed integer;
BEGIN
  FOR restock IN
    SELECT n.id, n.code, n.stock, p.code AS product_code
    FROM new_variants n
    JOIN old_variants o ON o.id = n.id
    JOIN products p ON p.id = n.product_id
    WHERE o.stock <= 0 AND n.stock > 0 AND n.active AND p.active
    ORDER BY n.id
  LOOP
    WITH due AS (
      UPDATE back_in_stock_requests r SET notified_at = now()
      WHERE r.variant_id = restock.id AND r.confirmed_at IS NOT NULL AND r.notified_at IS NULL
      RETURNING r.member_id, r.email, r.token
    ), mails AS (
      INSERT INTO mail_outbox (kind, to_address, payload)
      SELECT 'back_in_stock', coalesce(m.email, d.email),
             jsonb_build_object('variantCode', restock.code, 'token', d.token)
      FROM due d LEFT JOIN members m ON m.id = d.member_id
      WHERE coalesce(m.email, d.email) IS NOT NULL
      RETURNING 1
    )
    SELECT count(*) INTO mailed FROM mails;
    IF mailed > 0 THEN
      INSERT INTO audit_log (actor_email, actor_role, via, action, entity_type, entity_id, after)
      VALUES ('system', 'system', 'system', 'product.restock_notified', 'product', restock.product_code,
              jsonb_build_object('variant', restock.code, 'stock', restock.stock, 'mailed', mailed));
      PERFORM pg_notify('shop_mail_outbox', '');
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_variants_restocked AFTER UPDATE ON product_variants
  REFERENCING OLD TABLE AS old_variants NEW TABLE AS new_variants FOR EACH STATEMENT EXECUTE FUNCTION back_in_stock_announce();
