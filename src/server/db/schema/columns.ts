import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Columns every table writes the same way.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

/**
 * The whole domain of docs/design.md. Money is integer satang; times are timestamptz.
 * Erasable TypeScript with explicit .ts imports so scripts run it with plain Node.
 */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
