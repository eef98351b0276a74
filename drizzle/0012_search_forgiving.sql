-- issue 29 item 4 (docs/decisions/179): search that forgives. Synonyms staff keep, names without tone
-- marks for the tone-free pass, and the search text with Thai marks in stored order. issue 29 item 6
-- (docs/decisions/180): brand counts and price range of a category read from one index.
CREATE TABLE "search_synonyms" (
	"id" serial PRIMARY KEY NOT NULL,
	"term" text NOT NULL,
	"synonym" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "search_synonyms_pair_idx" ON "search_synonyms" USING btree ("term","synonym");--> statement-breakpoint
CREATE INDEX "products_name_toneless_trgm_idx" ON "products" USING gin (replace(translate(lower("name"), '่้๊๋', ''), 'ํา', 'ำ') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_category_brand_price_idx" ON "products" USING btree ("category_id","brand_id","price_satang") WHERE "products"."active";--> statement-breakpoint
-- Thai marks in the order Unicode stores them: the same four rules as thaiMarkOrder in
-- src/lib/thai-text.ts (sara am from nikhahit + sara aa, a tone mark before sara am, a tone mark after
-- the vowel above or below, a mark typed twice once). refreshSearchText uses it when a category or a
-- brand is renamed.
CREATE OR REPLACE FUNCTION shop_thai_marks(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(value,
    'ํ([่-๋]?)า', '\1ำ', 'g'),
    'ำ([่-๋])', '\1ำ', 'g'),
    '([่-๋])([ัิ-ฺ็])', '\2\1', 'g'),
    '([ัิ-ฺ็-๎])\1+', '\1', 'g')
$$;
--> statement-breakpoint
-- Search text written before this migration: marks in stored order, like every keyword from now on.
UPDATE products SET search_text = shop_thai_marks(search_text) WHERE search_text <> shop_thai_marks(search_text);
--> statement-breakpoint
-- As for the other trigram indexes (0004): the embedded database has no autovacuum to merge a pending list.
ALTER INDEX products_name_toneless_trgm_idx SET (fastupdate = off);
--> statement-breakpoint
ANALYZE products;
