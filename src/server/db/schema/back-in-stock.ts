import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt } from './columns.ts';
import { members } from './members.ts';
import { productVariants } from './shop.ts';

/**
 * Who waits for a sold-out variant (docs/decisions/220): a member (one click, confirmed at once) or a
 * visitor's e-mail (confirmed through a double opt-in mail). When the variant's stock goes from 0 to
 * above 0, a trigger on product_variants (drizzle/0020) writes one outbox mail per confirmed request and
 * stamps `notified_at`: a request mailed once is fulfilled. The token is the link's key for confirming
 * and cancelling; it opens nothing but this row, so it is kept as issued (the restock mail needs it).
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */
export const backInStockRequests = pgTable(
  'back_in_stock_requests',
  {
    id: serial('id').primaryKey(),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id').references(() => members.id, { onDelete: 'cascade' }),
    /** A visitor's address, lower-cased; null for a member (their address is read when mailing). */
    email: text('email'),
    token: text('token').notNull().unique(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('back_in_stock_variant_member_idx').on(table.variantId, table.memberId),
    uniqueIndex('back_in_stock_variant_email_idx').on(table.variantId, table.email),
    // The waiting ones: what a restock mails and what the back office counts.
    index('back_in_stock_waiting_idx').on(table.variantId).where(sql`${table.notifiedAt} is null`),
    index('back_in_stock_member_idx').on(table.memberId),
    check('back_in_stock_member_or_email', sql`(${table.memberId} is null) <> (${table.email} is null)`),
  ],
);
