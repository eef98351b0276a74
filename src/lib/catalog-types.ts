import type { CategorySummary, ProductSummary } from './types.ts';

/** Plain catalog shapes that leave the server (pages, the API mappers, islands). */
export interface BrandSummary {
  id: number;
  code: string;
  name: string;
  nameTh: string;
  description: string;
  logo: string | null;
}

export interface ProductImage {
  url: string;
  alt: string;
  /** The stored picture's size (null for pictures stored before sizes were kept). */
  width?: number | null;
  height?: number | null;
}

export interface ProductTier {
  minQuantity: number;
  priceSatang: number;
}

/** One variant of a product as its page and the API show it (docs/decisions/205). */
export interface ProductVariantView {
  code: string;
  /** The values for the product's option names, in their order (null where the variant has none). */
  values: (string | null)[];
  /** A shade's colour for its swatch, or null. */
  swatch: string | null;
  priceSatang: number;
  stock: number;
  /** The variant's picture, or null for the product's. */
  image: string | null;
  active: boolean;
  /** Its own wholesale tiers, else the product's. */
  tiers: ProductTier[];
}

export interface ProductDetail extends ProductSummary {
  /** The product's option names (`สี`, `ขนาด`); empty for a one-variant product. */
  optionNames: string[];
  /** Every variant, active or not, in the shop's order. */
  variants: ProductVariantView[];
  nameEn: string;
  description: string;
  unit: string;
  recommended: boolean;
  updatedAt: string;
  images: ProductImage[];
  tiers: ProductTier[];
  category: CategorySummary & { description: string };
  brand: BrandSummary | null;
}

export interface ProductPage {
  items: ProductSummary[];
  total: number;
  page: number;
  pageSize: number;
  /** True when nothing contained the keyword and these are typo-tolerant (similar) matches. */
  similar: boolean;
  /** More than `total` match: counting stopped at the bound (shown as "มากกว่า 1,000 รายการ"). */
  totalCapped?: boolean;
  /** The page lies past the result window: no rows were read, the page explains how to narrow down. */
  beyondWindow?: boolean;
}

export interface Suggestion {
  kind: 'product' | 'category' | 'brand';
  label: string;
  href: string;
}

export type PromotionState = 'active' | 'upcoming' | 'ended' | 'used_up';

export interface PromotionSummary {
  id: number;
  code: string;
  name: string;
  description: string;
  bannerImage: string | null;
  /** The banner's background colour (#rrggbb), chosen in /admin/promotions. */
  bannerColor: string;
  /** The home page prints the name and end date over the banner picture (false: the picture alone). */
  bannerTextOver: boolean;
  discountType: 'percent' | 'fixed';
  discountValue: number;
  minOrderSatang: number;
  maxDiscountSatang: number | null;
  startsAt: string;
  endsAt: string;
  usageLimit: number | null;
  usedCount: number;
  /** Uses one member may make (null: no such limit), and whether only a member's first order may use it. */
  perMemberLimit: number | null;
  firstOrderOnly: boolean;
  state: PromotionState;
  categoryCodes: string[];
  productCodes: string[];
}

export interface GalleryAlbum {
  id: number;
  code: string;
  title: string;
  description: string;
  coverImage: string | null;
  imageCount: number;
  createdAt: string;
}

export interface GalleryImage {
  url: string;
  caption: string;
}

export interface RecruitmentPost {
  id: number;
  title: string;
  description: string;
  location: string;
  employmentType: string;
  salary: string;
  open: boolean;
  postedAt: string;
}
