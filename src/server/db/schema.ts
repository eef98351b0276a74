import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ThaiAddress } from '../../lib/types.ts';

/**
 * The whole domain of DESIGN.md. Money is integer satang; times are timestamptz.
 * Erasable TypeScript with explicit .ts imports so scripts run it with plain Node.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

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
    check('products_price_nonnegative', sql`${table.priceSatang} >= 0`),
    check('products_stock_nonnegative', sql`${table.stock} >= 0`),
  ],
);

export const productPriceTiers = pgTable(
  'product_price_tiers',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull(),
    priceSatang: integer('price_satang').notNull(),
  },
  (table) => [
    uniqueIndex('product_price_tiers_product_min_idx').on(table.productId, table.minQuantity),
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

export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    birthday: date('birthday'),
    scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('members_email_idx').on(sql`lower(${table.email})`),
    uniqueIndex('members_phone_idx').on(table.phone),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque token: a leaked table does not give working tokens. */
    tokenHash: text('token_hash').primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (table) => [index('sessions_member_idx').on(table.memberId), index('sessions_expires_idx').on(table.expiresAt)],
);

export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    recipientName: text('recipient_name').notNull(),
    phone: text('phone').notNull(),
    line1: text('line1').notNull(),
    subdistrict: text('subdistrict').notNull(),
    district: text('district').notNull(),
    province: text('province').notNull(),
    postcode: text('postcode').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('addresses_member_idx').on(table.memberId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_reset_tokens_member_idx').on(table.memberId)],
);

/** Fixed-window counters shared by every instance (login failures, availability checks, resets). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});

export const orderNumberSequence = pgSequence('order_number_seq', { startWith: 1, increment: 1 });

export type OrderStatus =
  | 'pending_payment'
  | 'payment_review'
  | 'paid'
  | 'shipped'
  | 'delivered'
  | 'cancelled'
  | 'expired';
export type PaymentMethod = 'promptpay' | 'bank_transfer' | 'cod';
/** The delivery address as it was when the order was placed. */
export type AddressSnapshot = ThaiAddress;

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderNo: text('order_no').notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    status: text('status').$type<OrderStatus>().notNull(),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    deliveryCode: text('delivery_code').notNull(),
    deliveryName: text('delivery_name').notNull(),
    shippingFeeSatang: integer('shipping_fee_satang').notNull(),
    subtotalSatang: integer('subtotal_satang').notNull(),
    discountSatang: integer('discount_satang').notNull().default(0),
    totalSatang: integer('total_satang').notNull(),
    vatSatang: integer('vat_satang').notNull(),
    promotionCode: text('promotion_code'),
    note: text('note').notNull().default(''),
    address: jsonb('address').$type<AddressSnapshot>().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    slipPath: text('slip_path'),
    slipUploadedAt: timestamp('slip_uploaded_at', { withTimezone: true }),
    carrier: text('carrier'),
    trackingNo: text('tracking_no'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('orders_member_idempotency_idx').on(table.memberId, table.idempotencyKey),
    index('orders_member_created_idx').on(table.memberId, table.createdAt.desc()),
    index('orders_status_expires_idx').on(table.status, table.expiresAt),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    productCode: text('product_code').notNull(),
    productName: text('product_name').notNull(),
    productImage: text('product_image'),
    unitPriceSatang: integer('unit_price_satang').notNull(),
    amount: integer('amount').notNull(),
    lineTotalSatang: integer('line_total_satang').notNull(),
  },
  (table) => [index('order_lines_order_idx').on(table.orderId)],
);

export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>().notNull(),
    actorType: text('actor_type').$type<'member' | 'staff' | 'system'>().notNull(),
    actorId: text('actor_id'),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('order_events_order_idx').on(table.orderId, table.createdAt)],
);
