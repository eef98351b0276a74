import { check, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { members } from './members.ts';

/**
 * A member's saved cart: one row per variant code (docs/decisions/218). The browser's cart stays the
 * working copy (localStorage `shoppingCart`); this is what follows the member to another device.
 * Quantity 0 is a removal kept as a tombstone, so an older change made offline cannot bring the line
 * back. The code is text, not a reference: a line outlives its variant's withdrawal and is dropped with
 * a note when read. Closing the account deletes the rows; so does deleting the member.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */
export const memberCartLines = pgTable(
  'member_cart_lines',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    variantCode: text('variant_code').notNull(),
    quantity: integer('quantity').notNull(),
    /** When the shopper made the change (the device's time, never later than the server's). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.memberId, table.variantCode] }),
    check('member_cart_lines_quantity_range', sql`${table.quantity} >= 0 and ${table.quantity} <= 9999`),
  ],
);
