import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { members } from './members.ts';

/**
 * Signing in with LINE (issue 31 §7, docs/decisions/211-line-login.md).
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

/** A member's LINE account: LINE's `sub` for this channel, at most one per member and one member per LINE account. */
export const memberLineAccounts = pgTable('member_line_accounts', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull().unique('member_line_accounts_subject_key'),
  /** LINE's display name when linked, shown on the profile so the member knows which account it is. */
  displayName: text('display_name').notNull().default(''),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One trip to LINE and back, keyed by the SHA-256 of a random value in this browser's `shop_line` cookie:
 * the state, nonce and PKCE verifier sent with it (`login` or `link`), used once. A LINE account no member
 * has yet comes back as `signup`, holding the verified LINE subject until the sign-up form is sent.
 */
export const lineSignIns = pgTable(
  'line_sign_ins',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose', { enum: ['login', 'link', 'signup'] }).notNull(),
    state: text('state').notNull().default(''),
    nonce: text('nonce').notNull().default(''),
    codeVerifier: text('code_verifier').notNull().default(''),
    /** `link`: the member who asked to link; LINE's answer must come back to the same member's session. */
    memberId: uuid('member_id').references(() => members.id, { onDelete: 'cascade' }),
    nextPath: text('next_path').notNull().default('/'),
    /** `signup`: what LINE said about the new user. */
    subject: text('subject'),
    displayName: text('display_name').notNull().default(''),
    email: text('email').notNull().default(''),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('line_sign_ins_expires_idx').on(table.expiresAt)],
);
