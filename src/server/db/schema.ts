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
import type { OrderStatus, PaymentMethod } from '../../lib/orders.ts';

/**
 * The whole domain of docs/design.md. Money is integer satang; times are timestamptz.
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
  /** issue 13: how many days a quotation (ใบเสนอราคา) stays valid. */
  quotationValidDays: integer('quotation_valid_days').notNull().default(30),
  /** issue 29: where and when a "รับเองที่หน้าร้าน" order is collected (may differ from the office address). */
  pickupAddress: text('pickup_address').notNull().default(''),
  pickupHours: text('pickup_hours').notNull().default(''),
  /** issue 29: a shipped order nobody confirmed becomes delivered this many days after shipping. */
  autoDeliverDays: integer('auto_deliver_days').notNull().default(7),
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
    /** issue 29: the member closed the account; their personal details were removed then (decision 184). */
    closedAt: timestamp('closed_at', { withTimezone: true }),
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

// ── issue 9: the back office's audit trail ────────────────────────────────────────────────────────

export type AuditVia = 'web' | 'api' | 'cli' | 'system';

/**
 * Every state change made through the back office, the admin endpoints or the operator CLI: who, when,
 * what, and the values before and after. Append-only; the actor's email and role are copied so the
 * trail still reads right after a member is removed or their role changes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull().default(''),
    actorRole: text('actor_role').notNull().default(''),
    via: text('via').$type<AuditVia>().notNull(),
    /** A dotted verb such as `order.confirm_payment`, `product.update`, `staff.grant`. */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull().default(''),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    note: text('note').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at.desc(), table.id.desc()),
    index('audit_log_entity_idx').on(table.entityType, table.entityId),
    index('audit_log_actor_idx').on(table.actorId, table.at.desc()),
    index('audit_log_action_idx').on(table.action, table.at.desc()),
  ],
);

// ── issue 14: mail outbox ─────────────────────────────────────────────────────────────────────────
export type MailStatus = 'pending' | 'sent' | 'failed';

/**
 * Mails to send, written in the same transaction as what caused them (docs/decisions/143). Each
 * instance's worker claims due rows with SKIP LOCKED; `next_attempt_at` is both the back-off and the
 * lease of a row being sent (a worker killed mid-send leaves it due again after the lease).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    /** Template: order_placed, order_paid, order_shipped, order_cancelled, password_reset, two_step_locked, two_step_reset. */
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    /** What the template needs (an order number, a reset link), not the rendered mail. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt),
    index('mail_outbox_created_idx').on(table.createdAt.desc()),
  ],
);

// ── issue 14: addresses a member signed in from ───────────────────────────────────────────────────
/**
 * Where a member has signed in (or signed up) before. When strangers exhaust an account's failed-login
 * allowance from many addresses, these addresses still may try (docs/decisions/144).
 */
export const memberLoginAddresses = pgTable(
  'member_login_addresses',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.memberId, table.ip] })],
);

// ── issue 9: staff notes, disabled members, two-step sign-in, the back-office policy ───────────────

/** Notes staff leave on an order for each other; never shown to the member. */
export const orderStaffNotes = pgTable(
  'order_staff_notes',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id'),
    authorEmail: text('author_email').notNull().default(''),
    note: text('note').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('order_staff_notes_order_idx').on(table.orderId, table.createdAt)],
);

