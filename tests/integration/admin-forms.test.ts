import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pageActionRoute from '../../src/pages/admin/pages/[slug]/[action]';
import * as createPageRoute from '../../src/pages/admin/pages/create';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import * as brandsRoute from '../../src/pages/api/admin/brands';
import * as productSaveRoute from '../../src/pages/api/admin/products/save';
import { getDb } from '../../src/server/db/client';
import { formRetries } from '../../src/server/db/schema';
import { FLASH_COOKIE } from '../../src/server/admin/flash';
import { keepTypedValues, retried, RETRY_MINUTES } from '../../src/server/admin/form-retries';
import { BASE, routeNext } from '../fixtures/api-client';
import { adminCallers, flashOf, form, fullFlashOf, typedAfterRefusal, type AdminCallers, type Caller, type RouteModule } from '../fixtures/admin';

/**
 * The one back-office form wrapper (src/server/admin/forms.ts), tried through real endpoints of each
 * area: who first, then the body, then `back`, the JSON envelope, the flash, and what was typed.
 */
let callers: AdminCallers;
beforeAll(async () => {
  callers = await adminCallers();
});

const save = (slug: string) => ({ params: { slug, action: 'save' } });

/** A body that notes whether anyone read it, and can fail the way the Node adapter's size limit does. */
function watchedBody(options: { tooLarge?: boolean } = {}) {
  const watch = { read: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      watch.read = true;
      if (options.tooLarge) controller.error(new Error('Body size limit exceeded: received more than 8388608 bytes'));
      else {
        controller.enqueue(new TextEncoder().encode('title=x'));
        controller.close();
      }
    },
  }, { highWaterMark: 0 }); // pulled only when someone reads, never to fill a queue
  return { body, watch };
}

/**
 * TestClient.call with a streamed body (its own bodies are strings), through the middleware; or, with
 * `endpointOnly`, the endpoint alone (the middleware scans a clone of every body for control characters,
 * so only without it can a test see whether the endpoint itself read the body).
 */
async function postStream(caller: Caller, route: RouteModule, path: string, body: ReadableStream<Uint8Array>, init: { params?: Record<string, string>; accept?: string; endpointOnly?: boolean } = {}) {
  const { onRequest } = await import('../../src/middleware');
  const client = callers.clients[caller];
  const url = new URL(path, BASE);
  const headers = new Headers({ origin: BASE, 'content-type': 'application/x-www-form-urlencoded' });
  if (client.bearer) headers.set('authorization', `Bearer ${client.bearer}`);
  if (init.accept) headers.set('accept', init.accept);
  const request = new Request(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  const writes = new Map<string, string>();
  const cookies = { get: () => undefined, has: () => false, set: (name: string, value: string) => writes.set(name, value), delete: () => {} };
  const context = { request, url, params: init.params ?? {}, cookies, clientAddress: client.ip, locals: {}, site: new URL(BASE), redirect: () => new Response(null) };
  const handler = (route as Record<string, (c: unknown) => Promise<Response>>).POST!;
  const response = init.endpointOnly ? await handler(context) : ((await onRequest(context as never, routeNext(() => handler(context)))) as Response);
  const text = await response.text();
  const flash = writes.get(FLASH_COOKIE);
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: (text ? JSON.parse(text) : {}) as { message?: string; code?: string },
    flash: flash ? (JSON.parse(Buffer.from(flash, 'base64url').toString('utf8')) as { kind: string; text: string }) : null,
  };
}

describe('who first: the role check runs before the body is read', () => {
  it('answers 404 to a caller without a role and never touches the body', async () => {
    for (const caller of ['anonymous', 'member'] as const) {
      const { body, watch } = watchedBody();
      const answer = await postStream(caller, createPageRoute, '/admin/pages/create', body, { endpointOnly: true });
      expect(answer.status, caller).toBe(404);
      expect(watch.read, caller).toBe(false);
    }
  });

  it('answers 403 to a role without the right and never touches the body', async () => {
    const { body, watch } = watchedBody();
    const answer = await postStream('editor', settingsRoute, '/admin/settings/company', body, { params: { section: 'company' }, endpointOnly: true });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('forbidden');
    expect(watch.read).toBe(false);
  });

  it('reads the body once the role is right', async () => {
    const { body, watch } = watchedBody();
    const answer = await postStream('editor', createPageRoute, '/admin/pages/create', body, { endpointOnly: true });
    expect(answer.status).toBe(303);
    expect(watch.read).toBe(true);
  });
});

