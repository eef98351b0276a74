import { index, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { members } from './members.ts';
import { products } from './shop.ts';

/**
 * A member's wishlist: one row per product they keep a heart on (per product, not per variant;
 * docs/decisions/209). Closing the account deletes the rows; so does deleting the product.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */
export const memberWishlist = pgTable(
  'member_wishlist',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.memberId, table.productId] }),
    // The back office's count per product.
    index('member_wishlist_product_idx').on(table.productId),
  ],
);
