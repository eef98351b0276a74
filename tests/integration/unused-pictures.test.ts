import { utimesSync } from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { env } from '../../src/server/env';
import { auditLog, contentPages, productImages, products } from '../../src/server/db/schema';
import { storePicture, type PictureFolder, type StoredPicture } from '../../src/server/storage/images';
import { storage } from '../../src/server/storage/storage';
import { deleteUnusedPictures, findUnusedPictures } from '../../src/server/storage/unused-pictures';
import { runOperatorCommand } from '../../src/server/operator/commands';
import { recordAudit } from '../../src/server/audit/audit.service';
import { createMember } from '../fixtures/orders';
import { writeReview } from '../fixtures/reviews';

/**
 * `npm run shop -- pictures-unused [--delete]` (docs/decisions/233): a picture no row names any more (a
 * replaced product picture) is found and deleted with every width of it; a picture named anywhere (a
 * product's pictures, a page's Markdown, a review's photo key) stays; the audit trail's mention does not
 * keep one; a picture stored within the last day is kept; one named again between the listing and the
 * deletion is kept. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

let shade = 0;
/** A picture of its own bytes (a new colour each time), stored as an upload would store it. */
async function picture(folder: PictureFolder): Promise<StoredPicture> {
  shade += 1;
  const background = `#${(0x102030 + shade * 0x0b0705).toString(16).slice(-6)}`;
  const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background } }).png().toBuffer();
  return storePicture(new Uint8Array(bytes), folder);
}

const stemOf = (stored: StoredPicture) => stored.key.replace(/-\d+\.webp$/, '');
const filesOf = (stored: StoredPicture) => stored.widths.map((width) => `${stemOf(stored)}-${width}.webp`);
const exists = async (stored: StoredPicture) => Promise.all(filesOf(stored).map((key) => storage().exists('public', key)));
const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);

/** Makes a picture's files look as if stored `days` ago (the local driver keeps them under DATA_DIR/uploads). */
function age(stored: StoredPicture, days: number): void {
  const when = new Date(Date.now() - days * 86_400_000);
  for (const key of filesOf(stored)) utimesSync(path.join(env().DATA_DIR, 'uploads', 'public', key), when, when);
}

describe('pictures no row names', () => {
  it('finds the replaced one alone, with all its widths; what a product, a page or a review names stays', async () => {
    const db = await getDb();
    const [product] = await db.select({ id: products.id, code: products.code, image: products.image }).from(products).where(eq(products.active, true)).limit(1);
    const replaced = await picture('products');
    const kept = await picture('products');
    // The product showed `replaced`, then its picture was changed to `kept`.
    await db.update(products).set({ image: replaced.url }).where(eq(products.id, product!.id));
    await db.update(products).set({ image: kept.url }).where(eq(products.id, product!.id));
    await db.insert(productImages).values({ productId: product!.id, url: kept.url, alt: '', width: kept.width, height: kept.height, sortOrder: 99 });
    const inPage = await picture('pages');
    await db.insert(contentPages).values({ slug: 'unused-pictures-test', title: 'รูปในหน้า', body: `ร้านของเรา\n\n![หน้าร้าน](${inPage.url})` });
    const reviewPhoto = await picture('reviews');
    const staff = await createMember({ scopes: ['staff'] });
    await writeReview(staff.id, { status: 'published', photos: [{ key: reviewPhoto.key, width: reviewPhoto.width, height: reviewPhoto.height }] });
    const onlyAudited = await picture('banners');
    await recordAudit(db, { id: null, email: 'test', role: 'owner', via: 'web' }, { action: 'promotion.update', entityType: 'promotion', entityId: 'X', before: { bannerImage: onlyAudited.url }, after: { bannerImage: null } });

    const mine = [replaced, kept, inPage, reviewPhoto, onlyAudited].map(stemOf);
    const found = await findUnusedPictures(later(48));
    const unusedOfMine = found.unused.filter((one) => mine.includes(one.stem));
    expect(unusedOfMine.map((one) => one.stem).sort()).toEqual([stemOf(replaced), stemOf(onlyAudited)].sort());
    expect(unusedOfMine.find((one) => one.stem === stemOf(replaced))!.files.map((file) => file.key).sort()).toEqual(filesOf(replaced).sort());
    expect(found.stored).toBeGreaterThanOrEqual(5);

    // Stored an hour ago: too new to go.
    const recent = await findUnusedPictures(later(1));
    expect(recent.unused.some((one) => mine.includes(one.stem))).toBe(false);
    expect(recent.tooNew).toBeGreaterThanOrEqual(2);

    const deleted = await deleteUnusedPictures(unusedOfMine);
    expect(deleted.map((one) => one.stem).sort()).toEqual([stemOf(replaced), stemOf(onlyAudited)].sort());
    expect(await exists(replaced)).toEqual(filesOf(replaced).map(() => false));
    expect(await exists(onlyAudited)).toEqual(filesOf(onlyAudited).map(() => false));
    for (const stays of [kept, inPage, reviewPhoto]) expect(await exists(stays)).toEqual(filesOf(stays).map(() => true));
  });

  it('keeps a picture named again between the listing and the deletion', async () => {
    const db = await getDb();
    const again = await picture('categories');
    const found = await findUnusedPictures(later(48));
    const listed = found.unused.filter((one) => one.stem === stemOf(again));
    expect(listed).toHaveLength(1);
    const [product] = await db.select({ id: products.id }).from(products).limit(1);
    await db.insert(productImages).values({ productId: product!.id, url: again.url, alt: '', width: again.width, height: again.height, sortOrder: 98 });
    expect(await deleteUnusedPictures(listed)).toEqual([]);
    expect(await exists(again)).toEqual(filesOf(again).map(() => true));
  });

  it('the operator command lists, deletes only with --delete, and leaves an audit row', async () => {
    const db = await getDb();
    // Nothing old enough to go: nothing deleted and no audit row.
    const audits = async () => (await db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, 'storage.pictures_delete'))).length;
    const before = await audits();
    const nothing = await runOperatorCommand(['pictures-unused', '--delete'], 'tester');
    expect(nothing.exitCode).toBe(0);
    expect(nothing.out).not.toContain('Deleted');
    expect(await audits()).toBe(before);

    const old = await picture('gallery');
    age(old, 3);
    const listed = await runOperatorCommand(['pictures-unused'], 'tester');
    expect(listed.exitCode).toBe(0);
    expect(listed.out).toMatch(/^\d+ stored pictures; \d+ named by no row \(\d+ files\)/);
    expect(listed.out).toContain(stemOf(old));
    expect(listed.out).toContain('Nothing deleted: run again with --delete to remove them.');
    expect(await exists(old)).toEqual(filesOf(old).map(() => true));

    const removed = await runOperatorCommand(['pictures-unused', '--delete'], 'tester');
    expect(removed.exitCode).toBe(0);
    expect(removed.out).toMatch(/Deleted \d+ pictures \(\d+ files\)\./);
    expect(await exists(old)).toEqual(filesOf(old).map(() => false));
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'storage.pictures_delete')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ entityType: 'storage', actorEmail: 'operator tester (CLI)' });
    expect(audit?.note).toContain(stemOf(old));
  });
});
