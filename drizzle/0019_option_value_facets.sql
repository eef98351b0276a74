-- issue 30 (docs/decisions/217): listing filters and facets by option value.
-- A shade's family: the first of these colour words its name holds, else the name itself ("ชมพูนู้ด" is
-- ชมพู, "เบอร์รี่" เบอร์รี่). The same words in the same order as SHADE_FAMILIES in
-- src/server/catalog/option-facets.ts (tests/integration/option-facets.test.ts compares them).
CREATE OR REPLACE FUNCTION shop_shade_family(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN strpos(value, 'ชมพู') > 0 THEN 'ชมพู'
    WHEN strpos(value, 'แดง') > 0 THEN 'แดง'
    WHEN strpos(value, 'ส้ม') > 0 THEN 'ส้ม'
    WHEN strpos(value, 'ม่วง') > 0 THEN 'ม่วง'
    WHEN strpos(value, 'น้ำตาล') > 0 THEN 'น้ำตาล'
    WHEN strpos(value, 'นู้ด') > 0 THEN 'นู้ด'
    WHEN strpos(value, 'เบจ') > 0 THEN 'เบจ'
    WHEN strpos(value, 'ครีม') > 0 THEN 'ครีม'
    WHEN strpos(value, 'น้ำเงิน') > 0 THEN 'น้ำเงิน'
    WHEN strpos(value, 'ฟ้า') > 0 THEN 'ฟ้า'
    WHEN strpos(value, 'เขียว') > 0 THEN 'เขียว'
    WHEN strpos(value, 'เหลือง') > 0 THEN 'เหลือง'
    WHEN strpos(value, 'ทอง') > 0 THEN 'ทอง'
    WHEN strpos(value, 'เงิน') > 0 THEN 'เงิน'
    WHEN strpos(value, 'เทา') > 0 THEN 'เทา'
    WHEN strpos(value, 'ดำ') > 0 THEN 'ดำ'
    WHEN strpos(value, 'ขาว') > 0 THEN 'ขาว'
    ELSE value END
$$;
--> statement-breakpoint
-- A product's active values read from the index alone: the filter's probe per product and the facet's join.
CREATE INDEX "product_variants_active_options_idx" ON "product_variants" USING btree ("product_id","option1","option2","option3") WHERE "product_variants"."active";--> statement-breakpoint
-- Which products have a value or a shade family in any position: a rare value's products from the index.
CREATE INDEX "product_variants_option_keys_idx" ON "product_variants" USING gin ((array["option1", "option2", "option3", shop_shade_family("option1"), shop_shade_family("option2"), shop_shade_family("option3")])) WHERE "product_variants"."active";
--> statement-breakpoint
-- As for the trigram indexes (0004): the embedded database has no autovacuum to merge a pending list.
ALTER INDEX product_variants_option_keys_idx SET (fastupdate = off);
