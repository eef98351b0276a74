-- issue 12: indexes for catalog pages at 100,000 products (docs/decisions/120-catalog-speed-at-scale.md).
-- Every listing sort has an index that starts with its filter, so a page is an index walk of 24 rows
-- (plus the bounded count) instead of a sort of every row in the category. Partial on `active`: hidden
-- products are never listed.
CREATE INDEX IF NOT EXISTS products_code_lower_idx ON products (lower(code));
--> statement-breakpoint
-- Exact and prefix name matches for search relevance, and product pages found by name.
CREATE INDEX IF NOT EXISTS products_name_lower_idx ON products (lower(name) text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_active_created_idx ON products (created_at DESC, id DESC) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_active_price_idx ON products (price_satang, id) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_active_name_idx ON products (name, id) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_category_created_idx ON products (category_id, created_at DESC, id DESC) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_category_price_idx ON products (category_id, price_satang, id) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_category_name_idx ON products (category_id, name, id) WHERE active;
--> statement-breakpoint
-- Related products on a product page: same category, recommended first, newest.
CREATE INDEX IF NOT EXISTS products_category_related_idx ON products (category_id, recommended DESC, created_at DESC, id DESC) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_brand_created_idx ON products (brand_id, created_at DESC, id DESC) WHERE active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS products_brand_price_idx ON products (brand_id, price_satang, id) WHERE active;
--> statement-breakpoint
-- The embedded database has no autovacuum daemon: give the planner statistics for the new indexes.
ANALYZE products;
--> statement-breakpoint
-- GIN's fast-update list is scanned in full by every search until a vacuum merges it, and the embedded
-- database has no autovacuum: a catalog is read far more than written, so entries go straight in.
ALTER INDEX products_search_trgm_idx SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX products_name_trgm_idx SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('products_search_trgm_idx'::regclass), gin_clean_pending_list('products_name_trgm_idx'::regclass);
