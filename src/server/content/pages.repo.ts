import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { contentPages, contentPageVersions, members } from '../db/schema.ts';

export type PageRow = typeof contentPages.$inferSelect;
export type VersionRow = typeof contentPageVersions.$inferSelect;
/** A version with its author's name as the members table has it now (null: no member, or the seed). */
export type VersionWithAuthor = VersionRow & { authorFirstName: string | null; authorLastName: string | null };

export async function pageBySlug(db: DbOrTx, slug: string, forUpdate = false): Promise<PageRow | null> {
  const query = db.select().from(contentPages).where(eq(contentPages.slug, slug)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function allPages(db: DbOrTx): Promise<PageRow[]> {
  return db.select().from(contentPages).orderBy(asc(contentPages.sortOrder), asc(contentPages.id));
}

export async function publishedPages(db: DbOrTx, onlyFooter = false): Promise<PageRow[]> {
  return db
    .select()
    .from(contentPages)
    .where(and(isNotNull(contentPages.publishedAt), onlyFooter ? eq(contentPages.inFooter, true) : undefined))
    .orderBy(asc(contentPages.sortOrder), asc(contentPages.id));
}

export async function pageCount(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(contentPages);
  return row?.n ?? 0;
}

export async function versionsOf(db: DbOrTx, pageId: number, limit: number, offset: number): Promise<{ rows: VersionWithAuthor[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    db
      .select({ version: contentPageVersions, authorFirstName: members.firstName, authorLastName: members.lastName })
      .from(contentPageVersions)
      .leftJoin(members, eq(members.id, contentPageVersions.authorId))
      .where(eq(contentPageVersions.pageId, pageId))
      .orderBy(desc(contentPageVersions.id))
      .limit(limit)
      .offset(offset)
      .then((found) => found.map(({ version, authorFirstName, authorLastName }) => ({ ...version, authorFirstName, authorLastName }))),
    db.select({ n: sql<number>`count(*)::int` }).from(contentPageVersions).where(eq(contentPageVersions.pageId, pageId)),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export async function versionById(db: DbOrTx, pageId: number, id: number): Promise<VersionRow | null> {
  const [row] = await db
    .select()
    .from(contentPageVersions)
    .where(and(eq(contentPageVersions.pageId, pageId), eq(contentPageVersions.id, id)))
    .limit(1);
  return row ?? null;
}

export async function addVersion(
  db: DbOrTx,
  values: { pageId: number; kind: VersionRow['kind']; title: string; description: string; body: string; authorId: string | null; authorEmail: string },
): Promise<VersionRow> {
  const [row] = await db.insert(contentPageVersions).values(values).returning();
  return row as VersionRow;
}
