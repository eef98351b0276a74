import { desc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { recruitments } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import type { JobInput } from '../../lib/gallery-schemas.ts';
import { serialId } from '../../lib/row-id.ts';

/** Job posts (/admin/recruitment) feeding the about-us page and /api/get-recruitment/. */
type JobRow = typeof recruitments.$inferSelect;
export const JOB_PAGE_SIZE = 20;

export async function listJobsForAdmin(page: number): Promise<{ items: JobRow[]; total: number; page: number; pageSize: number }> {
  const db = await getDb();
  const rows = await db.select().from(recruitments).orderBy(desc(recruitments.open), desc(recruitments.postedAt), desc(recruitments.id));
  return { items: rows.slice((page - 1) * JOB_PAGE_SIZE, page * JOB_PAGE_SIZE), total: rows.length, page, pageSize: JOB_PAGE_SIZE };
}

export async function jobForAdmin(id: number): Promise<JobRow> {
  if (serialId(id) === null) throw notFound('job_not_found', 'ไม่พบประกาศนี้');
  const db = await getDb();
  const [row] = await db.select().from(recruitments).where(eq(recruitments.id, id));
  if (!row) throw notFound('job_not_found', 'ไม่พบประกาศนี้');
  return row;
}

export async function saveJob(actor: AuditActor, input: JobInput, id?: number): Promise<number> {
  const db = await getDb();
  const saved = await db.transaction(async (tx) => {
    if (id === undefined) {
      const [row] = await tx.insert(recruitments).values(input).returning();
      await recordAudit(tx, actor, { action: 'job.create', entityType: 'job', entityId: String(row!.id), after: input });
      return row!.id;
    }
    const [before] = await tx.select().from(recruitments).where(eq(recruitments.id, id)).for('update');
    if (!before) throw notFound('job_not_found', 'ไม่พบประกาศนี้');
    // Reopening a closed post makes it news again.
    const reopened = input.open && !before.open;
    await tx.update(recruitments).set({ ...input, ...(reopened ? { postedAt: new Date() } : {}) }).where(eq(recruitments.id, id));
    const { id: _id, postedAt: _postedAt, ...old } = before;
    await recordAudit(tx, actor, { action: 'job.update', entityType: 'job', entityId: String(id), before: old, after: input });
    return id;
  });
  await invalidateCatalog({ content: true });
  return saved;
}

export async function deleteJob(actor: AuditActor, id: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(recruitments).where(eq(recruitments.id, id)).returning();
    if (!row) throw notFound('job_not_found', 'ไม่พบประกาศนี้');
    await recordAudit(tx, actor, { action: 'job.delete', entityType: 'job', entityId: String(id), before: row });
  });
  await invalidateCatalog({ content: true });
}
