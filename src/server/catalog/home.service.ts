import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { brands, promotions } from '../db/schema.ts';
import type { CategorySummary, ProductSummary } from '../../lib/types.ts';
import { navigationCategories } from './navigation.service.ts';
import { newArrivals, randomRecommended } from './product.repo.ts';

export interface PromotionBanner {
  code: string;
  name: string;
  description: string;
  bannerImage: string | null;
  endsAt: string;
}

export interface BrandSummary {
  code: string;
  name: string;
  nameTh: string;
}

export interface HomeData {
  banners: PromotionBanner[];
  categories: CategorySummary[];
  newArrivals: ProductSummary[];
  recommended: ProductSummary[];
  brands: BrandSummary[];
}

export async function homeData(now = new Date()): Promise<HomeData> {
  const db = await getDb();
  const [banners, categories, latest, recommended, brandRows] = await Promise.all([
    db
      .select({
        code: promotions.code,
        name: promotions.name,
        description: promotions.description,
        bannerImage: promotions.bannerImage,
        endsAt: promotions.endsAt,
      })
      .from(promotions)
      .where(and(eq(promotions.active, true), lte(promotions.startsAt, now), gt(promotions.endsAt, now)))
      .orderBy(asc(promotions.endsAt)),
    navigationCategories(),
    newArrivals(db, 12),
    randomRecommended(db, 12),
    db.select({ code: brands.code, name: brands.name, nameTh: brands.nameTh }).from(brands).where(eq(brands.active, true)).orderBy(asc(brands.name)),
  ]);
  return {
    banners: banners.map((banner) => ({ ...banner, endsAt: banner.endsAt.toISOString() })),
    categories,
    newArrivals: latest,
    recommended,
    brands: brandRows,
  };
}
