import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import * as createAlbumRoute from '../../src/pages/admin/gallery/create';
import * as albumRoute from '../../src/pages/admin/gallery/[code]/[action]';
import * as jobRoute from '../../src/pages/admin/recruitment/save';
import * as pageRoute from '../../src/pages/admin/pages/[slug]/[action]';
import * as galleryApi from '../../src/pages/api/get-gallery';
import * as galleryListApi from '../../src/pages/api/get-gallery-list/[code]';
import * as recruitmentApi from '../../src/pages/api/get-recruitment';
import { getDb } from '../../src/server/db/client';
import { auditLog, recruitments } from '../../src/server/db/schema';
import { albumForAdmin } from '../../src/server/content/gallery-admin.service';
import { jobForAdmin } from '../../src/server/content/recruitment-admin.service';
import { adminCallers, expectRoleMatrix, flashOf, form, upload, type AdminCallers } from '../fixtures/admin';
import { callGet } from '../fixtures/api-context';
import { routeNext } from '../fixtures/api-client';

let callers: AdminCallers;
beforeAll(async () => {
  callers = await adminCallers();
});

const picture = (colour: string) => sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).png().toBuffer();
const at = (code: string, action: string) => ({ params: { code, action } });

async function auditCount(action: string, entityId: string) {
  const db = await getDb();
  return (await db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))).length;
}

describe('/admin/gallery', () => {
  it('editor, staff and owner keep albums; no role sees 404', async () => {
    let n = 0;
    await expectRoleMatrix(callers, createAlbumRoute, 'POST', '/admin/gallery/create', () => form({ code: `role-album-${++n}`, title: 'อัลบั้มทดสอบ' }), ['editor', 'staff', 'owner']);
    await expectRoleMatrix(callers, albumRoute, 'POST', '/admin/gallery/role-album-3/save', () => ({ ...form({ title: 'แก้ชื่อ' }), ...at('role-album-3', 'save') }), ['editor', 'staff', 'owner']);
  });

  it('an album made here, its pictures uploaded, reordered, captioned and removed, is what /api/get-gallery-list gives', async () => {
    const editor = callers.clients.editor;
    const created = await editor.call(createAlbumRoute, 'POST', '/admin/gallery/create', form({ code: 'Graduation', title: 'รับปริญญา', description: 'ช่อดอกไม้และตุ๊กตา' }));
    expect(created.headers.get('location')).toBe('/admin/gallery/graduation');
    const files = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map(async (c, i) => new File([new Uint8Array(await picture(c))], `p${i}.png`, { type: 'image/png' })));
    const body = new FormData();
    for (const file of files) body.append('pictures', file);
    // upload() takes one value per name; send three requests' worth through one multipart body instead.
    const { onRequest } = await import('../../src/middleware');
    const request = new Request('http://127.0.0.1:4321/admin/gallery/graduation/upload', { method: 'POST', headers: { origin: 'http://127.0.0.1:4321', authorization: `Bearer ${editor.bearer}` }, body });
    const cookies = new Map<string, string>();
    const context = { request, url: new URL(request.url), params: { code: 'graduation', action: 'upload' }, cookies: { get: () => undefined, has: () => false, set: (k: string, v: string) => cookies.set(k, v), delete: () => {} }, clientAddress: '127.0.0.1', locals: {}, site: new URL('http://127.0.0.1:4321') };
    const response = (await onRequest(context as never, routeNext(() => albumRoute.POST(context as never)))) as Response;
    expect(response.status).toBe(303);
    expect(Buffer.from(cookies.get('admin_flash') ?? '', 'base64url').toString('utf8')).toContain('เพิ่มรูปแล้ว 3 รูป');

    let album = await albumForAdmin('graduation');
    expect(album.pictures).toHaveLength(3);
    expect(album.coverImage).toBe(album.pictures[0]!.url);
    for (const p of album.pictures) expect(p.url).toMatch(/^\/media\/gallery\/[a-f0-9]{24}-640\.webp$/);
    const [a, b, c] = album.pictures.map((p) => p.id) as [number, number, number];

    await editor.call(albumRoute, 'POST', '/admin/gallery/graduation/move', { ...form({ pictureId: String(c), direction: 'up' }), ...at('graduation', 'move') });
    album = await albumForAdmin('graduation');
    expect(album.pictures.map((p) => p.id)).toEqual([a, c, b]);

    await editor.call(albumRoute, 'POST', '/admin/gallery/graduation/arrange', {
      ...form({ pictureId: [String(a), String(c), String(b)], position: ['3', '2', '1'], caption: ['แรก', 'กลาง', 'สุดท้าย'] }),
      ...at('graduation', 'arrange'),
    });
    album = await albumForAdmin('graduation');
    expect(album.pictures.map((p) => [p.id, p.caption])).toEqual([[b, 'สุดท้าย'], [c, 'กลาง'], [a, 'แรก']]);

    await editor.call(albumRoute, 'POST', '/admin/gallery/graduation/cover', { ...form({ pictureId: String(b) }), ...at('graduation', 'cover') });
    await editor.call(albumRoute, 'POST', '/admin/gallery/graduation/remove', { ...form({ pictureId: String(b) }), ...at('graduation', 'remove') });
    album = await albumForAdmin('graduation');
    expect(album.pictures.map((p) => p.id)).toEqual([c, a]);
    expect(album.coverImage).toBe(album.pictures[0]!.url);

    const list = await callGet<{ data: Array<{ url: string; caption: string }> }>(galleryListApi, '/api/get-gallery-list/graduation', { code: 'graduation' });
    expect(list.body.data.map((p) => p.caption)).toEqual(['กลาง', 'แรก']);
    const albums = await callGet<{ data: Array<{ gallery_code?: string; code?: string }> }>(galleryApi, '/api/get-gallery/');
    expect(JSON.stringify(albums.body.data)).toContain('graduation');

    for (const action of ['gallery.create', 'gallery.add_pictures', 'gallery.arrange', 'gallery.cover', 'gallery.remove_picture']) {
      expect(await auditCount(action, 'graduation'), action).toBeGreaterThan(0);
    }
  });

  it('refuses a taken code, a picture from another album and a file that is not a picture', async () => {
    const editor = callers.clients.editor;
    const taken = await editor.call(createAlbumRoute, 'POST', '/admin/gallery/create', form({ code: 'graduation', title: 'ซ้ำ' }));
    expect(flashOf(taken)?.text).toBe('มีอัลบั้มรหัสนี้อยู่แล้ว');
    const other = await albumForAdmin('wedding-favours');
    const foreign = await editor.call(albumRoute, 'POST', '/admin/gallery/graduation/remove', { ...form({ pictureId: String(other.pictures[0]!.id) }), ...at('graduation', 'remove') });
    expect(foreign.status).toBe(404);
    expect((await albumForAdmin('wedding-favours')).pictures).toHaveLength(other.pictures.length);
    const notPicture = await upload(editor, albumRoute, '/admin/gallery/graduation/upload', { pictures: new File(['hello'], 'a.png', { type: 'image/png' }) }, { code: 'graduation', action: 'upload' });
    expect(notPicture.status).toBe(303);
    expect((await albumForAdmin('graduation')).pictures).toHaveLength(2);
    const unknown = await editor.call(albumRoute, 'POST', '/admin/gallery/nope/save', { ...form({ title: 'x' }), ...at('nope', 'save') });
    expect(unknown.status).toBe(404);
  });

  it('deleting an album takes its pictures with it', async () => {
    const owner = callers.clients.owner;
    const deleted = await owner.call(albumRoute, 'POST', '/admin/gallery/graduation/delete', { ...form({}), ...at('graduation', 'delete') });
    expect(deleted.status).toBe(303);
    await expect(albumForAdmin('graduation')).rejects.toThrow();
    expect(await auditCount('gallery.delete', 'graduation')).toBe(1);
  });
});