/** A member the shop has shut out: they cannot log in, and their sessions were ended when it happened. */
export const memberBlocks = pgTable('member_blocks', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull().default(''),
  blockedBy: text('blocked_by').notNull().default(''),
  blockedAt: timestamp('blocked_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * TOTP for back-office sign-in (RFC 6238). The secret is what the authenticator app holds; recovery
 * codes are kept only as SHA-256 hashes and each works once. `lastStep` refuses a code used twice.
 */
export const memberTwoFactor = pgTable('member_two_factor', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
  lastStep: integer('last_step').notNull().default(0),
  createdAt: createdAt(),
});

/** A session whose password was right but whose second step (TOTP) is still owed: it is not signed in yet. */
export const sessionsAwaitingTwoFactor = pgTable('sessions_awaiting_two_factor', {
  tokenHash: text('token_hash')
    .primaryKey()
    .references(() => sessions.tokenHash, { onDelete: 'cascade' }),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});

/** Back-office rules the owner sets (one row, id 1). */
export const backOfficePolicy = pgTable('back_office_policy', {
  id: integer('id').primaryKey().default(1),
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  updatedAt: updatedAt(),
});

// ── issue 10: catalog back office: stock history, CSV imports ─────────────────────────────────────

/** Why a stock figure moved: a staff adjustment, an order taking it, a cancel or expiry returning it, a CSV import, a new product. */
export type StockMovementKind = 'adjust' | 'order' | 'cancel' | 'expire' | 'import' | 'create';

/**
 * Every change of `products.stock`, written in the transaction that makes it, so every stock figure can
 * be explained: `stockAfter` is the figure right after this movement.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    kind: text('kind').$type<StockMovementKind>().notNull(),
    reason: text('reason').notNull().default(''),
    orderNo: text('order_no'),
    actorEmail: text('actor_email').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('stock_movements_product_idx').on(table.productId, table.id.desc())],
);

// ── issue 11: content pages edited in the back office ─────────────────────────────────────────────

/**
 * A content page (about us, how to order, contact, address, and pages editors add at /pages/{slug}).
 * The draft is what the editor works on; the published columns are what shoppers see. Bodies are
 * Markdown; HTML is rendered and sanitised on the server when read (src/server/content/markdown.ts).
 */
export const contentPages = pgTable('content_pages', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  body: text('body').notNull().default(''),
  /** Shown among the footer links, in sortOrder. */
  inFooter: boolean('in_footer').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  publishedTitle: text('published_title'),
  publishedDescription: text('published_description'),
  publishedBody: text('published_body'),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Every saved draft and every publish of a page, newest first; restoring copies one back into the draft. */
export const contentPageVersions = pgTable(
  'content_page_versions',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => contentPages.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'draft' | 'publish' | 'restore' | 'seed'>().notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    body: text('body').notNull(),
    /** Who wrote it, for the history's names (issue 32); null for the first copy from src/content. */
    authorId: uuid('author_id').references(() => members.id, { onDelete: 'set null' }),
    /** The author's email when it was written, kept if the member row goes. */
    authorEmail: text('author_email').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('content_page_versions_page_idx').on(table.pageId, table.id.desc())],
);

// ── issue 13: slip QR checks, receipts and tax invoices, quotations ──────────────────────────────

export type SlipCheckStatus = 'verified' | 'warning' | 'no_qr';

/** What the QR of an order's current slip said (one row per order; replaced with the slip). */
export const orderSlipChecks = pgTable(
  'order_slip_checks',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').$type<SlipCheckStatus>().notNull(),
    bank: text('bank'),
    reference: text('reference'),
    warning: text('warning'),
    payload: text('payload'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('order_slip_checks_status_idx').on(table.status)],
);

/**
 * Which staff member opened which slip on the order page (docs/decisions/175-slip-review-before-money.md):
 * confirming several payments at once from the review tab takes only orders whose current slip (its
 * path) this person has looked at. A new slip has a new path, so a look at the old one no longer counts.
 */
export const slipLooks = pgTable(
  'slip_looks',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    slipPath: text('slip_path').notNull(),
    lookedAt: timestamp('looked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.staffId] })],
);

/**
 * Every transaction reference ever sent as a slip, and the order it paid. The unique index is the guard
 * against the same slip paying two orders, even when both are uploaded at the same moment.
 */
export const slipReferences = pgTable(
  'slip_references',
  {
    id: serial('id').primaryKey(),
    bank: text('bank').notNull(),
    reference: text('reference').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('slip_references_bank_reference_idx').on(table.bank, table.reference), index('slip_references_order_idx').on(table.orderId)],
);

/**
 * Running numbers of shop documents per kind and year (receipt, tax_invoice, quotation). A row locked
 * by the transaction that issues the number: a rollback gives the number back, so they never skip.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    kind: text('kind').notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.year] })],
);

/** The receipt / abbreviated tax invoice of a paid order (one per order). */
export const receipts = pgTable('receipts', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  receiptNo: text('receipt_no').notNull().unique(),
  year: integer('year').notNull(),
  sequence: integer('sequence').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TaxBranch = { kind: 'head_office' } | { kind: 'branch'; number: string };

/** A full tax invoice asked for by the buyer (at checkout or later); numbered once the order is paid. */
export const taxInvoices = pgTable('tax_invoices', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  buyerName: text('buyer_name').notNull(),
  buyerAddress: text('buyer_address').notNull(),
  buyerTaxId: text('buyer_tax_id').notNull(),
  /** 'สำนักงานใหญ่' is stored as 00000, a branch as its five digits. */
  buyerBranch: text('buyer_branch').notNull(),
  invoiceNo: text('invoice_no').unique(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  issuedAt: timestamp('issued_at', { withTimezone: true }),
});

/** A quotation (ใบเสนอราคา) from a member's cart, at the server's prices of that day. */
export const quotations = pgTable(
  'quotations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    quotationNo: text('quotation_no').notNull().unique(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    buyerName: text('buyer_name').notNull(),
    buyerCompany: text('buyer_company').notNull().default(''),
    buyerAddress: text('buyer_address').notNull().default(''),
    buyerTaxId: text('buyer_tax_id').notNull().default(''),
    buyerPhone: text('buyer_phone').notNull().default(''),
    deliveryCode: text('delivery_code').notNull(),
    deliveryName: text('delivery_name').notNull(),
    shippingFeeSatang: integer('shipping_fee_satang').notNull(),
    subtotalSatang: integer('subtotal_satang').notNull(),
    totalSatang: integer('total_satang').notNull(),
    vatSatang: integer('vat_satang').notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    createdAt: createdAt(),
  },
  (table) => [index('quotations_member_created_idx').on(table.memberId, table.createdAt.desc())],
);

export const quotationLines = pgTable(
  'quotation_lines',
  {
    id: serial('id').primaryKey(),
    quotationId: uuid('quotation_id')
      .notNull()
      .references(() => quotations.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    productCode: text('product_code').notNull(),
    productName: text('product_name').notNull(),
    unitPriceSatang: integer('unit_price_satang').notNull(),
    amount: integer('amount').notNull(),
    lineTotalSatang: integer('line_total_satang').notNull(),
  },
  (table) => [index('quotation_lines_quotation_idx').on(table.quotationId)],
);

// ── issue 33: back-office forms ─────────────────────────────────────────────────────────────────────

/**
 * What a staff member typed in a back-office form that was refused, kept for the page the refusal
 * returns to (server/admin/form-retries.ts). In the database, not in the flash cookie, so a long text
 * survives and any instance behind the load balancer can show it; the cookie carries only the id.
 */
export const formRetries = pgTable(
  'form_retries',
  {
    id: text('id').primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    formPath: text('form_path').notNull(),
    values: jsonb('values').$type<Record<string, string[]>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('form_retries_created_idx').on(table.createdAt)],
);

// ── issue 32: two-step sign-in that cannot be guessed ───────────────────────────────────────────────

export type SecondStepCodeKind = 'totp' | 'recovery';

/**
 * Every wrong second-step code, whatever half-signed-in session it came from, so a fresh password login
 * does not give a guesser fresh tries (server/auth/second-step-lockout.ts). Counted per account and per
 * address over a sliding window; a success stops the account's rows counting for the account, but they
 * still count for their address.
 */
export const secondStepFailures = pgTable(
  'second_step_failures',
  {
    id: serial('id').primaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    kind: text('kind').$type<SecondStepCodeKind>().notNull(),
    countsForAccount: boolean('counts_for_account').notNull().default(true),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('second_step_failures_member_idx').on(table.memberId, table.failedAt),
    index('second_step_failures_ip_idx').on(table.ip, table.failedAt),
  ],
);

export type SecondStepLockScope = 'account' | 'address';

/** A second step shut for a while: for one account (`subject` = member id) or one address (`subject` = IP). */
export const secondStepLocks = pgTable(
  'second_step_locks',
  {
    scope: text('scope').$type<SecondStepLockScope>().notNull(),
    subject: text('subject').notNull(),
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.subject] }), index('second_step_locks_until_idx').on(table.lockedUntil)],
);
