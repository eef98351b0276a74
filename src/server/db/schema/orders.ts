import { boolean, index, integer, jsonb, pgSequence, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ThaiAddress } from '../../../lib/types.ts';
import type { OrderStatus, PaymentMethod } from '../../../lib/orders.ts';
import { createdAt, updatedAt } from './columns.ts';
import { members } from './members.ts';
import { products, productVariants } from './shop.ts';
import type { VariantOption } from '../../../lib/variants.ts';
import type { GiftWrapSnapshot } from '../../../lib/gift-wrap.ts';

/**
 * Orders and their money: orders, lines and events, staff notes, slip checks, looks and references,
 * document numbers, receipts, tax invoices and quotations.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

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
    /**
     * issue 31 part 6 (decision 221): one wrapping for the whole order (else the lines' own), what all
     * wrapping cost, the card message and its price, and whether the packing slip leaves prices out.
     * Names and prices as sold; the amounts are in the total and its VAT like the delivery fee.
     */
    giftWrap: jsonb('gift_wrap').$type<GiftWrapSnapshot>(),
    giftWrapSatang: integer('gift_wrap_satang').notNull().default(0),
    giftMessage: text('gift_message').notNull().default(''),
    giftCardSatang: integer('gift_card_satang').notNull().default(0),
    giftHidePrices: boolean('gift_hide_prices').notNull().default(false),
    idempotencyKey: text('idempotency_key').notNull(),
    slipPath: text('slip_path'),
    slipUploadedAt: timestamp('slip_uploaded_at', { withTimezone: true }),
    carrier: text('carrier'),
    trackingNo: text('tracking_no'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** issue 31 part 3: when the mail inviting a review was queued (once per order). */
    reviewInviteQueuedAt: timestamp('review_invite_queued_at', { withTimezone: true }),
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
    /** The variant sold (null only if it was deleted since); `productCode` is the variant's code. */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    productCode: text('product_code').notNull(),
    /** The name at the time of sale, with the variant's values: "ลิปสติกเนื้อแมตต์ — สีส้มพีช". */
    productName: text('product_name').notNull(),
    /** The variant's option values at the time of sale (`[{ name: 'สี', value: 'ส้มพีช' }]`), empty for a one-variant product. */
    variantOptions: jsonb('variant_options').$type<VariantOption[]>().notNull().default([]),
    productImage: text('product_image'),
    unitPriceSatang: integer('unit_price_satang').notNull(),
    amount: integer('amount').notNull(),
    lineTotalSatang: integer('line_total_satang').notNull(),
    /** issue 31 part 6: this line's own wrapping as sold (priced once per line, decision 221), or null. */
    giftWrap: jsonb('gift_wrap').$type<GiftWrapSnapshot>(),
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
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    productCode: text('product_code').notNull(),
    productName: text('product_name').notNull(),
    unitPriceSatang: integer('unit_price_satang').notNull(),
    amount: integer('amount').notNull(),
    lineTotalSatang: integer('line_total_satang').notNull(),
  },
  (table) => [index('quotation_lines_quotation_idx').on(table.quotationId)],
);
