import { count, inArray, sql } from 'drizzle-orm';
import { searchKey } from '../../lib/thai-text.ts';
import { lowestTierPrice } from '../../lib/pricing.ts';
import { log } from '../log.ts';
import type { Database, Db } from './database.ts';
import { withStartupLock } from './startup-lock.ts';
import {
  demoBrands,
  demoCategories,
  demoCompany,
  demoEpoch,
  demoGalleries,
  demoProduct,
  demoPromotions,
  demoRecruitments,
  demoSynonyms,
  renamedDemoProduct,
} from './demo-catalog.ts';
import * as schema from './schema.ts';
import { applyVariantPlans, demoRenames, planSearchWords, scaleVariantPlan, seedDemoVariants, shadePictureForName } from './demo-variants.ts';
import { demoPictureFor, demoPictures, type DemoPictures } from '../catalog/demo-pictures.ts';

/** `/images/demo/lipstick-P00012-2.svg` → `lipstick-P00012-2`. */
const demoName = (url: string) => url.replace(/^\/images\/demo\//, '').replace(/\.svg$/, '');

export const DEFAULT_DEMO_PRODUCTS = 360;
const BATCH = 500;

/** Loads the demo shop into an empty database; does nothing when a company record exists. */
export async function seedDemoIfEmpty(database: Database, products = DEFAULT_DEMO_PRODUCTS): Promise<boolean> {
  return withStartupLock(database, async () => {
    const [row] = await database.db.select({ n: count() }).from(schema.company);
    if ((row?.n ?? 0) > 0) return false;
    const started = Date.now();
    await seedDemo(database.db, { products });
    log.info('demo catalog loaded', { products, ms: Date.now() - started });
    return true;
  });
}

export async function seedDemo(db: Db, options: { products: number; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  const pictures = await demoPictures();
  // The demo's wrappings show the shared gift drawings (no picture drawn for them alone).
  const giftWrapOptions = demoCompany.giftWrapOptions.map((option) => ({ ...option, picture: demoPictureFor(pictures, `gift-wrap-${option.code}`).url }));
  await db.insert(schema.company).values({ ...demoCompany, giftWrapOptions });
  await db.insert(schema.categories).values(
    demoCategories.map((category, index) => ({
      code: category.code,
      name: category.name,
      nameEn: category.nameEn,
      description: category.description,
      image: demoPictureFor(pictures, `${category.image}-${category.code}-1`).url,
      sortOrder: index,
    })),
  );
  await db.insert(schema.brands).values(
    demoBrands.map((brand) => ({ code: brand.code, name: brand.name, nameTh: brand.nameTh, description: brand.description })),
  );
  await ensureDemoProducts(db, options.products, undefined, pictures);
  await seedDemoVariants(db, options.products);
  await db.insert(schema.searchSynonyms).values(demoSynonyms.map(([term, synonym]) => ({ term: searchKey(term), synonym: searchKey(synonym) })));

  const categoryIds = await categoryIdsByCode(db);
  for (const promotion of demoPromotions(now)) {
    const { categories: categoryCodes, ...values } = promotion;
    const [inserted] = await db
      .insert(schema.promotions)
      .values({ ...values, bannerImage: demoPictureFor(pictures, `banner-${promotion.code}-1`).url })
      .returning({ id: schema.promotions.id });
    if (inserted && categoryCodes.length > 0) {
      await db.insert(schema.promotionCategories).values(
        categoryCodes.map((code) => ({ promotionId: inserted.id, categoryId: categoryIds.get(code) as number })),
      );
    }
  }

  for (const [index, gallery] of demoGalleries.entries()) {
    const [inserted] = await db
      .insert(schema.galleries)
      .values({
        code: gallery.code,
        title: gallery.title,
        description: gallery.description,
        coverImage: demoPictureFor(pictures, `photo-${gallery.code}-1`).url,
        sortOrder: index,
        createdAt: new Date(demoEpoch.getTime() - index * 20 * 86_400_000),
      })
      .returning({ id: schema.galleries.id });
    if (!inserted) continue;
    await db.insert(schema.galleryImages).values(
      Array.from({ length: gallery.images }, (_, n) => ({
        galleryId: inserted.id,
        url: demoPictureFor(pictures, `photo-${gallery.code}-${n + 1}`).url,
        caption: `${gallery.title} ภาพที่ ${n + 1}`,
        sortOrder: n,
      })),
    );
  }
  await db.insert(schema.recruitments).values(demoRecruitments);
}

async function categoryIdsByCode(db: Db): Promise<Map<string, number>> {
  const rows = await db.select({ id: schema.categories.id, code: schema.categories.code }).from(schema.categories);
  return new Map(rows.map((row) => [row.code, row.id]));
}

/**
 * Adds demo products until the catalog holds `target` of them (for scale tests:
 * `npm run db:seed -- --products 100000`). Existing products are kept.
 */
export async function ensureDemoProducts(
  db: Db,
  target: number,
  onProgress?: (done: number) => void,
  shared?: DemoPictures,
): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(schema.products);
  const start = existing?.n ?? 0;
  if (start >= target) return 0;
  const pictures = shared ?? (await demoPictures());
  // A product's drawings map onto the shared pictures; two drawings landing on one picture show it once.
  const picturesOf = (images: string[]) => [
    ...new Map(images.map((url) => demoPictureFor(pictures, demoName(url))).map((picture) => [picture.key, picture])).values(),
  ];
  const categoryIds = await categoryIdsByCode(db);
  const brandRows = await db.select({ id: schema.brands.id, code: schema.brands.code, name: schema.brands.name, nameTh: schema.brands.nameTh }).from(schema.brands);
  const brandsByCode = new Map(brandRows.map((row) => [row.code, row]));
  const categoryNames = new Map(demoCategories.map((category) => [category.code, `${category.name} ${category.nameEn}`]));
  // The demo's own products have names of their own (the scale catalog past them repeats names).
  const renames = demoRenames(Math.min(target, 360));

  for (let from = start; from < target; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, target - from) }, (_, i) => {
      const generated = demoProduct(from + i, demoEpoch);
      const name = renames.get(generated.code);
      const product = name ? renamedDemoProduct(generated, name) : generated;
      const variants = scaleVariantPlan(product, from + i);
      // Named with a shade, or sold in shades: its own shade's drawing first.
      const shade = variants?.values[0]?.image ?? shadePictureForName(product);
      const drawn = picturesOf(product.images);
      const pictures = shade ? [{ key: shade, url: shade, width: 480, height: 480, widths: [480] }, ...drawn.slice(1)] : drawn;
      return { ...product, pictures, variants };
    });
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(schema.products)
        .values(
          batch.map((product) => {
            const brand = product.brandCode ? brandsByCode.get(product.brandCode) : undefined;
            return {
              code: product.code,
              name: product.name,
              nameEn: product.nameEn,
              description: product.description,
              categoryId: categoryIds.get(product.categoryCode) as number,
              brandId: brand?.id ?? null,
              priceSatang: product.priceSatang,
              stock: product.stock,
              unit: product.unit,
              image: product.pictures[0]?.url ?? null,
              recommended: product.recommended,
              // What the tiers' trigger would set; set here, the trigger finds nothing to write (drizzle/0005).
              wholesaleFromSatang: lowestTierPrice(product.tiers),
              searchText: searchKey(
                [product.name, brand?.name, brand?.nameTh, categoryNames.get(product.categoryCode), product.code, product.description, product.variants ? planSearchWords(product.variants) : '']
                  .filter(Boolean)
                  .join(' '),
              ),
              createdAt: product.createdAt,
              updatedAt: product.createdAt,
            };
          }),
        )
        .returning({ id: schema.products.id, code: schema.products.code });
      const idByCode = new Map(inserted.map((row) => [row.code, row.id]));
      await applyVariantPlans(tx, batch.flatMap((product) => (product.variants ? [product.variants] : [])), idByCode);
      const tiers = batch.flatMap((product) =>
        product.tiers.map((tier) => ({ productId: idByCode.get(product.code) as number, ...tier })),
      );
      if (tiers.length > 0) await tx.insert(schema.productPriceTiers).values(tiers);
      await tx.insert(schema.productImages).values(
        batch.flatMap((product) =>
          product.pictures.map((picture, sortOrder) => ({
            productId: idByCode.get(product.code) as number,
            url: picture.url,
            alt: `${product.name} ภาพที่ ${sortOrder + 1}`,
            sortOrder,
            width: picture.width,
            height: picture.height,
          })),
        ),
      );
    });
    onProgress?.(Math.min(from + BATCH, target));
  }
  // Statistics for the planner and a visibility map, so counts can read the indexes alone.
  await db.execute(sql`vacuum analyze products`);
  await db.execute(sql`vacuum analyze product_variants`);
  return target - start;
}

/** Product ids by code, for tests and tools. */
export async function productIds(db: Db, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ id: schema.products.id, code: schema.products.code })
    .from(schema.products)
    .where(inArray(schema.products.code, codes));
  return new Map(rows.map((row) => [row.code, row.id]));
}
