import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '../db/client.ts';
import { memberBlocks, members, orders, sessions } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { roleOf } from './role.ts';
import { escapeLike } from '../../lib/thai-text.ts';
import type { Role } from '../../lib/roles.ts';
import type { OrderStatus } from '../../lib/orders.ts';

/** Members as the back office sees them: a paged list, one member's orders (read only), disabling. */
export const MEMBER_PAGE_SIZE = 25;

export const memberQuerySchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

export interface MemberListRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  createdAt: Date;
  orders: number;
  disabled: boolean;
  role: Role | null;
}

export async function listMembers(query: z.infer<typeof memberQuerySchema>): Promise<{ rows: MemberListRow[]; total: number }> {
  const db = await getDb();
  let where: SQL | undefined;
  if (query.q) {
    const like = `%${escapeLike(query.q)}%`;
    where = sql`(${members.email} ilike ${like} or ${members.phone} like ${like} or (${members.firstName} || ' ' || ${members.lastName}) ilike ${like})`;
  }
  const orderCount = sql<number>`(select count(*)::int from ${orders} where ${orders.memberId} = ${members.id})`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: members.id,
        firstName: members.firstName,
        lastName: members.lastName,
        email: members.email,
        phone: members.phone,
        scopes: members.scopes,
        createdAt: members.createdAt,
        orders: orderCount,
        blockedAt: memberBlocks.blockedAt,
      })
      .from(members)
      .leftJoin(memberBlocks, eq(memberBlocks.memberId, members.id))
      .where(where)
      .orderBy(desc(members.createdAt), desc(members.id))
      .limit(MEMBER_PAGE_SIZE)
      .offset((query.page - 1) * MEMBER_PAGE_SIZE),
    db.select({ n: count() }).from(members).where(where),
  ]);
  return {
    total: Number(total?.n ?? 0),
    rows: rows.map((row) => ({
      id: row.id,
      name: `${row.firstName} ${row.lastName}`.trim(),
      email: row.email,
      phone: row.phone,
      createdAt: row.createdAt,
      orders: Number(row.orders),
      disabled: row.blockedAt !== null,
      role: roleOf(row),
    })),
  };
}

export interface MemberDetail {
  id: string;
  name: string;
  email: string;
  phone: string;
  createdAt: Date;
  role: Role | null;
  block: { reason: string; blockedBy: string; blockedAt: Date } | null;
  orders: { orderNo: string; status: OrderStatus; totalSatang: number; createdAt: Date }[];
}

export async function memberDetail(id: string): Promise<MemberDetail> {
  if (!z.uuid().safeParse(id).success) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
  const db = await getDb();
  const [row] = await db
    .select({ member: members, block: memberBlocks })
    .from(members)
    .leftJoin(memberBlocks, eq(memberBlocks.memberId, members.id))
    .where(eq(members.id, id))
    .limit(1);
  if (!row) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
  const list = await db
    .select({ orderNo: orders.orderNo, status: orders.status, totalSatang: orders.totalSatang, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.memberId, id))
    .orderBy(desc(orders.createdAt))
    .limit(100);
  return {
    id: row.member.id,
    name: `${row.member.firstName} ${row.member.lastName}`.trim(),
    email: row.member.email,
    phone: row.member.phone,
    createdAt: row.member.createdAt,
    role: roleOf(row.member),
    block: row.block ? { reason: row.block.reason, blockedBy: row.block.blockedBy, blockedAt: row.block.blockedAt } : null,
    orders: list,
  };
}

/**
 * Disables a member: they cannot log in, and every session they hold ends now, in the same transaction
 * as the audit row. Nobody disables themselves; only an owner disables or enables again someone with a
 * back-office role.
 */
export async function setMemberDisabled(actor: AuditActor & { role: string }, memberId: string, disabled: boolean, reason: string): Promise<void> {
  if (!z.uuid().safeParse(memberId).success) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ member: members, blockedAt: memberBlocks.blockedAt })
      .from(members)
      .leftJoin(memberBlocks, eq(memberBlocks.memberId, members.id))
      .where(eq(members.id, memberId))
      .limit(1)
      .for('update', { of: members });
    if (!row) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
    if (row.member.id === actor.id) throw conflict('self', 'ระงับบัญชีของตัวเองไม่ได้');
    // Both ways: staff re-enabling a team account the owner disabled would undo the owner's decision.
    if (roleOf(row.member) && actor.role !== 'owner') {
      throw forbidden(disabled ? 'เฉพาะเจ้าของร้านเท่านั้นที่ระงับบัญชีของทีมงานได้' : 'เฉพาะเจ้าของร้านเท่านั้นที่เปิดใช้งานบัญชีของทีมงานอีกครั้งได้');
    }
    const was = row.blockedAt !== null;
    if (was === disabled) throw conflict('unchanged', disabled ? 'บัญชีนี้ถูกระงับอยู่แล้ว' : 'บัญชีนี้ใช้งานได้อยู่แล้ว');
    if (disabled) {
      await tx.insert(memberBlocks).values({ memberId, reason: reason.slice(0, 500), blockedBy: actor.email });
      await tx.delete(sessions).where(eq(sessions.memberId, memberId));
    } else {
      await tx.delete(memberBlocks).where(eq(memberBlocks.memberId, memberId));
    }
    await recordAudit(tx, actor, {
      action: disabled ? 'member.disable' : 'member.enable',
      entityType: 'member',
      entityId: memberId,
      before: { email: row.member.email, disabled: was },
      after: { email: row.member.email, disabled },
      note: reason,
    });
  });
}

export async function isMemberDisabled(memberId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: memberBlocks.memberId }).from(memberBlocks).where(eq(memberBlocks.memberId, memberId)).limit(1);
  return Boolean(row);
}
