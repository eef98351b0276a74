import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import * as createRoute from '../../src/pages/admin/pages/create';
import * as actionRoute from '../../src/pages/admin/pages/[slug]/[action]';
import * as previewRoute from '../../src/pages/admin/pages/preview';
import * as uploadRoute from '../../src/pages/admin/uploads';
import { getDb } from '../../src/server/db/client';
import { auditLog, contentPages, contentPageVersions } from '../../src/server/db/schema';
import { catalogVersion } from '../../src/server/catalog/catalog-cache';
import { listPublishedPages, pageForAdmin, pageVersions, publishedPage } from '../../src/server/content/pages.service';
import { contentPagesLoader } from '../../src/server/content/pages-loader';
import { adminCallers, expectRoleMatrix, flashOf, form, upload, type AdminCallers } from '../fixtures/admin';
import { TestClient } from '../fixtures/api-client';

let callers: AdminCallers;
beforeAll(async () => {
  callers = await adminCallers();
});

const draft = (overrides: Record<string, string> = {}) =>
  form({ title: 'เกี่ยวกับเรา', description: 'รู้จักร้าน', body: '## ใหม่\n\n- หนึ่ง\n- สอง\n\nโทร {{phone}}', intent: 'draft', ...overrides });

async function audits(action: string, entityId: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId))).orderBy(desc(auditLog.id));
}

describe('content pages seeded from src/content/pages/*.md', () => {
  it('are in the database, published, with company values filled and the Markdown rendered', async () => {
    const about = await publishedPage('aboutus');
    expect(about?.title).toBe('เกี่ยวกับเรา');
    expect(about?.html).toContain('<h2>สิ่งที่เราใส่ใจ</h2>');
    expect(about?.html).toContain('081-234-5678');
    const contact = await publishedPage('contact');
    expect(contact?.html).toContain('<table>');
    expect(contact?.html).toContain('href="tel:0812345678"');
    const slugs = (await listPublishedPages({ onlyFooter: true })).map((page) => page.slug);
    expect(slugs).toEqual(['aboutus', 'howtoorder', 'contact', 'address']);
    // Seeded once: a second read does not add rows.
    await listPublishedPages();
    const db = await getDb();
    // The four pages above and privacy and terms (issue 29), which the footer links on its own.
    expect((await db.select().from(contentPages)).length).toBe(6);
  });

  it('are what the live loader gives Astro, with cache tags the invalidation drops', async () => {
    const loader = contentPagesLoader();
    const entry = await loader.loadEntry({ filter: { id: 'address' }, collection: 'pages' });
    expect(entry && 'id' in entry ? entry.id : null).toBe('address');
    expect(entry && 'rendered' in entry ? entry.rendered?.html : '').toContain('กรุงเทพมหานคร 10500');
    expect(entry && 'cacheHint' in entry ? entry.cacheHint?.tags : []).toContain('content');
    expect(await loader.loadEntry({ filter: { id: 'no-such-page' }, collection: 'pages' })).toBeUndefined();
    const all = await loader.loadCollection({ collection: 'pages', filter: { onlyFooter: true } });
    expect('entries' in all ? all.entries.map((e) => e.id) : []).toHaveLength(4);
  });
});

