import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { mailOutbox, type MailStatus } from '../db/schema.ts';
import { env } from '../env.ts';
import { conflict, notFound } from '../http/errors.ts';

/**
 * The mail outbox (docs/design.md section 13, docs/decisions/143). A mail is a row written in the same
 * transaction as what caused it, so a placed order and its mail commit together or not at all; a
 * worker in every instance sends due rows (outbox-worker.ts). No request waits on SMTP.
 */
export const MAIL_CHANNEL = 'shop_mail_outbox';

export type OrderMailKind = 'placed' | 'paid' | 'shipped' | 'cancelled';

export type MailRequest =
  | { kind: `order_${OrderMailKind}`; to: string; payload: { orderNo: string } }
  | { kind: 'password_reset'; to: string; payload: { name: string; link: string } }
  | { kind: 'two_step_locked'; to: string; payload: { name: string; ip: string; lockedUntil: string; failures: number } }
  | { kind: 'two_step_reset'; to: string; payload: { name: string; by: string } }
  /** A visitor's double opt-in; the restock mail itself (`back_in_stock`) is written by a trigger (drizzle/0020). */
  | { kind: 'back_in_stock_confirm'; to: string; payload: { variantCode: string; token: string } }
  /** issue 31 part 3: after delivery, once per order (src/server/reviews/review-invites.ts). */
  | { kind: 'review_invite'; to: string; payload: { orderNo: string } };

export type MailRow = typeof mailOutbox.$inferSelect;

/**
 * Writes a mail into the outbox inside the caller's transaction, and wakes the workers of every
 * instance when that transaction commits (NOTIFY is transactional).
 */
export async function enqueueMail(tx: DbOrTx, mail: MailRequest): Promise<number> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({ kind: mail.kind, toAddress: mail.to, payload: mail.payload })
    .returning({ id: mailOutbox.id });
  await tx.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
  return row!.id;
}

export async function enqueueOrderMail(tx: DbOrTx, orderNo: string, to: string, kind: OrderMailKind): Promise<number> {
  return enqueueMail(tx, { kind: `order_${kind}`, to, payload: { orderNo } });
}

export interface MailSummary {
  id: number;
  kind: string;
  to: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  sentAt: string | null;
  createdAt: string;
  orderNo: string | null;
}

export function summary(row: MailRow): MailSummary {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    orderNo: typeof row.payload.orderNo === 'string' ? row.payload.orderNo : null,
  };
}

/** Newest mails first, optionally of some statuses (the back office lists `failed`). */
export async function listMails(options: { status?: MailStatus[]; limit?: number; offset?: number } = {}): Promise<MailSummary[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(options.status && options.status.length > 0 ? inArray(mailOutbox.status, options.status) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(Math.min(options.limit ?? 50, 500))
    .offset(options.offset ?? 0);
  return rows.map(summary);
}

export async function listFailedMails(limit = 50): Promise<MailSummary[]> {
  return listMails({ status: ['failed'], limit });
}

/** Sends a mail again (a failed one, or a sent one the customer lost): due now with fresh tries. */
export async function resendMail(id: number): Promise<MailSummary> {
  const db = await getDb();
  const [current] = await db.select({ kind: mailOutbox.kind, status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id));
  if (current?.kind === 'password_reset' && current.status === 'sent') {
    throw conflict('mail_not_resendable', 'ลิงก์ตั้งรหัสผ่านใหม่ส่งไปแล้วและไม่ได้เก็บไว้ กรุณาให้ลูกค้าขอลิงก์ใหม่');
  }
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(mailOutbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null, updatedAt: sql`now()` })
      .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ['failed', 'sent'])))
      .returning();
    if (updated) await tx.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
    return updated;
  });
  if (!row) {
    const [existing] = await db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id));
    if (existing?.status === 'pending') throw notFound('mail_already_pending', 'อีเมลนี้อยู่ในคิวรอส่งอยู่แล้ว');
    throw notFound('mail_not_found', 'ไม่พบอีเมลนี้');
  }
  return summary(row);
}

/**
 * Waits until a mail due now has been tried: sent, failed, or put back for a retry (which records the
 * error). Another instance's worker may be the one sending it, so this watches the row, not a worker.
 */
export async function awaitMailAttempt(id: number, timeoutMs = 15_000): Promise<MailSummary | undefined> {
  const db = await getDb();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (!row) return undefined;
    if (row.status !== 'pending' || row.lastError !== null || Date.now() >= deadline) return summary(row);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Claims up to `limit` due mails for this worker: the row locks are skipped by other workers, and the
 * claim pushes `next_attempt_at` one lease ahead, so a worker killed mid-send leaves the mail due
 * again after the lease rather than lost.
 */
export async function claimDueMails(limit: number): Promise<MailRow[]> {
  const db = await getDb();
  const lease = env().MAIL_LEASE_SECONDS;
  const claimed = await db.execute(sql`
    update mail_outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${lease}), updated_at = now()
    where id in (
      select id from mail_outbox where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at, id limit ${limit} for update skip locked
    )
    returning id`);
  const ids = (Array.isArray(claimed) ? claimed : ((claimed as { rows?: unknown[] }).rows ?? [])).map((row) => Number((row as { id: unknown }).id));
  if (ids.length === 0) return [];
  return db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids)).orderBy(mailOutbox.id);
}

/** Sent. A reset link is a credential: once delivered it is not kept in the table. */
export async function markSent(id: number): Promise<void> {
  const db = await getDb();
  await db
    .update(mailOutbox)
    .set({
      status: 'sent',
      sentAt: sql`now()`,
      lastError: null,
      updatedAt: sql`now()`,
      payload: sql`case when ${mailOutbox.kind} = 'password_reset' then ${mailOutbox.payload} - 'link' else ${mailOutbox.payload} end`,
    })
    .where(eq(mailOutbox.id, id));
}

/** Back-off after a failed try: base × 2^(tries − 1), at most an hour. */
export function retryDelaySeconds(attempts: number, base = env().MAIL_RETRY_BASE_SECONDS): number {
  return Math.min(3_600, base * 2 ** Math.max(0, attempts - 1));
}

/** A failed try: due again after the back-off, or `failed` for good after the last try. */
export async function markFailed(row: MailRow, error: string, permanent = false): Promise<MailStatus> {
  const db = await getDb();
  const final = permanent || row.attempts >= env().MAIL_MAX_ATTEMPTS;
  await db
    .update(mailOutbox)
    .set({
      status: final ? 'failed' : 'pending',
      lastError: error.slice(0, 1_000),
      nextAttemptAt: final ? sql`now()` : sql`now() + make_interval(secs => ${retryDelaySeconds(row.attempts)})`,
      updatedAt: sql`now()`,
    })
    .where(eq(mailOutbox.id, row.id));
  return final ? 'failed' : 'pending';
}
