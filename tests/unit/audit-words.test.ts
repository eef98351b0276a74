import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditChanges, describeAudit, type AuditRowInput } from '../../src/server/audit/audit-words';
import { statusLabels } from '../../src/lib/orders';

/** Issue 32, screen 6: the audit trail speaks Thai to an owner, with a link to the thing changed. */
const SOMYING = '5f0c2d7e-1111-4222-8333-944445555666';
const names = { people: new Map([[SOMYING, 'สมหญิง']]), products: new Map([['LIP-01', 'ลิปสติก เนื้อแมตต์ สีชมพู']]) };
const row = (over: Partial<AuditRowInput>): AuditRowInput => ({
  action: 'product.quick_edit',
  entityType: 'product',
  entityId: 'LIP-01',
  actorId: SOMYING,
  actorEmail: 'somying@shop.test',
  actorRole: 'staff',
  via: 'web',
  before: null,
  after: null,
  note: '',
  ...over,
});
const sentence = (value: ReturnType<typeof describeAudit>) => `${value.who} ${value.verb} ${value.target?.label ?? ''}${value.tail}`.replace(/\s+/g, ' ').trim();

describe('audit sentences', () => {
  it('a price change reads "สมหญิง เปลี่ยนราคา ลิปสติก… จาก ฿270 เป็น ฿290" and links to the product', () => {
    const said = describeAudit(row({ before: { priceSatang: 27_000, stock: 4 }, after: { priceSatang: 29_000, stock: 4 } }), names);
    expect(sentence(said)).toBe('สมหญิง เปลี่ยนราคา ลิปสติก เนื้อแมตต์ สีชมพู จาก ฿270 เป็น ฿290');
    expect(said.target?.href).toBe('/admin/products/LIP-01');
  });

  it('variant changes read in Thai, in the filter too, and link to the product', () => {
    const tiers = describeAudit(row({ action: 'product.variants.tiers', before: null, after: null }), names);
    expect(sentence(tiers)).toBe('สมหญิง ตั้งราคาส่งของตัวเลือกใน ลิปสติก เนื้อแมตต์ สีชมพู');
    expect(tiers.target?.href).toBe('/admin/products/LIP-01');
    for (const action of ['product.variants', 'product.variants.generate', 'product.variants.bulk', 'product.variants.remove', 'product.variants.tiers']) {
      expect(auditActionLabel(action), action).toMatch(/^[\u0E00-\u0E7F ]+$/);
    }
    expect(auditActionLabel('product.variants.remove')).toBe('ลบตัวเลือก');
  });

  it('a stock adjustment links to the stock page; several changes are listed one by one', () => {
    const stock = describeAudit(row({ action: 'product.stock_adjust', before: { stock: 3 }, after: { stock: 10 }, note: 'รับสินค้าจากผู้ผลิต' }), names);
    expect(sentence(stock)).toBe('สมหญิง ปรับสต็อก ลิปสติก เนื้อแมตต์ สีชมพู จาก 3 เป็น 10');
    expect(stock.target?.href).toBe('/admin/products/LIP-01/stock');
    const both = describeAudit(row({ before: { priceSatang: 27_000, stock: 4 }, after: { priceSatang: 29_000, stock: 6 } }), names);
    expect(both.verb).toBe('แก้ไขสินค้า');
    expect(both.changes).toEqual([
      { label: 'ราคา', from: '฿270', to: '฿290' },
      { label: 'คงเหลือ', from: '4', to: '6' },
    ]);
  });

  it('an order move names the order, links to it, and says the statuses in the shop words', () => {
    const said = describeAudit(
      row({ action: 'order.confirm_payment', entityType: 'order', entityId: 'YL2611-0001', before: { status: 'payment_review', carrier: null, trackingNo: null }, after: { status: 'paid', carrier: null, trackingNo: null } }),
      names,
    );
    expect(sentence(said)).toBe(`สมหญิง ยืนยันการชำระเงิน คำสั่งซื้อ YL2611-0001 (${statusLabels.payment_review} → ${statusLabels.paid})`);
    expect(said.target?.href).toBe('/admin/orders/YL2611-0001');
  });

  it('the system, the CLI and a person no longer known are named as they were recorded', () => {
    expect(describeAudit(row({ via: 'system', actorId: null, actorEmail: 'system', action: 'order.expire', entityType: 'order', entityId: 'YL1' }), names).who).toBe('ระบบ');
    expect(describeAudit(row({ via: 'cli', actorId: null, actorEmail: 'operator root (CLI)' }), names).who).toBe('operator root (CLI)');
    expect(describeAudit(row({ actorId: '00000000-0000-4000-8000-000000000000', actorEmail: 'gone@shop.test' }), names).who).toBe('gone@shop.test');
  });

  it('a grant names the role in Thai; an unknown action falls back to its code, never to nothing', () => {
    const grant = describeAudit(row({ action: 'staff.grant', entityType: 'member', entityId: SOMYING, before: { email: 'somying@shop.test', role: null }, after: { email: 'somying@shop.test', role: 'staff' } }), names);
    expect(sentence(grant)).toBe('สมหญิง ให้สิทธิ์ สมหญิง เป็นพนักงาน');
    expect(grant.target?.href).toBe(`/admin/members/${SOMYING}`);
    expect(describeAudit(row({ action: 'robot.dance', entityType: 'robot' }), names).verb).toBe('robot.dance');
  });

  it('long values are said to have changed, not printed; values that did not change are left out', () => {
    expect(auditChanges({ pictures: ['a'], stock: 1, name: 'x' }, { pictures: ['a', 'b'], stock: 1, name: 'x' })).toEqual([{ label: 'รูปสินค้า', from: null, to: null }]);
  });

  it('the action filter names actions in Thai', () => {
    expect(auditActionLabel('product.stock_adjust')).toBe('ปรับสต็อก');
    expect(auditActionLabel('order.ship')).toBe('จัดส่งสินค้า (คำสั่งซื้อ)');
    expect(auditActionLabel('member.disable')).toBe('ระงับบัญชี');
    for (const action of ['review.write', 'review.approve', 'review.hide', 'review.show', 'review.answer', 'review.answer_remove', 'review.photo_remove', 'settings.update_reviews']) {
      expect(auditActionLabel(action), action).toMatch(/^[\u0E00-\u0E7F ]+$/);
    }
  });

  it('a hidden review names the product, says the status and reason in Thai, and links to the review alone', () => {
    const hidden = describeAudit(
      row({
        action: 'review.hide',
        entityType: 'product_review',
        entityId: '42',
        before: { reviewStatus: 'published', hiddenReason: null, answer: null, product: 'ลิปสติก เนื้อแมตต์ สีชมพู' },
        after: { reviewStatus: 'hidden', hiddenReason: 'มีเบอร์โทรศัพท์ส่วนตัว', answer: null, product: 'ลิปสติก เนื้อแมตต์ สีชมพู' },
        note: 'มีเบอร์โทรศัพท์ส่วนตัว',
      }),
      names,
    );
    expect(sentence(hidden)).toBe('สมหญิง ซ่อนรีวิวของ ลิปสติก เนื้อแมตต์ สีชมพู');
    expect(hidden.target?.href).toBe('/admin/reviews?review=42');
    expect(hidden.changes).toEqual([
      { label: 'สถานะรีวิว', from: 'เผยแพร่แล้ว', to: 'ซ่อนอยู่' },
      { label: 'เหตุผลที่ซ่อน', from: '(ว่าง)', to: 'มีเบอร์โทรศัพท์ส่วนตัว' },
    ]);
    const answered = describeAudit(row({ action: 'review.answer', entityType: 'product_review', entityId: '42', before: { answer: null, product: 'ลิปสติก' }, after: { answer: 'ขอบคุณค่ะ', product: 'ลิปสติก' } }), names);
    expect(sentence(answered)).toBe('สมหญิง ตอบรีวิวของ ลิปสติก');
    expect(answered.changes).toEqual([{ label: 'คำตอบของร้าน', from: null, to: null }]);
    const photo = describeAudit(row({ action: 'review.photo_remove', entityType: 'product_review', entityId: '42', before: { reviewStatus: 'published', photos: 3, product: 'ลิปสติก' }, after: { reviewStatus: 'published', photos: 2, product: 'ลิปสติก' } }), names);
    expect(sentence(photo)).toBe('สมหญิง ลบรูปจากรีวิวของ ลิปสติก');
    expect(photo.changes).toEqual([{ label: 'จำนวนรูป', from: '3', to: '2' }]);
    const settings = describeAudit(row({ action: 'settings.update_reviews', entityType: 'settings', entityId: 'main', before: { reviewInvites: true }, after: { reviewInvites: false } }), names);
    expect(sentence(settings)).toBe('สมหญิง เปลี่ยนอีเมลชวนรีวิว ใน ตั้งค่าร้าน จาก เปิด เป็น ปิด');
  });
});
