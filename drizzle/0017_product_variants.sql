CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"code" text NOT NULL,
	"option1" text,
	"option2" text,
	"option3" text,
	"swatch" text,
	"price_satang" integer NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"image" text,
	"barcode" text,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_code_unique" UNIQUE("code"),
	CONSTRAINT "product_variants_price_nonnegative" CHECK ("product_variants"."price_satang" >= 0),
	CONSTRAINT "product_variants_stock_nonnegative" CHECK ("product_variants"."stock" >= 0)
);
--> statement-breakpoint
DROP INDEX "product_price_tiers_product_min_idx";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_price_tiers" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "option_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "product_variants_code_lower_idx" ON "product_variants" USING btree (lower("code"));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_price_tiers" ADD CONSTRAINT "product_price_tiers_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_lines" ADD CONSTRAINT "quotation_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_price_tiers_variant_min_idx" ON "product_price_tiers" USING btree ("variant_id","min_quantity") WHERE "product_price_tiers"."variant_id" is not null;--> statement-breakpoint
CREATE INDEX "stock_movements_variant_idx" ON "stock_movements" USING btree ("variant_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "product_price_tiers_product_min_idx" ON "product_price_tiers" USING btree ("product_id","min_quantity") WHERE "product_price_tiers"."variant_id" is null;--> statement-breakpoint
-- issue 30 (docs/decisions/205): every product so far becomes one variant with the same code, price,
-- stock and picture (the variant's picture stays null: it falls back to the product's). Its tiers stay
-- the product's (variant_id null), which apply to a variant without tiers of its own.
INSERT INTO product_variants (product_id, code, price_satang, stock, active, sort_order, created_at, updated_at)
SELECT id, code, price_satang, stock, true, 0, created_at, updated_at FROM products ORDER BY id;
--> statement-breakpoint
UPDATE order_lines l SET variant_id = v.id FROM product_variants v WHERE v.product_id = l.product_id;
--> statement-breakpoint
UPDATE quotation_lines l SET variant_id = v.id FROM product_variants v WHERE v.product_id = l.product_id;
--> statement-breakpoint
UPDATE stock_movements m SET variant_id = v.id FROM product_variants v WHERE v.product_id = m.product_id;
--> statement-breakpoint
-- A product's price is its lowest active variant's (the lowest of all when none is active).
CREATE OR REPLACE FUNCTION products_price_from_variants(changed integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE products p SET price_satang = w.lowest
  FROM (
    SELECT c.changed_id, coalesce(
      (SELECT min(v.price_satang) FROM product_variants v WHERE v.product_id = c.changed_id AND v.active),
      (SELECT min(v.price_satang) FROM product_variants v WHERE v.product_id = c.changed_id)) AS lowest
    FROM unnest(changed) AS c(changed_id)
  ) w
  WHERE p.id = w.changed_id AND w.lowest IS NOT NULL AND p.price_satang IS DISTINCT FROM w.lowest
$$;
--> statement-breakpoint
-- The product's aggregates follow its variants: stock by the difference each statement made (two orders
-- of different shades of one product wait on the product row in turn, and the second adds its own
-- difference to what the first left, never a sum read before the first committed), the price again
-- from the variants. A variant change made by a products trigger (pg_trigger_depth() > 1: a new
-- product's first variant, a one-variant product's stock written on the product) is skipped: the product
-- row already holds it. A code is unique across the shop: no variant takes another product's code.
CREATE OR REPLACE FUNCTION product_variants_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  taken text;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT n.code INTO taken FROM new_variants n JOIN products p ON p.code = n.code AND p.id <> n.product_id LIMIT 1;
    IF taken IS NOT NULL THEN
      RAISE EXCEPTION 'code % is another product''s code', taken USING ERRCODE = 'unique_violation';
    END IF;
  END IF;
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE products p SET stock = p.stock + d.delta
    FROM (SELECT product_id, sum(stock) FILTER (WHERE active) AS delta FROM new_variants GROUP BY product_id) d
    WHERE p.id = d.product_id AND d.delta <> 0;
    PERFORM products_price_from_variants(ARRAY(SELECT DISTINCT product_id FROM new_variants));
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE products p SET stock = p.stock - d.delta
    FROM (SELECT product_id, sum(stock) FILTER (WHERE active) AS delta FROM old_variants GROUP BY product_id) d
    WHERE p.id = d.product_id AND d.delta <> 0;
    PERFORM products_price_from_variants(ARRAY(SELECT DISTINCT product_id FROM old_variants));
  ELSE
    UPDATE products p SET stock = p.stock + d.delta
    FROM (
      SELECT product_id, sum(change) AS delta FROM (
        SELECT product_id, CASE WHEN active THEN stock ELSE 0 END AS change FROM new_variants
        UNION ALL
        SELECT product_id, CASE WHEN active THEN -stock ELSE 0 END FROM old_variants
      ) c GROUP BY product_id
    ) d
    WHERE p.id = d.product_id AND d.delta <> 0;
    PERFORM products_price_from_variants(ARRAY(
      SELECT n.product_id FROM new_variants n JOIN old_variants o ON o.id = n.id
      WHERE n.price_satang <> o.price_satang OR n.active <> o.active OR n.product_id <> o.product_id
      UNION SELECT o.product_id FROM new_variants n JOIN old_variants o ON o.id = n.id WHERE n.product_id <> o.product_id
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_variants_inserted AFTER INSERT ON product_variants
  REFERENCING NEW TABLE AS new_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_aggregate();
--> statement-breakpoint
CREATE TRIGGER product_variants_updated AFTER UPDATE ON product_variants
  REFERENCING OLD TABLE AS old_variants NEW TABLE AS new_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_aggregate();
--> statement-breakpoint
CREATE TRIGGER product_variants_deleted AFTER DELETE ON product_variants
  REFERENCING OLD TABLE AS old_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_aggregate();
--> statement-breakpoint
-- Writers that know only products keep working: a new product is born with one variant (its code,
-- price and stock), and a one-variant product's price, stock or code written on the product is carried
-- to its variant. Writing the price or stock of a product with several variants is refused: they are
-- the variants' to change. Changes the variants' trigger made (depth > 1) are the aggregates: skipped.
CREATE OR REPLACE FUNCTION products_variants_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  refused text;
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO product_variants (product_id, code, price_satang, stock, sort_order)
    SELECT id, code, price_satang, stock, 0 FROM new_products ORDER BY id;
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM new_products n JOIN old_products o ON o.id = n.id
                 WHERE n.price_satang <> o.price_satang OR n.stock <> o.stock OR n.code <> o.code) THEN
    RETURN NULL;
  END IF;
  SELECT n.code INTO refused FROM new_products n JOIN old_products o ON o.id = n.id
  WHERE (n.price_satang <> o.price_satang OR n.stock <> o.stock)
    AND (SELECT count(*) FROM product_variants v WHERE v.product_id = n.id) > 1
  LIMIT 1;
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION 'product % has variants: write their price and stock', refused USING ERRCODE = 'check_violation';
  END IF;
  UPDATE product_variants v SET price_satang = n.price_satang, stock = n.stock, updated_at = now()
  FROM new_products n JOIN old_products o ON o.id = n.id
  WHERE v.product_id = n.id AND (n.price_satang <> o.price_satang OR n.stock <> o.stock)
    AND (v.price_satang <> n.price_satang OR v.stock <> n.stock);
  UPDATE product_variants v SET code = n.code, updated_at = now()
  FROM new_products n JOIN old_products o ON o.id = n.id
  WHERE v.product_id = n.id AND v.code = o.code AND n.code <> o.code;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_variants_inserted AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION products_variants_follow();
--> statement-breakpoint
CREATE TRIGGER products_variants_updated AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION products_variants_follow();