describe('the body, read once by the one readForm', () => {
  it('answers a body cut off by the size limit with a Thai 413, as JSON or as a flash back to the page', async () => {
    const json = await postStream('editor', createPageRoute, '/admin/pages/create', watchedBody({ tooLarge: true }).body, { accept: 'application/json' });
    expect(json.status).toBe(413);
    expect(json.body).toMatchObject({ code: 'body_too_large', message: 'ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด' });
    const plain = await postStream('editor', createPageRoute, '/admin/pages/create?back=/admin/pages%3Fnew%3D1', watchedBody({ tooLarge: true }).body);
    expect(plain.status).toBe(303);
    expect(plain.location).toBe('/admin/pages?new=1');
    expect(plain.flash).toMatchObject({ kind: 'danger', text: 'ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด' });
  });

  it('answers a body that is not a form with a Thai 400', async () => {
    const editor = callers.clients.editor;
    const json = await editor.call(createPageRoute, 'POST', '/admin/pages/create', { body: { slug: 'json-page', title: 'x' }, headers: { accept: 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('form_expected');
    expect(json.body.message).toMatch(/[\u0E00-\u0E7F]/);
    const plain = await editor.call(createPageRoute, 'POST', '/admin/pages/create', { body: { slug: 'json-page', title: 'x' } });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/admin/pages');
    expect(flashOf(plain)).toEqual({ kind: 'danger', text: json.body.message });
  });
});

describe('answers', () => {
  it('gives a client that asks for JSON the envelope with the real status', async () => {
    const owner = callers.clients.owner;
    const accept = { headers: { accept: 'application/json' } };
    const refused = await owner.call(brandsRoute, 'POST', '/api/admin/brands', { ...form({ op: 'nonsense' }), ...accept });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', message: 'คำสั่งไม่ถูกต้อง' });
    expect(refused.cookies.has(FLASH_COOKIE)).toBe(false);
    const invalid = await callers.clients.editor.call(createPageRoute, 'POST', '/admin/pages/create', { ...form({ slug: 'Not A Slug!', title: '' }), ...accept });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('validation_failed');
    expect(Object.keys(invalid.body.fields ?? {})).toEqual(expect.arrayContaining(['slug', 'title']));
    const slug = `json-${Date.now() % 1_000_000}`;
    const created = await callers.clients.editor.call(createPageRoute, 'POST', '/admin/pages/create', { ...form({ slug, title: 'หน้าจาก JSON' }), ...accept });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ message: 'สร้างหน้าใหม่แล้ว เขียนเนื้อหาแล้วกด เผยแพร่', location: `/admin/pages/${slug}` });
  });

  it('sends a plain form post back with a Thai danger flash (303) after a refusal, and with a success flash after the change', async () => {
    const editor = callers.clients.editor;
    const refused = await editor.call(createPageRoute, 'POST', '/admin/pages/create', form({ slug: 'about us', title: 'x', back: '/admin/pages?tab=mine' }));
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin/pages?tab=mine');
    expect(flashOf(refused)?.kind).toBe('danger');
    expect(flashOf(refused)?.text).toMatch(/[\u0E00-\u0E7F]/);
    const slug = `form-${Date.now() % 1_000_000}`;
    const created = await editor.call(createPageRoute, 'POST', '/admin/pages/create', form({ slug, title: 'หน้าใหม่' }));
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe(`/admin/pages/${slug}`);
    expect(flashOf(created)?.kind).toBe('success');
  });

  it('follows only a `back` inside /admin; anything else goes to the endpoint’s own page', async () => {
    const editor = callers.clients.editor;
    const tricks = ['//evil.com', '/\\evil.com', 'https://evil.com/admin', '/admin/../x', '/admin/%2e%2e/x', '/admin/%252e%252e/x', '/%2F%2Fevil.com', '/admin%2F..%2Fx', 'javascript:alert(1)', '/admin\t/x', '/shop'];
    for (const back of tricks) {
      const answer = await editor.call(createPageRoute, 'POST', '/admin/pages/create', form({ slug: 'bad slug', title: 'x', back }));
      expect(answer.status, back).toBe(303);
      expect(answer.headers.get('location'), back).toBe('/admin/pages');
    }
    const fromQuery = await editor.call(createPageRoute, 'POST', `/admin/pages/create?back=${encodeURIComponent('//evil.com')}`, form({ slug: 'bad slug', title: 'x' }));
    expect(fromQuery.headers.get('location')).toBe('/admin/pages');
  });
});

describe('what was typed survives a refusal', () => {
  const longBody = `# ประวัติร้าน\n\n${'ร้านของเราเริ่มจากแผงเล็ก ๆ ในตลาด '.repeat(150)}`.slice(0, 5000);

  it('keeps a 5,000-character page body in the database, not in the cookie, and gives it back to the editor once', async () => {
    expect(longBody).toHaveLength(5000);
    const editor = callers.clients.editor;
    const refused = await editor.call(pageActionRoute, 'POST', '/admin/pages/aboutus/save', { ...form({ title: '', description: 'เกี่ยวกับเรา', body: longBody, intent: 'publish' }), ...save('aboutus') });
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin/pages/aboutus');
    expect(flashOf(refused)).toEqual({ kind: 'danger', text: 'กรุณาใส่ชื่อหน้า' });
    const cookie = refused.cookies.get(FLASH_COOKIE)?.value ?? '';
    expect(cookie.length).toBeLessThan(1000);
    expect(fullFlashOf(refused)?.values).toBeUndefined();
    const page = await typedAfterRefusal(refused, callers.members.editor.id);
    expect(page?.form).toBe('/admin/pages/aboutus/save');
    expect(retried(page, '/admin/pages/aboutus/save', 'body', 'ที่บันทึกไว้')).toBe(longBody);
    expect(retried(page, '/admin/pages/aboutus/save', 'title', 'ที่บันทึกไว้')).toBe('');
    // Another form shows its saved value, and the values are read only once.
    expect(retried(page, '/admin/pages/contact/save', 'body', 'ที่บันทึกไว้')).toBe('ที่บันทึกไว้');
    expect((await typedAfterRefusal(refused, callers.members.editor.id))?.values).toBeUndefined();
  });

  it('survives a refusal of every kind: an order, catalog and settings form alike', async () => {
    const owner = callers.clients.owner;
    const brand = await owner.call(brandsRoute, 'POST', '/api/admin/brands', form({ op: 'nonsense', name: 'แบรนด์ที่พิมพ์ไว้', back: '/admin/brands' }));
    expect(brand.status).toBe(303);
    expect((await typedAfterRefusal(brand, callers.members.owner.id))?.values?.name).toEqual(['แบรนด์ที่พิมพ์ไว้']);
    const product = await callers.clients.staff.call(productSaveRoute, 'POST', '/api/admin/products/save', form({ original_code: '', back: '/admin/products/new', name: 'แก้วมัคที่พิมพ์ไว้', price: 'สองร้อย', stock: '5', tier_min: ['10', ''], tier_price: ['180', ''] }));
    expect(product.status).toBe(303);
    expect(product.headers.get('location')).toBe('/admin/products/new');
    expect(flashOf(product)?.kind).toBe('danger');
    const typedProduct = await typedAfterRefusal(product, callers.members.staff.id);
    expect(typedProduct?.form).toBe('/api/admin/products/save');
    expect(typedProduct?.values).toMatchObject({ name: ['แก้วมัคที่พิมพ์ไว้'], price: ['สองร้อย'], tier_min: ['10', ''] });
    expect(typedProduct?.values).not.toHaveProperty('back');
    const company = await owner.call(settingsRoute, 'POST', '/admin/settings/company', { ...form({ name: 'ร้านยิ้มละไม', phone: '12', address: 'ที่อยู่ยาว '.repeat(400) }), params: { section: 'company' } });
    expect(flashOf(company)?.kind).toBe('danger');
    expect((await typedAfterRefusal(company, callers.members.owner.id))?.values?.address?.[0]).toBe('ที่อยู่ยาว '.repeat(400));
  });

  it('is never shown to another staff member, and never keeps a password', async () => {
    const editor = callers.clients.editor;
    const refused = await editor.call(pageActionRoute, 'POST', '/admin/pages/aboutus/save', { ...form({ title: '', body: 'ร่างลับของบรรณาธิการ', password: 'ไม่ควรเก็บ', otp_code: '123456' }), ...save('aboutus') });
    const someoneElse = await typedAfterRefusal(refused, callers.members.staff.id);
    expect(someoneElse?.values).toBeUndefined();
    expect(retried(someoneElse, '/admin/pages/aboutus/save', 'body', 'ที่บันทึกไว้')).toBe('ที่บันทึกไว้');
    const db = await getDb();
    const [row] = await db.select().from(formRetries).where(eq(formRetries.id, fullFlashOf(refused)?.retry ?? ''));
    expect(row?.memberId).toBe(callers.members.editor.id);
    expect(Object.keys(row?.values ?? {}).sort()).toEqual(['body', 'title']);
    // Still there for the one who typed it.
    expect((await typedAfterRefusal(refused, callers.members.editor.id))?.values?.body).toEqual(['ร่างลับของบรรณาธิการ']);
  });

  it(`expires after ${RETRY_MINUTES} minutes, and old rows are swept`, async () => {
    const member = callers.members.editor.id;
    const values = new FormData();
    values.set('title', 'เก่า');
    const old = await keepTypedValues(member, '/admin/pages/aboutus/save', values);
    const db = await getDb();
    await db.update(formRetries).set({ createdAt: sql`now() - make_interval(mins => ${RETRY_MINUTES + 1})` }).where(eq(formRetries.id, old ?? ''));
    const refused = await callers.clients.editor.call(pageActionRoute, 'POST', '/admin/pages/aboutus/save', { ...form({ title: '' }), ...save('aboutus') });
    expect(await db.select().from(formRetries).where(eq(formRetries.id, old ?? ''))).toHaveLength(0);
    expect(fullFlashOf(refused)?.retry).toBeTruthy();
  });
});
