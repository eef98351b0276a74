import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

/**
 * Members and signing in: accounts, sessions, addresses, reset tokens, rate limits, the addresses a
 * member signed in from, blocks, two-step sign-in and its lockout.
 * Part of the one schema (../schema.ts); erasable TypeScript with explicit .ts imports.
 */

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
