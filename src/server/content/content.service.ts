import { asc, count, desc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { galleries, galleryImages, recruitments } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { GalleryAlbum, GalleryImage, RecruitmentPost } from '../../lib/catalog-types.ts';

export async function listGalleries(): Promise<GalleryAlbum[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: galleries.id,
      code: galleries.code,
      title: galleries.title,
      description: galleries.description,
      coverImage: galleries.coverImage,
      createdAt: galleries.createdAt,
      imageCount: count(galleryImages.id),
    })
    .from(galleries)
    .leftJoin(galleryImages, eq(galleryImages.galleryId, galleries.id))
    .groupBy(galleries.id)
    .orderBy(asc(galleries.sortOrder), desc(galleries.createdAt));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

export async function galleryByCode(code: string): Promise<GalleryAlbum & { images: GalleryImage[] }> {
  const album = (await listGalleries()).find((row) => row.code.toLowerCase() === code.toLowerCase());
  if (!album) throw notFound('gallery_not_found', 'ไม่พบอัลบั้มนี้');
  const db = await getDb();
  const images = await db
    .select({ url: galleryImages.url, caption: galleryImages.caption })
    .from(galleryImages)
    .where(eq(galleryImages.galleryId, album.id))
    .orderBy(asc(galleryImages.sortOrder), asc(galleryImages.id));
  return { ...album, images };
}

/** Open posts first, newest first; `onlyOpen` for the about-us page. */
export async function listRecruitments(onlyOpen = false): Promise<RecruitmentPost[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(recruitments)
    .where(onlyOpen ? eq(recruitments.open, true) : undefined)
    .orderBy(desc(recruitments.open), desc(recruitments.postedAt), asc(recruitments.id));
  return rows.map((row) => ({ ...row, postedAt: row.postedAt.toISOString() }));
}
