-- issue 30 (docs/decisions/217): listing filters and facets by option value read a product's active values from this
-- index alone (the EXISTS probe per product and the facet's join), not from the table.
CREATE INDEX "product_variants_active_options_idx" ON "product_variants" USING btree ("product_id","option1","option2","option3") WHERE "product_variants"."active";