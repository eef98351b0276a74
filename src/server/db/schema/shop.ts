import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, json, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import type { GiftWrapOption } from '../../../lib/gift-wrap.ts';
import type { VariantChoices } from '../../../lib/types.ts';

/**
 * The shop and its catalog: the company record and its settings, categories, brands, search synonyms,
 * products with their price tiers and pictures, promotions, the gallery and recruitment.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

export type BankAccount = { bank: string; accountNo: string; accountName: string; branch: string };

export type DeliveryOption = {
  code: string;
  name: string;
  feeSatang: number;
  days: string;
  trackingUrl: string | null;
};

export type PaymentMethods = { promptpay: boolean; bankTransfer: boolean; cod: boolean };

export const company = pgTable('company', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull().default(''),
  tagline: text('tagline').notNull().default(''),
  phone: text('phone').notNull(),
  email: text('email').notNull().default(''),
  facebookUrl: text('facebook_url').notNull().default(''),
  lineId: text('line_id').notNull().default(''),
  mapUrl: text('map_url').notNull().default(''),
  address: text('address').notNull().default(''),
  openingHours: text('opening_hours').notNull().default(''),
  taxId: text('tax_id').notNull().default(''),
  promptpayId: text('promptpay_id').notNull().default(''),
  bankAccounts: jsonb('bank_accounts').$type<BankAccount[]>().notNull().default([]),
  deliveryOptions: jsonb('delivery_options').$type<DeliveryOption[]>().notNull().default([]),
  freeShippingMinSatang: integer('free_shipping_min_satang'),
  paymentMethods: jsonb('payment_methods')
    .$type<PaymentMethods>()
    .notNull()
    .default({ promptpay: true, bankTransfer: true, cod: true }),
  orderExpiryHours: integer('order_expiry_hours').notNull().default(24),
  /** issue 13: how many days a quotation (ใบเสนอราคา) stays valid. */
  quotationValidDays: integer('quotation_valid_days').notNull().default(30),
  /** issue 29: where and when a "รับเองที่หน้าร้าน" order is collected (may differ from the office address). */
  pickupAddress: text('pickup_address').notNull().default(''),
  pickupHours: text('pickup_hours').notNull().default(''),
  /** issue 29: a shipped order nobody confirmed becomes delivered this many days after shipping. */
  autoDeliverDays: integer('auto_deliver_days').notNull().default(7),
  /** issue 31 part 6: the wrappings checkout offers (decision 221), and the message card's price (0: free). */
  giftWrapOptions: jsonb('gift_wrap_options').$type<GiftWrapOption[]>().notNull().default([]),
  giftCardPriceSatang: integer('gift_card_price_satang').notNull().default(0),
  /** issue 31 part 3: a new review waits for staff before it shows (false: it shows at once). */
  reviewsNeedApproval: boolean('reviews_need_approval').notNull().default(false),
  /** issue 31 part 3: a delivered order's member gets one mail inviting a review. */
  reviewInvites: boolean('review_invites').notNull().default(true),
  updatedAt: updatedAt(),
});

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull().default(''),
  description: text('description').notNull().default(''),
  image: text('image'),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  nameTh: text('name_th').notNull().default(''),
  description: text('description').notNull().default(''),
  logo: text('logo'),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

/**
 * Words search treats as the same (docs/decisions/179): `lipstick` ⇄ `ลิปสติก`. Each pair works both ways;
 * both sides are stored as search keys (searchKey). Staff keep them at /admin/search.
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    id: serial('id').primaryKey(),
    term: text('term').notNull(),
    synonym: text('synonym').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('search_synonyms_pair_idx').on(table.term, table.synonym)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    nameEn: text('name_en').notNull().default(''),
    description: text('description').notNull().default(''),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    brandId: integer('brand_id').references(() => brands.id),
    priceSatang: integer('price_satang').notNull(),
    stock: integer('stock').notNull().default(0),
    unit: text('unit').notNull().default('ชิ้น'),
    image: text('image'),
    active: boolean('active').notNull().default(true),
    recommended: boolean('recommended').notNull().default(false),
    /** Normalised name, brand, category, code and description: what search matches against. */
    searchText: text('search_text').notNull().default(''),
    /**
     * The lowest of the product's wholesale tier prices (null without tiers), for its card. Kept by
     * triggers on product_price_tiers (drizzle/0005); the seed and the CSV import set it with the row
     * so the triggers find nothing more to write (docs/decisions/160).
     */
    wholesaleFromSatang: integer('wholesale_from_satang'),
    /**
     * The names of the product's options, at most three (`สี`, `ขนาด`, `กลิ่น`); a variant's
     * `option1..3` are its values for them. Empty for a product of one variant (docs/decisions/205).
     */
    optionNames: text('option_names').array().notNull().default(sql`'{}'::text[]`),
    /** issue 31 part 3: the published reviews' count and the sum of their stars, for cards and JSON-LD. */
    reviewCount: integer('review_count').notNull().default(0),
    reviewRatingSum: integer('review_rating_sum').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('products_category_idx').on(table.categoryId, table.active),
    index('products_brand_idx').on(table.brandId),
    index('products_price_idx').on(table.priceSatang),
    index('products_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('products_search_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    index('products_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
    // Names without tone marks (and sara am folded), for the tone-free search pass (docs/decisions/179).
    index('products_name_toneless_trgm_idx').using('gin', sql`replace(translate(lower(${table.name}), '่้๊๋', ''), 'ํา', 'ำ') gin_trgm_ops`),
    // Brand counts and the price range of a category's listing, read from the index alone (docs/decisions/180).
    index('products_category_brand_price_idx').on(table.categoryId, table.brandId, table.priceSatang).where(sql`${table.active}`),
    check('products_price_nonnegative', sql`${table.priceSatang} >= 0`),
    check('products_stock_nonnegative', sql`${table.stock} >= 0`),
  ],
);

