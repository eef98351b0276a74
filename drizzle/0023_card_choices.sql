CREATE TABLE "product_card_choices" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"choices" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_card_choices" ADD CONSTRAINT "product_card_choices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- What a product's card shows of its active variants, kept beside the product so that a listing page reads
-- each card's with one key lookup (docs/decisions/232): a row only for a product sold in more than one
-- active variant, with how many, the highest price and the first option's colours in the picker's order;
-- the value the cards query worked out from product_variants per card before (src/server/catalog/product.repo.ts).
CREATE OR REPLACE FUNCTION product_variant_choices(product integer) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN count(*) > 1 THEN json_build_object(
    'count', count(*), 'highestSatang', max(v.price_satang),
    'swatches', coalesce(json_agg(json_build_object('color', v.swatch, 'name', coalesce(v.option1, '')) ORDER BY v.sort_order, v.id)
      FILTER (WHERE v.swatch IS NOT NULL), '[]'::json)) END
  FROM product_variants v WHERE v.product_id = product AND v.active
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_card_choices_of(changed integer[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM product_card_choices c WHERE c.product_id = ANY(changed) AND product_variant_choices(c.product_id) IS NULL;
  INSERT INTO product_card_choices (product_id, choices)
  SELECT w.product_id, w.choices
  FROM (SELECT p.id AS product_id, product_variant_choices(p.id) AS choices FROM products p WHERE p.id = ANY(changed)) w
  WHERE w.choices IS NOT NULL
  ON CONFLICT (product_id) DO UPDATE SET choices = EXCLUDED.choices
    WHERE product_card_choices.choices::text IS DISTINCT FROM EXCLUDED.choices::text;
$$;
--> statement-breakpoint
-- Variants added, removed, or changed in what a card shows of them (active, price, colour, the first
-- option's value, order, product). A stock-only change (every order makes one) matches nothing. Changes the
-- products trigger makes (depth > 1: a new product's first variant, a one-variant product's price or stock
-- carried to its variant) leave one variant: nothing to show.
CREATE OR REPLACE FUNCTION product_variants_card_choices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM product_card_choices_of(ARRAY(SELECT DISTINCT product_id FROM new_variants));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM product_card_choices_of(ARRAY(SELECT DISTINCT product_id FROM old_variants));
  ELSE
    PERFORM product_card_choices_of(ARRAY(
      SELECT n.product_id FROM new_variants n JOIN old_variants o ON o.id = n.id
      WHERE n.active <> o.active OR n.price_satang <> o.price_satang OR n.sort_order <> o.sort_order
        OR n.swatch IS DISTINCT FROM o.swatch OR n.option1 IS DISTINCT FROM o.option1 OR n.product_id <> o.product_id
      UNION SELECT o.product_id FROM new_variants n JOIN old_variants o ON o.id = n.id WHERE n.product_id <> o.product_id
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_variants_card_choices_inserted AFTER INSERT ON product_variants
  REFERENCING NEW TABLE AS new_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_card_choices();
--> statement-breakpoint
CREATE TRIGGER product_variants_card_choices_updated AFTER UPDATE ON product_variants
  REFERENCING OLD TABLE AS old_variants NEW TABLE AS new_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_card_choices();
--> statement-breakpoint
CREATE TRIGGER product_variants_card_choices_deleted AFTER DELETE ON product_variants
  REFERENCING OLD TABLE AS old_variants FOR EACH STATEMENT EXECUTE FUNCTION product_variants_card_choices();
--> statement-breakpoint
INSERT INTO product_card_choices (product_id, choices)
SELECT product_id, product_variant_choices(product_id) FROM product_variants WHERE active GROUP BY product_id HAVING count(*) > 1;
