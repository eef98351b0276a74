import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import * as companyApi from '../../src/pages/api/get-company';
import { getDb } from '../../src/server/db/client';
import { auditLog } from '../../src/server/db/schema';
import { getCompany } from '../../src/server/company/company.service';
import { publishedPage } from '../../src/server/content/pages.service';
import { isValidThaiTaxId } from '../../src/lib/tax-id';
import { ADMIN_PASSWORD, adminCallers, expectRoleMatrix, flashOf, form, fullFlashOf, typedAfterRefusal, type AdminCallers } from '../fixtures/admin';
import { callGet } from '../fixtures/api-context';

let callers: AdminCallers;
beforeAll(async () => {
  callers = await adminCallers();
});

const companyForm = (overrides: Record<string, string> = {}) =>
  form({
    name: 'ร้านยิ้มละไม กิฟต์ช็อป',
    nameEn: 'Yimlamai Gift Shop',
    tagline: 'ของขวัญ',
    phone: '081-234-5678',
    email: 'hello@yimlamai.shop',
    lineId: '@yimlamai',
    facebookUrl: 'https://www.facebook.com/yimlamai.giftshop',
    mapUrl: 'https://www.google.com/maps/search/?api=1&query=13.7279,100.5241',
    openingHours: 'เปิดทุกวัน 09:00–20:00 น.',
    taxId: '0-1055-66123-45-6',
    address: '123/45 ถนนพระรามที่ 4 กรุงเทพมหานคร 10500',
    ...overrides,
  });
const at = (section: string) => ({ params: { section } });

