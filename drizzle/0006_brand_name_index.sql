-- issue 12 (docs/decisions/168): a brand's listing sorted by name walks an index that starts with the
-- brand, as its newest and price sorts already do (0004). Without it PostgreSQL walked every active
-- product in name order and dropped the other brands' rows: 360 ms for page 1 of a brand with 3 % of
-- a 100,000-product catalog.
CREATE INDEX IF NOT EXISTS products_brand_name_idx ON products (brand_id, name, id) WHERE active;
--> statement-breakpoint
ANALYZE products;
