/**
 * A product sold in several variants as the catalog shows it (issue 30, docs/decisions/205): its card's
 * "from" price and shade dots on every list of cards, and search and suggestions finding it once by any
 * variant's code or shade name.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client';
import { products, productVariants } from '../../src/server/db/schema';
import { findProductByCode, findProducts, relatedProducts, suggestions } from '../../src/server/catalog/catalog.service';
import { invalidateCatalog } from '../../src/server/catalog/catalog-cache';
import { emptyQuery } from '../../src/server/catalog/listing-query';
import { adminProduct, saveProduct } from '../../src/server/catalog-admin/product-admin.service';
import { productCardHtml } from '../../src/components/catalog/product-cards-html';
import { productWithVariants } from '../fixtures/orders';

async function shades() {
  const { product, variants } = await productWithVariants([4, 0, 6]);
  const db = await getDb();
  const colours = ['#e8a07a', '#c0392b', '#f5c6d0'];
  for (const [index, variant] of variants.entries()) {
    await db.update(productVariants).set({ swatch: colours[index] }).where(eq(productVariants.id, variant.id));
  }
  await invalidateCatalog({ productCodes: [product.code, ...variants.map((variant) => variant.code)] });
  return { product, variants, colours };
}

describe('cards of a product sold in several variants', () => {
  it('carry the count, the highest price and the shades in the picker’s order, on a listing and a search alike', async () => {
    const { product, variants, colours } = await shades();
    const page = await findProducts({ ...emptyQuery, keyword: product.code });
    const card = page.items.find((item) => item.id === product.id)!;
    expect(card.priceSatang).toBe(product.priceSatang);
    expect(card.variantChoices).toEqual({
      count: 3,
      highestSatang: product.priceSatang + 2000,
      swatches: variants.map((variant, index) => ({ color: colours[index], name: variant.option1 })),
    });

    const html = productCardHtml(card, false);
    expect(html).toContain('เริ่มต้น');
    expect(html).toContain('aria-label="มี 3 สี"');
    expect(html.match(/class="card-dot"/g)).toHaveLength(3);
    // Chosen on the product page: the card links there rather than adding one shade.
    expect(html).not.toContain('data-add-to-cart');
    expect(html).toContain('เลือกตัวเลือก');
  });

  it('drop a shade taken off sale, and a product left with one variant is an ordinary card again', async () => {
    const { product, variants } = await shades();
    const db = await getDb();
    await db.update(productVariants).set({ active: false }).where(eq(productVariants.id, variants[2]!.id));
    await invalidateCatalog({ productCodes: [product.code] });
    const [two] = (await findProducts({ ...emptyQuery, keyword: product.code })).items.filter((item) => item.id === product.id);
    expect(two!.variantChoices).toMatchObject({ count: 2, highestSatang: product.priceSatang + 1000 });

    await db.update(productVariants).set({ active: false }).where(eq(productVariants.id, variants[1]!.id));
    await invalidateCatalog({ productCodes: [product.code] });
    const [one] = (await findProducts({ ...emptyQuery, keyword: product.code })).items.filter((item) => item.id === product.id);
    expect(one!.variantChoices).toBeUndefined();
    expect(productCardHtml(one!, false)).toContain('data-add-to-cart');
  });

  it('show the same choices in the related block, read by the summary query', async () => {
    const { product } = await shades();
    const db = await getDb();
    // First of its category's related block: recommended and newest.
    await db.update(products).set({ recommended: true, createdAt: new Date(Date.now() + 86_400_000) }).where(eq(products.id, product.id));
    await invalidateCatalog({ productCodes: [product.code] });
    const [other] = await db.select({ code: products.code }).from(products).where(eq(products.categoryId, product.categoryId)).limit(2);
    const neighbour = other!.code === product.code ? (await db.select({ code: products.code }).from(products).where(eq(products.categoryId, product.categoryId)).limit(2))[1]! : other!;
    const related = await relatedProducts((await findProductByCode(neighbour.code))!, 6);
    expect(related[0]).toMatchObject({ id: product.id, variantChoices: { count: 3 } });
  });

  it('refuse a swatch that is not a colour: nothing but #rrggbb reaches the style attribute', () => {
    const html = productCardHtml(
      {
        id: 1, code: 'X1', name: 'ลิป', priceSatang: 100, wholesaleFromSatang: null, stock: 3, image: null, categoryCode: 'C', categoryName: 'C',
        brandCode: null, brandName: null, createdAt: new Date().toISOString(),
        variantChoices: { count: 2, highestSatang: 100, swatches: [{ color: 'red;background-image:url(//evil)', name: 'แดง' }, { color: '#00ff00', name: 'เขียว' }] },
      },
      false,
    );
    expect(html).not.toContain('evil');
    expect(html).not.toContain('card-dot');
  });
});

describe('search by a variant', () => {
  it('finds the product once by a shade’s name or a variant’s code, saved from the product form', async () => {
    const { product, variants } = await shades();
    const db = await getDb();
    await db.update(productVariants).set({ option1: 'ส้มอิฐพิเศษ' }).where(eq(productVariants.id, variants[1]!.id));
    // The product form, saved unchanged, writes the search text again with the variants' codes and values
    // (its price is the lowest variant's: not a change of the variants' prices).
    const shown = (await adminProduct(product.code))!;
    const actor = { id: null, email: 'cards@example.test', role: 'staff' as const, via: 'web' as const };
    await saveProduct(actor, product.code, { ...shown, stockWas: shown.stock });

    const byShade = await findProducts({ ...emptyQuery, keyword: 'ส้มอิฐพิเศษ' });
    expect(byShade.items.map((item) => item.id)).toEqual([product.id]);
    const byCode = await findProducts({ ...emptyQuery, keyword: variants[2]!.code });
    expect(byCode.items.filter((item) => item.id === product.id)).toHaveLength(1);

    const suggested = await suggestions('ส้มอิฐพิเศษ');
    expect(suggested).toContainEqual({ kind: 'product', label: `${product.name} — สีส้มอิฐพิเศษ`, href: `/product/${encodeURIComponent(variants[1]!.code)}` });
    expect(suggested.filter((entry) => entry.label.startsWith(product.name))).toHaveLength(1);
  });
});
