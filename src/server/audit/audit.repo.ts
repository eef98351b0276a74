import { and, count, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
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

export type AuditRow = typeof auditLog.$inferSelect;

export async function listAudit(db: DbOrTx, query: AuditQuery): Promise<{ rows: AuditRow[]; total: number }> {
  const where: SQL[] = [];
  if (query.action) where.push(ilike(auditLog.action, `${escapeLike(query.action)}%`));
  if (query.entity) where.push(eq(auditLog.entityType, query.entity));
  if (query.id) where.push(eq(auditLog.entityId, query.id));
  if (query.actor) where.push(ilike(auditLog.actorEmail, `%${escapeLike(query.actor)}%`));
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
