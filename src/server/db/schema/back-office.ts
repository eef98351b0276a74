import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { members } from './members.ts';
import { products, productVariants } from './shop.ts';

/**
 * What the back office keeps: the audit trail, the mail outbox, the team policy, stock history, content
 * pages and their versions, and typed values kept across a refused form.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

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
    /** Template: order_placed, order_paid, order_shipped, order_cancelled, password_reset, two_step_locked, two_step_reset, back_in_stock_confirm, back_in_stock. */
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

/** Back-office rules the owner sets (one row, id 1). */
export const backOfficePolicy = pgTable('back_office_policy', {
  id: integer('id').primaryKey().default(1),
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  updatedAt: updatedAt(),
});

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
    /** The variant whose stock moved; `stockAfter` is then that variant's figure (docs/decisions/205). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    kind: text('kind').$type<StockMovementKind>().notNull(),
    reason: text('reason').notNull().default(''),
    orderNo: text('order_no'),
    actorEmail: text('actor_email').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('stock_movements_product_idx').on(table.productId, table.id.desc()),
    index('stock_movements_variant_idx').on(table.variantId, table.id.desc()),
  ],
);

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