describe('/admin/recruitment', () => {
  it('editor and owner keep job posts; staff may not; no role sees 404', async () => {
    await expectRoleMatrix(callers, jobRoute, 'POST', '/admin/recruitment/save', () => form({ title: 'พนักงานแพ็คสินค้า', open: 'on' }), ['editor', 'owner']);
  });

  it('a post made, changed, closed and removed here is what /api/get-recruitment/ shows', async () => {
    const editor = callers.clients.editor;
    const created = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ title: 'ผู้ช่วยจัดดอกไม้', description: 'ตอบแชทลูกค้า', location: 'บางรัก', employmentType: 'งานประจำ', salary: '15,000–18,000 บาท', open: 'on' }));
    const id = /\/admin\/recruitment\/(\d+)$/.exec(created.headers.get('location') ?? '')?.[1];
    expect(id).toBeDefined();
    let jobs = await callGet<{ data: Array<Record<string, unknown>> }>(recruitmentApi, '/api/get-recruitment/');
    expect(JSON.stringify(jobs.body.data)).toContain('ผู้ช่วยจัดดอกไม้');
    await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: id!, title: 'ผู้ช่วยจัดดอกไม้ (ด่วน)', open: '' }));
    const db = await getDb();
    const [row] = await db.select().from(recruitments).where(eq(recruitments.id, Number(id)));
    expect(row).toMatchObject({ title: 'ผู้ช่วยจัดดอกไม้ (ด่วน)', open: false, description: '' });
    const empty = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: id!, title: '' }));
    expect(flashOf(empty)?.text).toBe('กรุณาใส่ตำแหน่งงาน');
    const removed = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: id!, intent: 'delete' }));
    expect(flashOf(removed)).toEqual({ kind: 'success', text: 'ลบประกาศแล้ว' });
    jobs = await callGet<{ data: Array<Record<string, unknown>> }>(recruitmentApi, '/api/get-recruitment/');
    expect(JSON.stringify(jobs.body.data)).not.toContain('ผู้ช่วยจัดดอกไม้');
    for (const action of ['job.create', 'job.update', 'job.delete']) expect(await auditCount(action, id!), action).toBe(1);
    const missing = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: '999999', title: 'x' }));
    expect(missing.status).toBe(404);
  });
});

describe('ids past the database’s integer range', () => {
  const huge = '99999999999';

  it('a job post, a gallery picture or a page version with a huge id is a 404, not a 500', async () => {
    const editor = callers.clients.editor;
    const saved = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: huge, title: 'x' }));
    expect(saved.status).toBe(404);
    const deleted = await editor.call(jobRoute, 'POST', '/admin/recruitment/save', form({ id: huge, intent: 'delete' }));
    expect(deleted.status).toBe(404);
    const removed = await editor.call(albumRoute, 'POST', '/admin/gallery/wedding-favours/remove', { ...form({ pictureId: huge }), ...at('wedding-favours', 'remove') });
    expect(removed.status).toBe(404);
    const restored = await editor.call(pageRoute, 'POST', '/admin/pages/aboutus/restore', { ...form({ versionId: huge }), params: { slug: 'aboutus', action: 'restore' } });
    expect(restored.status).toBe(404);
  });

  it('the job post page’s lookup answers 404 for a huge id', async () => {
    await expect(jobForAdmin(Number(huge))).rejects.toMatchObject({ status: 404, code: 'job_not_found' });
  });
});