describe('who may edit pages', () => {
  it('editor, staff and owner save drafts; anyone else meets 404 (no role) or nothing', async () => {
    const results = await expectRoleMatrix(callers, actionRoute, 'POST', '/admin/pages/howtoorder/save', () => ({ ...draft({ title: 'วิธีการสั่งซื้อ' }), params: { slug: 'howtoorder', action: 'save' } }), ['editor', 'staff', 'owner']);
    expect(results.editor.status).toBe(303);
    expect(results.editor.headers.get('location')).toBe('/admin/pages/howtoorder');
  });

  it('creating a page, previewing, restoring and uploading follow the same rule', async () => {
    let n = 0;
    await expectRoleMatrix(callers, createRoute, 'POST', '/admin/pages/create', () => form({ slug: `role-page-${++n}`, title: 'หน้าทดสอบ' }), ['editor', 'staff', 'owner']);
    await expectRoleMatrix(callers, previewRoute, 'POST', '/admin/pages/preview', () => ({ body: { body: '# hi' } }), ['editor', 'staff', 'owner']);
    const versions = await pageVersions('address');
    await expectRoleMatrix(callers, actionRoute, 'POST', '/admin/pages/address/restore', () => ({ ...form({ versionId: String(versions.items[0]!.id) }), params: { slug: 'address', action: 'restore' } }), ['editor', 'staff', 'owner']);
    await expectRoleMatrix(callers, uploadRoute, 'POST', '/admin/uploads?folder=pages', () => form({}), ['editor', 'staff', 'owner']);
  });
});

