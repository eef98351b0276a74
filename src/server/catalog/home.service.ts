import { asc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { brands } from '../db/schema.ts';
import type { CategorySummary, ProductSummary } from '../../lib/types.ts';
import type { GalleryAlbum } from '../../lib/catalog-types.ts';
import { activePromotions } from '../promotions/promotion-catalog.service.ts';
import { listGalleries } from '../content/content.service.ts';
import { navigationCategories } from './navigation.service.ts';
import { newArrivals, randomRecommended } from './product.repo.ts';

export interface PromotionBanner {
  code: string;
  name: string;
  description: string;
  bannerImage: string | null;
  bannerColor: string;
  bannerTextOver: boolean;
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
  galleries: GalleryAlbum[];
}

export async function homeData(now = new Date()): Promise<HomeData> {
  const db = await getDb();
  // Only promotions a shopper can still use: running now and not past their usage limit.
  const [banners, categories, latest, recommended, brandRows, galleries] = await Promise.all([
    activePromotions(now),
    navigationCategories(),
    newArrivals(db, 12),
    randomRecommended(db, 12),
    db.select({ code: brands.code, name: brands.name, nameTh: brands.nameTh }).from(brands).where(eq(brands.active, true)).orderBy(asc(brands.name)),
    listGalleries(),
  ]);
  return {
    banners: banners.map((banner) => ({ code: banner.code, name: banner.name, description: banner.description, bannerImage: banner.bannerImage, bannerColor: banner.bannerColor, bannerTextOver: banner.bannerTextOver, endsAt: banner.endsAt })),
    galleries: galleries.slice(0, 4),
    categories,
    newArrivals: latest,
    recommended,
    brands: brandRows,
  };
}