async function lastAudit(action: string) {
  const db = await getDb();
  const [row] = await db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

describe('the Thai tax id check digit', () => {
  it('accepts real ids and refuses a wrong last digit', () => {
    expect(isValidThaiTaxId('0105566123456')).toBe(true);
    expect(isValidThaiTaxId('0-1055-66123-45-6')).toBe(true);
    expect(isValidThaiTaxId('3101700123452')).toBe(true);
    expect(isValidThaiTaxId('3101700123453')).toBe(false);
    expect(isValidThaiTaxId('0105566123457')).toBe(false);
    expect(isValidThaiTaxId('010556612345')).toBe(false);
    expect(isValidThaiTaxId('01055661234ab')).toBe(false);
  });
});

describe('/admin/settings is the owner’s', () => {
  it('only the owner may change the company record, payment or delivery', async () => {
    await expectRoleMatrix(callers, settingsRoute, 'POST', '/admin/settings/company', () => ({ ...companyForm(), ...at('company') }), ['owner']);
    await expectRoleMatrix(callers, settingsRoute, 'POST', '/admin/settings/payment', () => ({ ...form({ password: 'x' }), ...at('payment') }), ['owner']);
    await expectRoleMatrix(callers, settingsRoute, 'POST', '/admin/settings/delivery', () => ({ ...form({}), ...at('delivery') }), ['owner']);
  });
});

describe('the company record', () => {
  it('a new shop phone shows at once where the shop reads the record, and is audited with before and after', async () => {
    await getCompany(); // kept in memory before the change, as in a running server
    const saved = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/company', { ...companyForm({ phone: '0 2123 4567' }), ...at('company') });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/admin/settings#company');
    expect(flashOf(saved)?.kind).toBe('success');
    expect((await getCompany()).phone).toBe('02-123-4567');
    const api = await callGet<{ data: Array<{ phone: string }> }>(companyApi, '/api/get-company/');
    expect(api.body.data[0]?.phone).toBe('02-123-4567');
    expect((await publishedPage('contact'))?.html).toContain('href="tel:021234567"');
    const audit = await lastAudit('settings.update_company');
    expect(audit?.before).toEqual({ phone: '081-234-5678' });
    expect(audit?.after).toEqual({ phone: '02-123-4567' });
    expect(audit?.actorRole).toBe('owner');
  });

  it('refuses a tax id with a wrong check digit, a bad phone or a non-https link, and keeps the record', async () => {
    const owner = callers.clients.owner;
    const cases: Array<[Record<string, string>, string]> = [
      [{ taxId: '0105566123457' }, 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง'],
      [{ phone: '12345' }, 'เบอร์โทรศัพท์ร้านไม่ถูกต้อง'],
      [{ facebookUrl: 'javascript:alert(1)' }, 'https://'],
      [{ name: '' }, 'กรุณาใส่ชื่อร้าน'],
    ];
    for (const [overrides, message] of cases) {
      const result = await owner.call(settingsRoute, 'POST', '/admin/settings/company', { ...companyForm(overrides), ...at('company') });
      expect(result.status).toBe(303);
      expect(flashOf(result)?.kind).toBe('danger');
      expect(flashOf(result)?.text).toContain(message);
    }
    expect((await getCompany()).phone).toBe('02-123-4567');
    expect((await getCompany()).taxId).toBe('0105566123456');
  });
});

describe('payment settings', () => {
  const payment = (overrides: Record<string, string | string[]> = {}) =>
    form({
      promptpay: 'on',
      bankTransfer: 'on',
      promptpayId: '081-234-5678',
      orderExpiryHours: '12',
      bank: ['ธนาคารกสิกรไทย', ''],
      accountNo: ['123-4-56789-0', ''],
      accountName: ['บจก. ยิ้มละไม', ''],
      branch: ['สามย่าน', ''],
      ...overrides,
    });

  it('asks for the owner’s password again', async () => {
    const owner = callers.clients.owner;
    const wrong = await owner.call(settingsRoute, 'POST', '/admin/settings/payment', { ...payment({ password: 'ผิด' }), ...at('payment') });
    expect(flashOf(wrong)?.text).toContain('รหัสผ่านไม่ถูกต้อง');
    // What was typed comes back to the form, the password never; the cookie carries only the id of the kept values.
    expect(fullFlashOf(wrong)?.values).toBeUndefined();
    const typed = await typedAfterRefusal(wrong, callers.members.owner.id);
    expect(typed?.form).toBe('/admin/settings/payment');
    expect(typed?.values?.bank).toEqual(['ธนาคารกสิกรไทย', '']);
    expect(typed?.values?.orderExpiryHours).toEqual(['12']);
    expect(typed?.values && 'password' in typed.values).toBe(false);
    expect((await getCompany()).orderExpiryHours).toBe(24);
    const right = await owner.call(settingsRoute, 'POST', '/admin/settings/payment', { ...payment({ password: ADMIN_PASSWORD }), ...at('payment') });
    expect(flashOf(right)?.kind).toBe('success');
    const shop = await getCompany();
    expect(shop.orderExpiryHours).toBe(12);
    expect(shop.paymentMethods).toEqual({ promptpay: true, bankTransfer: true, cod: false });
    expect(shop.promptpayId).toBe('0812345678');
    expect(shop.bankAccounts).toEqual([{ bank: 'ธนาคารกสิกรไทย', accountNo: '123-4-56789-0', accountName: 'บจก. ยิ้มละไม', branch: 'สามย่าน' }]);
    const audit = await lastAudit('settings.update_payment');
    expect(audit?.after).toMatchObject({ orderExpiryHours: 12, paymentMethods: { cod: false } });
  });

  it('refuses a method left without what it needs', async () => {
    const owner = callers.clients.owner;
    const noMethod = await owner.call(settingsRoute, 'POST', '/admin/settings/payment', { ...payment({ password: ADMIN_PASSWORD, promptpay: '', bankTransfer: '' }), ...at('payment') });
    expect(flashOf(noMethod)?.text).toBe('ต้องเปิดวิธีชำระเงินอย่างน้อย 1 วิธี');
    const noBank = await owner.call(settingsRoute, 'POST', '/admin/settings/payment', { ...payment({ password: ADMIN_PASSWORD, bank: '', accountNo: '', accountName: '', branch: '' }), ...at('payment') });
    expect(flashOf(noBank)?.text).toContain('บัญชีอย่างน้อย 1 บัญชี');
    const hours = await owner.call(settingsRoute, 'POST', '/admin/settings/payment', { ...payment({ password: ADMIN_PASSWORD, orderExpiryHours: 'สิบ' }), ...at('payment') });
    expect(flashOf(hours)?.kind).toBe('danger');
  });
});

describe('delivery settings', () => {
  it('saves options with fees in baht and the free-delivery amount; refuses duplicates and tracking links without {tracking}', async () => {
    const owner = callers.clients.owner;
    const saved = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', {
      ...form({
        code: ['ems', 'pickup', ''],
        name: ['EMS', 'รับเองที่ร้าน', ''],
        fee: ['55.50', '0', ''],
        days: ['1–2 วัน', '', ''],
        trackingUrl: ['https://track.thailandpost.co.th/?trackNumber={tracking}', '', ''],
        freeShipping: '990',
      }),
      ...at('delivery'),
    });
    expect(flashOf(saved)?.kind).toBe('success');
    const shop = await getCompany();
    expect(shop.deliveryOptions).toEqual([
      { code: 'ems', name: 'EMS', feeSatang: 5550, days: '1–2 วัน', trackingUrl: 'https://track.thailandpost.co.th/?trackNumber={tracking}' },
      { code: 'pickup', name: 'รับเองที่ร้าน', feeSatang: 0, days: '', trackingUrl: null },
    ]);
    expect(shop.freeShippingMinSatang).toBe(99_000);
    const dup = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', { ...form({ code: ['ems', 'ems'], name: ['a', 'b'], fee: ['1', '2'], freeShipping: '' }), ...at('delivery') });
    expect(flashOf(dup)?.text).toBe('รหัสวิธีจัดส่งซ้ำกัน');
    const track = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', { ...form({ code: 'x', name: 'x', fee: '1', trackingUrl: 'https://t.example/', freeShipping: '' }), ...at('delivery') });
    expect(flashOf(track)?.text).toContain('{tracking}');
    const db = await getDb();
    const rows = await db.select().from(auditLog).where(and(eq(auditLog.action, 'settings.update_delivery'), eq(auditLog.entityType, 'settings')));
    expect(rows).toHaveLength(1);
  });
});