describe('editing a page', () => {
  it('a draft is kept apart from what shoppers see until it is published, with versions and audit rows', async () => {
    const editor = callers.clients.editor;
    const before = await publishedPage('aboutus');
    const saved = await editor.call(actionRoute, 'POST', '/admin/pages/aboutus/save', { ...draft({ inFooter: 'on' }), params: { slug: 'aboutus', action: 'save' } });
    expect(saved.status).toBe(303);
    expect(flashOf(saved)?.text).toContain('บันทึกร่างแล้ว');
    expect((await publishedPage('aboutus'))?.html).toBe(before?.html);
    const admin = await pageForAdmin('aboutus');
    expect(admin.body).toContain('## ใหม่');
    expect(admin.unpublishedChanges).toBe(true);

    const versionBefore = catalogVersion();
    const published = await editor.call(actionRoute, 'POST', '/admin/pages/aboutus/save', { ...draft({ intent: 'publish', inFooter: 'on' }), params: { slug: 'aboutus', action: 'save' } });
    expect(published.status).toBe(303);
    expect(flashOf(published)?.text).toContain('เผยแพร่แล้ว');
    expect(catalogVersion()).toBeGreaterThan(versionBefore);
    const live = await publishedPage('aboutus');
    expect(live?.html).toContain('<h2>ใหม่</h2>');
    expect(live?.html).toContain('<li>หนึ่ง</li>');
    expect(live?.html).toContain('โทร 081-234-5678');

    const [audit] = await audits('page.publish', 'aboutus');
    expect(audit?.actorEmail).toBe(callers.members.editor.email);
    expect(audit?.actorRole).toBe('editor');
    expect((audit?.before as { body: string }).body).toContain('สิ่งที่เราใส่ใจ');
    expect((audit?.after as { body: string }).body).toContain('## ใหม่');
    expect(await audits('page.save_draft', 'aboutus')).toHaveLength(1);

    const versions = await pageVersions('aboutus');
    expect(versions.items.map((v) => v.kind)).toEqual(['publish', 'draft', 'seed']);
    // Issue 32: the history names people, never an email address or a path such as "src/content".
    const editorName = `${callers.members.editor.firstName} ${callers.members.editor.lastName}`;
    expect(versions.items.map((v) => v.author)).toEqual([editorName, editorName, 'เนื้อหาเริ่มต้นของร้าน']);
    for (const version of versions.items) expect(version.author).not.toMatch(/src\/content|@|\//);
  });

  it('names the people of versions written before names were kept (migration 0013 on this database)', async () => {
    const db = await getDb();
    const [page] = await db.select().from(contentPages).where(eq(contentPages.slug, 'address'));
    // Rows as the shop wrote them before issue 32: an author's email only, and the seed's path.
    const [legacy] = await db
      .insert(contentPageVersions)
      .values({ pageId: page!.id, kind: 'draft', title: 'ที่ตั้งร้าน', body: 'เก่า', authorEmail: callers.members.staff.email.toUpperCase() })
      .returning();
    const [legacySeed] = await db.insert(contentPageVersions).values({ pageId: page!.id, kind: 'seed', title: 'ที่ตั้งร้าน', body: 'เก่า', authorEmail: 'src/content' }).returning();
    const [gone] = await db.insert(contentPageVersions).values({ pageId: page!.id, kind: 'publish', title: 'ที่ตั้งร้าน', body: 'เก่า', authorEmail: 'somchai.left@shop.example' }).returning();
    const migration = readFileSync(join(import.meta.dirname, '../../drizzle/0013_page_version_authors.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').filter((part) => /^\s*(--[^\n]*\n\s*)*UPDATE/i.test(part))) await db.execute(sql.raw(statement));
    const byId = new Map((await pageVersions('address', 1, 50)).items.map((v) => [v.id, v.author]));
    expect(byId.get(legacy!.id)).toBe(`${callers.members.staff.firstName} ${callers.members.staff.lastName}`);
    expect(byId.get(legacySeed!.id)).toBe('เนื้อหาเริ่มต้นของร้าน');
    expect(byId.get(gone!.id)).toBe('somchai.left');
    const [seedRow] = await db.select().from(contentPageVersions).where(eq(contentPageVersions.id, legacySeed!.id));
    expect(seedRow?.authorEmail).toBe('');
  });

  it('restores an earlier version into the draft, then publishing brings it back to shoppers', async () => {
    const editor = callers.clients.editor;
    const seed = (await pageVersions('aboutus')).items.find((v) => v.kind === 'seed')!;
    const restored = await editor.call(actionRoute, 'POST', '/admin/pages/aboutus/restore', { ...form({ versionId: String(seed.id) }), params: { slug: 'aboutus', action: 'restore' } });
    expect(restored.status).toBe(303);
    const admin = await pageForAdmin('aboutus');
    expect(admin.body).toContain('สิ่งที่เราใส่ใจ');
    expect((await publishedPage('aboutus'))?.html).toContain('<h2>ใหม่</h2>');
    expect(await audits('page.restore', 'aboutus')).toHaveLength(1);
    await editor.call(actionRoute, 'POST', '/admin/pages/aboutus/save', { ...form({ title: admin.title, description: admin.description, body: admin.body, intent: 'publish', inFooter: 'on' }), params: { slug: 'aboutus', action: 'save' } });
    expect((await publishedPage('aboutus'))?.html).toContain('สิ่งที่เราใส่ใจ');
  });

  it('refuses what it cannot keep with a Thai message and changes nothing', async () => {
    const editor = callers.clients.editor;
    const before = await pageForAdmin('contact');
    const empty = await editor.call(actionRoute, 'POST', '/admin/pages/contact/save', { ...draft({ title: '   ' }), params: { slug: 'contact', action: 'save' } });
    expect(empty.status).toBe(303);
    expect(flashOf(empty)).toEqual({ kind: 'danger', text: 'กรุณาใส่ชื่อหน้า' });
    expect((await pageForAdmin('contact')).body).toBe(before.body);
    const unknown = await editor.call(actionRoute, 'POST', '/admin/pages/nope/save', { ...draft(), params: { slug: 'nope', action: 'save' } });
    expect(unknown.status).toBe(404);
    const badVersion = await editor.call(actionRoute, 'POST', '/admin/pages/contact/restore', { ...form({ versionId: 'abc' }), params: { slug: 'contact', action: 'restore' } });
    expect(badVersion.status).toBe(404);
    const notForm = await editor.call(actionRoute, 'POST', '/admin/pages/contact/save', { body: { title: 'x' }, params: { slug: 'contact', action: 'save' } });
    expect(notForm.status).toBe(303);
    expect(flashOf(notForm)?.kind).toBe('danger');
    const builtIn = await editor.call(actionRoute, 'POST', '/admin/pages/contact/unpublish', { ...form({}), params: { slug: 'contact', action: 'unpublish' } });
    expect(flashOf(builtIn)?.text).toContain('ซ่อนไม่ได้');
    expect((await publishedPage('contact'))?.slug).toBe('contact');
  });

  it('new pages live at /pages/{slug}, may join the footer and may be hidden again', async () => {
    const editor = callers.clients.editor;
    const created = await editor.call(createRoute, 'POST', '/admin/pages/create', form({ slug: 'Wholesale', title: 'สั่งซื้อจำนวนมาก' }));
    expect(created.headers.get('location')).toBe('/admin/pages/wholesale');
    expect(await publishedPage('wholesale')).toBeNull();
    const again = await editor.call(createRoute, 'POST', '/admin/pages/create', form({ slug: 'wholesale', title: 'ซ้ำ' }));
    expect(flashOf(again)?.text).toContain('มีหน้านี้อยู่แล้ว');
    const reserved = await editor.call(createRoute, 'POST', '/admin/pages/create', form({ slug: 'preview', title: 'x' }));
    expect(flashOf(reserved)?.text).toContain('สงวนไว้');
    await editor.call(actionRoute, 'POST', '/admin/pages/wholesale/save', { ...form({ title: 'สั่งซื้อจำนวนมาก', body: 'ราคาส่ง', intent: 'publish', inFooter: 'on' }), params: { slug: 'wholesale', action: 'save' } });
    const page = await publishedPage('wholesale');
    expect(page?.path).toBe('/pages/wholesale');
    expect((await listPublishedPages({ onlyFooter: true })).map((p) => p.slug)).toContain('wholesale');
    const hidden = await editor.call(actionRoute, 'POST', '/admin/pages/wholesale/unpublish', { ...form({}), params: { slug: 'wholesale', action: 'unpublish' } });
    expect(hidden.status).toBe(303);
    expect(await publishedPage('wholesale')).toBeNull();
    expect(await audits('page.unpublish', 'wholesale')).toHaveLength(1);
    expect(await audits('page.create', 'wholesale')).toHaveLength(1);
  });

  it('previews with the shop renderer, and uploads pictures through the picture pipeline', async () => {
    const editor = callers.clients.editor;
    const preview = await editor.call<{ data: { html: string } }>(previewRoute, 'POST', '/admin/pages/preview', { body: { body: '# หัวข้อ\n\n<script>alert(1)</script>{{phone}}' } });
    expect(preview.status).toBe(200);
    expect(preview.body.data.html).toBe('<h2>หัวข้อ</h2>\n081-234-5678');
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#39b54a' } }).png().toBuffer();
    const picture = new File([new Uint8Array(png)], 'ป้าย.png', { type: 'image/png' });
    const uploaded = await upload(editor, uploadRoute, '/admin/uploads?folder=pages', { file: picture });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data.url).toMatch(/^\/media\/pages\/[a-f0-9]{24}-800\.webp$/);
    expect(uploaded.body.data).toMatchObject({ width: 800, height: 600 });
    const withPicture = await editor.call<{ data: { html: string } }>(previewRoute, 'POST', '/admin/pages/preview', { body: { body: `![ป้าย](${uploaded.body.data.url}#800x600)` } });
    expect(withPicture.body.data.html).toContain('width="800" height="600"');
    expect(withPicture.body.data.html).toContain('-320.webp 320w');
    const notPicture = await upload(editor, uploadRoute, '/admin/uploads?folder=pages', { file: new File(['<svg onload=alert(1)>'], 'x.png', { type: 'image/png' }) });
    expect(notPicture.status).toBe(400);
    expect(notPicture.body).toMatchObject({ code: 'picture_invalid_type' });
    expect((await upload(editor, uploadRoute, '/admin/uploads?folder=pages', {})).status).toBe(400);
    expect((await upload(editor, uploadRoute, '/admin/uploads?folder=products', { file: picture })).status).toBe(400);
    expect((await upload(new TestClient(), uploadRoute, '/admin/uploads?folder=banners', { file: picture })).status).toBe(404);
    expect((await upload(callers.clients.member, uploadRoute, '/admin/uploads?folder=gallery', { file: picture })).status).toBe(404);
  });
});
