import { and, count, desc, eq, gte, ilike, inArray, isNotNull, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { auditLog, members, products } from '../db/schema.ts';
import { escapeLike } from '../../lib/thai-text.ts';
import { bangkokDayStart } from '../../lib/admin-orders.ts';

/** The audit trail as /admin/audit reads it: newest first, filtered and paged on the server. */
export const AUDIT_PAGE_SIZE = 50;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const auditQuerySchema = z.object({
  action: z.string().trim().max(60).optional().catch(undefined),
  entity: z.string().trim().max(40).optional().catch(undefined),
  id: z.string().trim().max(80).optional().catch(undefined),
  actor: z.string().trim().max(200).optional().catch(undefined),
  via: z.enum(['web', 'api', 'cli', 'system']).optional().catch(undefined),
  from: isoDate,
  to: isoDate,
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuditRow = typeof auditLog.$inferSelect;

export async function listAudit(db: DbOrTx, query: AuditQuery): Promise<{ rows: AuditRow[]; total: number }> {
  const where: SQL[] = [];
  if (query.action) where.push(ilike(auditLog.action, `${escapeLike(query.action)}%`));
  if (query.entity) where.push(eq(auditLog.entityType, query.entity));
  if (query.id) where.push(eq(auditLog.entityId, query.id));
  // The person filter's choices carry a member id; a typed address (older links) still matches by email.
  if (query.actor && UUID.test(query.actor)) where.push(eq(auditLog.actorId, query.actor));
  else if (query.actor) where.push(ilike(auditLog.actorEmail, `%${escapeLike(query.actor)}%`));
  if (query.via) where.push(eq(auditLog.via, query.via));
  if (query.from) where.push(gte(auditLog.at, bangkokDayStart(query.from)));
  if (query.to) where.push(lt(auditLog.at, new Date(bangkokDayStart(query.to).getTime() + 86_400_000)));
  const condition = where.length > 0 ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(condition)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog).where(condition),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function auditActions(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action).limit(200);
  return rows.map((row) => row.action);
}

/** The people who appear in the trail, for the person filter: by member id, named as the team knows them. */
export async function auditPeople(db: DbOrTx): Promise<{ id: string; name: string; email: string }[]> {
  const rows = await db
    .selectDistinct({ id: auditLog.actorId, email: members.email, firstName: members.firstName, lastName: members.lastName })
    .from(auditLog)
    .innerJoin(members, eq(members.id, auditLog.actorId))
    .where(isNotNull(auditLog.actorId))
    .limit(200);
  return rows
    .map((row) => ({ id: row.id!, email: row.email, name: `${row.firstName} ${row.lastName}`.trim() || row.email }))
    .sort((a, b) => a.name.localeCompare(b.name, 'th'));
}

/** The names a page of rows mentions: people (who did it, and members acted on) and products by code. */
export async function auditNames(db: DbOrTx, rows: readonly AuditRow[]): Promise<{ people: Map<string, string>; products: Map<string, string> }> {
  const memberIds = [
    ...new Set(
      rows.flatMap((row) => [row.actorId, row.entityType === 'member' ? row.entityId : null]).filter((id): id is string => typeof id === 'string' && UUID.test(id)),
    ),
  ];
  const codes = [...new Set(rows.filter((row) => row.entityType === 'product' && !/^\d+$/.test(row.entityId)).map((row) => row.entityId))];
  const [people, items] = await Promise.all([
    memberIds.length === 0 ? [] : db.select({ id: members.id, firstName: members.firstName }).from(members).where(inArray(members.id, memberIds)),
    codes.length === 0 ? [] : db.select({ code: products.code, name: products.name }).from(products).where(inArray(products.code, codes)),
  ]);
  return {
    people: new Map(people.map((row) => [row.id, row.firstName])),
    products: new Map(items.map((row) => [row.code, row.name])),
  };
}
