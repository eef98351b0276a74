import { and, asc, eq, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { galleries, galleryImages } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { storePicture } from '../storage/images.ts';
import type { AlbumInput } from '../../lib/gallery-schemas.ts';

/**
 * Gallery albums and their pictures as /admin/gallery keeps them; /gallery and /api/get-gallery* read the
 * same rows. Pictures go through the picture pipeline (folder `gallery`). Every change is audited in its
 * transaction and drops the cached pages.
 */
type AlbumRow = typeof galleries.$inferSelect;
type PictureRow = typeof galleryImages.$inferSelect;

export interface AdminAlbum extends AlbumRow {
  pictures: PictureRow[];
}

export const MAX_PICTURES_PER_UPLOAD = 20;

async function albumRow(db: DbOrTx, code: string, forUpdate = false): Promise<AlbumRow> {
  const query = db.select().from(galleries).where(eq(galleries.code, code.toLowerCase())).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('gallery_not_found', 'ไม่พบอัลบั้มนี้');
  return row;
}

export async function albumForAdmin(code: string): Promise<AdminAlbum> {
  const db = await getDb();
  const album = await albumRow(db, code);
  const pictures = await db.select().from(galleryImages).where(eq(galleryImages.galleryId, album.id)).orderBy(asc(galleryImages.sortOrder), asc(galleryImages.id));
  return { ...album, pictures };
}

async function changed(): Promise<void> {
  await invalidateCatalog({ content: true });
}

export async function createAlbum(actor: AuditActor, input: AlbumInput): Promise<string> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [{ next } = { next: 0 }] = await tx.select({ next: sql<number>`coalesce(max(${galleries.sortOrder}), -1)::int + 1` }).from(galleries);
    const [row] = await tx.insert(galleries).values({ ...input, sortOrder: next }).onConflictDoNothing({ target: galleries.code }).returning();
    if (!row) throw badRequest('gallery_code_taken', 'มีอัลบั้มรหัสนี้อยู่แล้ว', { code: 'มีอัลบั้มรหัสนี้อยู่แล้ว' });
    await recordAudit(tx, actor, { action: 'gallery.create', entityType: 'gallery', entityId: row.code, after: input });
  });
  await changed();
  return input.code;
}

export async function updateAlbum(actor: AuditActor, code: string, input: Omit<AlbumInput, 'code'>): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await albumRow(tx, code, true);
    await tx.update(galleries).set(input).where(eq(galleries.id, row.id));
    await recordAudit(tx, actor, { action: 'gallery.update', entityType: 'gallery', entityId: row.code, before: { title: row.title, description: row.description }, after: input });
  });
  await changed();
}

export async function deleteAlbum(actor: AuditActor, code: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await albumRow(tx, code, true);
    const pictures = await tx.select({ url: galleryImages.url }).from(galleryImages).where(eq(galleryImages.galleryId, row.id));
    await tx.delete(galleries).where(eq(galleries.id, row.id));
    await recordAudit(tx, actor, { action: 'gallery.delete', entityType: 'gallery', entityId: row.code, before: { ...row, pictures: pictures.map((p) => p.url) } });
  });
  await changed();
}

