-- issue 12 (docs/decisions/160): a product card's "wholesale from" price is read with the product row,
-- not by a subquery into product_price_tiers for each card. Triggers on the tiers keep it, whatever
-- writes them (back office, CSV import, operator CLI, seed, SQL by hand).
ALTER TABLE "products" ADD COLUMN "wholesale_from_satang" integer;
--> statement-breakpoint
UPDATE products p SET wholesale_from_satang = t.lowest
FROM (SELECT product_id, min(price_satang) AS lowest FROM product_price_tiers GROUP BY product_id) t
WHERE t.product_id = p.id;
--> statement-breakpoint
-- The products whose tiers a statement changed get their lowest tier price again, and only rows whose
-- value differs are written (the seed sets it with the product, so its tiers write nothing more).
CREATE OR REPLACE FUNCTION products_wholesale_from_set(changed integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE products p SET wholesale_from_satang = w.lowest
  FROM (
    SELECT c.changed_id, (SELECT min(t.price_satang) FROM product_price_tiers t WHERE t.product_id = c.changed_id) AS lowest
    FROM unnest(changed) AS c(changed_id)
  ) w
  WHERE p.id = w.changed_id AND p.wholesale_from_satang IS DISTINCT FROM w.lowest
$$;
--> statement-breakpoint
-- One UPDATE per statement on the tiers (transition tables), not one per tier row: replacing a
-- product's tiers is a delete and an insert, and the CSV import writes thousands of products at once.
CREATE OR REPLACE FUNCTION products_wholesale_from_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM products_wholesale_from_set(ARRAY(SELECT DISTINCT product_id FROM new_tiers));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM products_wholesale_from_set(ARRAY(SELECT DISTINCT product_id FROM old_tiers));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM products_wholesale_from_set(ARRAY(SELECT product_id FROM old_tiers UNION SELECT product_id FROM new_tiers));
  ELSE
    UPDATE products SET wholesale_from_satang = NULL WHERE wholesale_from_satang IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_price_tiers_inserted AFTER INSERT ON product_price_tiers
  REFERENCING NEW TABLE AS new_tiers FOR EACH STATEMENT EXECUTE FUNCTION products_wholesale_from_refresh();
--> statement-breakpoint
CREATE TRIGGER product_price_tiers_updated AFTER UPDATE ON product_price_tiers
  REFERENCING OLD TABLE AS old_tiers NEW TABLE AS new_tiers FOR EACH STATEMENT EXECUTE FUNCTION products_wholesale_from_refresh();
--> statement-breakpoint
CREATE TRIGGER product_price_tiers_deleted AFTER DELETE ON product_price_tiers
  REFERENCING OLD TABLE AS old_tiers FOR EACH STATEMENT EXECUTE FUNCTION products_wholesale_from_refresh();
--> statement-breakpoint
CREATE TRIGGER product_price_tiers_truncated AFTER TRUNCATE ON product_price_tiers
  FOR EACH STATEMENT EXECUTE FUNCTION products_wholesale_from_refresh();