/**
 * What is sold and stocked: each product has one or more variants (a shade, a size). `products.price_satang`
 * and `products.stock` are the product's aggregates (lowest active variant price, sum of active variants'
 * stock), kept by triggers (drizzle/0017, docs/decisions/205): write stock and prices here.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** Unique across the shop; the variant of a one-variant product has the product's code. */
    code: text('code').notNull().unique(),
    option1: text('option1'),
    option2: text('option2'),
    option3: text('option3'),
    /** A shade's colour for its swatch (`#e8a07a`), null for options that are not colours. */
    swatch: text('swatch'),
    priceSatang: integer('price_satang').notNull(),
    stock: integer('stock').notNull().default(0),
    /** Null: the product's picture. */
    image: text('image'),
    barcode: text('barcode'),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('product_variants_product_idx').on(table.productId, table.sortOrder, table.id),
    // Listing facets and filters by option value (docs/decisions/217): a product's active values read from the index alone.
    index('product_variants_active_options_idx').on(table.productId, table.option1, table.option2, table.option3).where(sql`${table.active}`),
    // Which products have a value (or a shade family) in any position: a rare value's products from the index, not a probe of every product.
    index('product_variants_option_keys_idx')
      .using(
        'gin',
        sql`(array[${table.option1}, ${table.option2}, ${table.option3}, shop_shade_family(${table.option1}), shop_shade_family(${table.option2}), shop_shade_family(${table.option3})])`,
      )
      .where(sql`${table.active}`),
    // `/product/{code}` with a variant's code, any case, like product codes.
    index('product_variants_code_lower_idx').on(sql`lower(${table.code})`),
    check('product_variants_price_nonnegative', sql`${table.priceSatang} >= 0`),
    check('product_variants_stock_nonnegative', sql`${table.stock} >= 0`),
  ],
);

/**
 * What a product's card shows of its active variants (how many, the highest price, the shades), for a
 * product sold in more than one; no row for a product sold in one. Kept by triggers on product_variants
 * (drizzle/0023, docs/decisions/232) so that a listing page reads each card with one key lookup instead of
 * aggregating the variants of 24 products; a table of its own so that keeping it never rewrites a
 * product row (and its search indexes).
 */
export const productCardChoices = pgTable('product_card_choices', {
  productId: integer('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  choices: json('choices').$type<VariantChoices>().notNull(),
});

/**
 * Wholesale tiers. `variant_id` null: the tier is the product's and applies to every variant without
 * tiers of its own (a one-variant product's tiers stay this way); a variant's own tiers replace them.
 */
export const productPriceTiers = pgTable(
  'product_price_tiers',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull(),
    priceSatang: integer('price_satang').notNull(),
  },
  (table) => [
    uniqueIndex('product_price_tiers_product_min_idx').on(table.productId, table.minQuantity).where(sql`${table.variantId} is null`),
    uniqueIndex('product_price_tiers_variant_min_idx').on(table.variantId, table.minQuantity).where(sql`${table.variantId} is not null`),
    check('product_price_tiers_min_positive', sql`${table.minQuantity} >= 1`),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    alt: text('alt').notNull().default(''),
    sortOrder: integer('sort_order').notNull().default(0),
    // issue 10: the stored picture's size, so <img> carries width and height (null for old URLs).
    width: integer('width'),
    height: integer('height'),
  },
  (table) => [index('product_images_product_idx').on(table.productId, table.sortOrder)],
);

export const promotions = pgTable('promotions', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  bannerImage: text('banner_image'),
  /** 'percent' (discountValue is whole percent) or 'fixed' (discountValue is satang). */
  discountType: text('discount_type').$type<'percent' | 'fixed'>().notNull(),
  discountValue: integer('discount_value').notNull(),
  minOrderSatang: integer('min_order_satang').notNull().default(0),
  maxDiscountSatang: integer('max_discount_satang'),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  usageLimit: integer('usage_limit'),
  usedCount: integer('used_count').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  // issue 11: the banner's background colour on the home page and /promotions (a #rrggbb value).
  bannerColor: text('banner_color').notNull().default('#ffd000'),
  // issue 32, screen 3: the home page prints the name and end date over the picture (true), or shows the
  // picture alone (false) for art that carries its own words.
  bannerTextOver: boolean('banner_text_over').notNull().default(true),
  // issue 29: uses one member may make (null: no limit), counted from their orders that were not
  // cancelled or expired (decision 178).
  perMemberLimit: integer('per_member_limit'),
  // issue 29: only for a member with no order so far that was not cancelled or expired.
  firstOrderOnly: boolean('first_order_only').notNull().default(false),
});

export const promotionProducts = pgTable(
  'promotion_products',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.promotionId, table.productId] })],
);

export const promotionCategories = pgTable(
  'promotion_categories',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.promotionId, table.categoryId] })],
);

export const galleries = pgTable('galleries', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  coverImage: text('cover_image'),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
});

export const galleryImages = pgTable(
  'gallery_images',
  {
    id: serial('id').primaryKey(),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    caption: text('caption').notNull().default(''),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (table) => [index('gallery_images_gallery_idx').on(table.galleryId, table.sortOrder)],
);

export const recruitments = pgTable('recruitments', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  location: text('location').notNull().default(''),
  employmentType: text('employment_type').notNull().default(''),
  salary: text('salary').notNull().default(''),
  open: boolean('open').notNull().default(true),
  postedAt: timestamp('posted_at', { withTimezone: true }).notNull().defaultNow(),
});