/** Stores the pictures first (outside the transaction: sharp is slow), then adds them at the end of the album. */
export async function addPictures(actor: AuditActor, code: string, files: Array<{ bytes: Uint8Array; caption: string }>): Promise<number> {
  if (files.length === 0) throw badRequest('gallery_no_pictures', 'กรุณาเลือกรูปภาพอย่างน้อย 1 รูป');
  if (files.length > MAX_PICTURES_PER_UPLOAD) throw badRequest('gallery_too_many', `อัปโหลดได้ครั้งละไม่เกิน ${MAX_PICTURES_PER_UPLOAD} รูป`);
  await albumRow(await getDb(), code);
  const stored: Array<{ url: string; caption: string }> = [];
  for (const file of files) stored.push({ url: (await storePicture(file.bytes, 'gallery')).url, caption: file.caption });
  const db = await getDb();
  await db.transaction(async (tx) => {
    const album = await albumRow(tx, code, true);
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${galleryImages.sortOrder}), -1)::int + 1` })
      .from(galleryImages)
      .where(eq(galleryImages.galleryId, album.id));
    await tx.insert(galleryImages).values(stored.map((picture, index) => ({ galleryId: album.id, url: picture.url, caption: picture.caption, sortOrder: next + index })));
    if (!album.coverImage) await tx.update(galleries).set({ coverImage: stored[0]!.url }).where(eq(galleries.id, album.id));
    await recordAudit(tx, actor, { action: 'gallery.add_pictures', entityType: 'gallery', entityId: album.code, after: stored });
  });
  await changed();
  return stored.length;
}

/** Captions and order of every picture at once (the album page's one form). Order: the numbers typed, ties by the old order. */
export async function arrangePictures(actor: AuditActor, code: string, pictures: Array<{ id: number; caption: string; position: number }>): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const album = await albumRow(tx, code, true);
    const current = await tx.select().from(galleryImages).where(eq(galleryImages.galleryId, album.id)).orderBy(asc(galleryImages.sortOrder), asc(galleryImages.id));
    const wanted = new Map(pictures.map((p) => [p.id, p]));
    const ordered = current
      .map((row, index) => ({ row, position: wanted.get(row.id)?.position ?? index + 1, index }))
      .sort((a, b) => a.position - b.position || a.index - b.index);
    for (const [sortOrder, { row }] of ordered.entries()) {
      const caption = wanted.get(row.id)?.caption ?? row.caption;
      if (row.sortOrder !== sortOrder || row.caption !== caption) await tx.update(galleryImages).set({ sortOrder, caption }).where(eq(galleryImages.id, row.id));
    }
    await recordAudit(tx, actor, {
      action: 'gallery.arrange',
      entityType: 'gallery',
      entityId: album.code,
      before: current.map((row) => ({ id: row.id, caption: row.caption })),
      after: ordered.map(({ row }) => ({ id: row.id, caption: wanted.get(row.id)?.caption ?? row.caption })),
    });
  });
  await changed();
}

/** One step up or down (the arrow buttons). */
export async function movePicture(actor: AuditActor, code: string, pictureId: number, direction: 'up' | 'down'): Promise<void> {
  const album = await albumForAdmin(code);
  const ids = album.pictures.map((p) => p.id);
  const at = ids.indexOf(pictureId);
  if (at === -1) throw notFound('gallery_picture_not_found', 'ไม่พบรูปนี้ในอัลบั้ม');
  const to = direction === 'up' ? at - 1 : at + 1;
  if (to < 0 || to >= ids.length) return;
  [ids[at], ids[to]] = [ids[to] as number, ids[at] as number];
  await arrangePictures(
    actor,
    code,
    ids.map((id, index) => ({ id, caption: album.pictures.find((p) => p.id === id)?.caption ?? '', position: index + 1 })),
  );
}

export async function removePicture(actor: AuditActor, code: string, pictureId: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const album = await albumRow(tx, code, true);
    const [picture] = await tx.delete(galleryImages).where(and(eq(galleryImages.galleryId, album.id), eq(galleryImages.id, pictureId))).returning();
    if (!picture) throw notFound('gallery_picture_not_found', 'ไม่พบรูปนี้ในอัลบั้ม');
    if (album.coverImage === picture.url) {
      const [next] = await tx.select({ url: galleryImages.url }).from(galleryImages).where(eq(galleryImages.galleryId, album.id)).orderBy(asc(galleryImages.sortOrder)).limit(1);
      await tx.update(galleries).set({ coverImage: next?.url ?? null }).where(eq(galleries.id, album.id));
    }
    await recordAudit(tx, actor, { action: 'gallery.remove_picture', entityType: 'gallery', entityId: album.code, before: { id: picture.id, url: picture.url, caption: picture.caption } });
  });
  await changed();
}

export async function setCover(actor: AuditActor, code: string, pictureId: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const album = await albumRow(tx, code, true);
    const [picture] = await tx.select().from(galleryImages).where(and(eq(galleryImages.galleryId, album.id), eq(galleryImages.id, pictureId)));
    if (!picture) throw notFound('gallery_picture_not_found', 'ไม่พบรูปนี้ในอัลบั้ม');
    await tx.update(galleries).set({ coverImage: picture.url }).where(eq(galleries.id, album.id));
    await recordAudit(tx, actor, { action: 'gallery.cover', entityType: 'gallery', entityId: album.code, before: { coverImage: album.coverImage }, after: { coverImage: picture.url } });
  });
  await changed();
}

/** Albums move the same way, for the order of /gallery. */
export async function moveAlbum(actor: AuditActor, code: string, direction: 'up' | 'down'): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const rows = await tx.select().from(galleries).orderBy(asc(galleries.sortOrder), asc(galleries.id)).for('update');
    const at = rows.findIndex((row) => row.code === code.toLowerCase());
    if (at === -1) throw notFound('gallery_not_found', 'ไม่พบอัลบั้มนี้');
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= rows.length) return;
    const before = rows.map((row) => row.code);
    [rows[at], rows[to]] = [rows[to] as AlbumRow, rows[at] as AlbumRow];
    for (const [sortOrder, row] of rows.entries()) if (row.sortOrder !== sortOrder) await tx.update(galleries).set({ sortOrder }).where(eq(galleries.id, row.id));
    await recordAudit(tx, actor, {
      action: 'gallery.move',
      entityType: 'gallery',
      entityId: code.toLowerCase(),
      before,
      after: rows.map((row) => row.code),
      note: direction === 'up' ? 'เลื่อนขึ้น' : 'เลื่อนลง',
    });
  });
  await changed();
}
