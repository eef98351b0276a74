import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { members } from './members.ts';
import { orderLines } from './orders.ts';
import { products } from './shop.ts';

/**
 * issue 31 part 3: reviews from real buyers. A review belongs to one delivered order line (so one per
 * line, and only its buyer writes it) and to that line's product. `pending` waits for the shop when
 * the shop moderates first (`company.reviews_need_approval`); `hidden` is a review staff took down with
 * a reason the member sees. The product's `review_count` / `review_rating_sum` count the published ones.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */
export type ReviewStatus = 'pending' | 'published' | 'hidden';

/** A review's picture as stored: the storage key of its WebP (metadata stripped) and its size. */
export interface ReviewPhoto {
  key: string;
  width: number;
  height: number;
}

export const productReviews = pgTable(
  'product_reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .unique()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** The variant bought, as the review shows it ("สีส้มพีช"), from the order line; '' for a one-variant product. */
    variantLabel: text('variant_label').notNull().default(''),
    rating: smallint('rating').notNull(),
    body: text('body').notNull().default(''),
    photos: jsonb('photos').$type<ReviewPhoto[]>().notNull().default([]),
    status: text('status').$type<ReviewStatus>().notNull(),
    hiddenReason: text('hidden_reason'),
    /** The shop's public answer, shown under the review. */
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    answeredBy: uuid('answered_by').references(() => members.id, { onDelete: 'set null' }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // A product page's reviews (published, photos first, newest first) and its distribution.
    index('product_reviews_product_idx').on(table.productId, table.status, table.createdAt.desc()),
    // The back office's queue: the waiting ones first, newest first.
    index('product_reviews_status_idx').on(table.status, table.createdAt.desc()),
    index('product_reviews_member_idx').on(table.memberId),
    check('product_reviews_rating_range', sql`${table.rating} between 1 and 5`),
    check('product_reviews_status_known', sql`${table.status} in ('pending', 'published', 'hidden')`),
  ],
);
