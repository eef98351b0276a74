import { formatBaht } from '../../lib/money.ts';
import { actionLabels, statusLabels, type OrderAction, type OrderStatus } from '../../lib/orders.ts';
import { ROLE_LABELS, isRole } from '../../lib/roles.ts';

/**
 * The audit trail in an owner's words (issue 32, screen 6): "สมหญิง เปลี่ยนราคา ลิปสติก… จาก ฿270 เป็น ฿290",
 * with a link to the thing changed. Pure: the page reads the rows and the names they mention, and this
 * turns each row into a sentence. The raw record stays one click away on the page.
 */

/** The kinds of thing the trail records (`entity_type`), as the kind filter names them. */
export const AUDIT_KINDS: Record<string, string> = {
  order: 'คำสั่งซื้อ',
  product: 'สินค้า',
  category: 'หมวดหมู่',
  brand: 'แบรนด์',
  promotion: 'โปรโมชั่น',
  page: 'หน้าเนื้อหา',
  gallery: 'แกลเลอรี',
  job: 'ประกาศรับสมัครงาน',
  member: 'สมาชิกและทีมงาน',
  settings: 'ตั้งค่าร้าน',
  back_office_policy: 'นโยบายทีมงาน',
  address: 'การเข้าสู่ระบบจากที่อยู่ IP',
  product_review: 'รีวิว',
};

/** What was done, as a verb phrase put before the thing it was done to. */
const VERBS: Record<string, string> = {
  'product.create': 'เพิ่มสินค้า',
  'product.update': 'แก้ไขสินค้า',
  'product.quick_edit': 'แก้ไขสินค้า',
  'product.stock_adjust': 'ปรับสต็อก',
  'product.restock_notified': 'ส่งอีเมลแจ้งลูกค้าที่รอ',
  'product.variants': 'แก้ไขตัวเลือกของ',
  'product.variants.generate': 'สร้างตัวเลือกของ',
  'product.variants.bulk': 'แก้ไขตัวเลือกหลายรายการของ',
  'product.variants.remove': 'ลบตัวเลือกของ',
  'product.variants.tiers': 'ตั้งราคาส่งของตัวเลือกใน',
  'product.move': 'ย้ายหมวดหมู่ของ',
  'product.hide': 'ซ่อนสินค้า',
  'product.show': 'แสดงสินค้า',
  'category.create': 'เพิ่มหมวดหมู่',
  'category.update': 'แก้ไขหมวดหมู่',
  'category.reorder': 'เลื่อนลำดับหมวดหมู่',
  'category.delete': 'ลบหมวดหมู่',
  'brand.create': 'เพิ่มแบรนด์',
  'brand.update': 'แก้ไขแบรนด์',
  'brand.delete': 'ลบแบรนด์',
  'order.note': 'เพิ่มบันทึกในคำสั่งซื้อ',
  'order.resend_mail': 'ส่งอีเมลอีกครั้งของคำสั่งซื้อ',
  'promotion.create': 'เพิ่มโปรโมชั่น',
  'promotion.update': 'แก้ไขโปรโมชั่น',
  'promotion.banner': 'เปลี่ยนแบนเนอร์ของโปรโมชั่น',
  'page.create': 'สร้างหน้า',
  'page.publish': 'เผยแพร่หน้า',
  'page.save_draft': 'บันทึกฉบับร่างของหน้า',
  'page.unpublish': 'เลิกเผยแพร่หน้า',
  'page.restore': 'กู้คืนฉบับเก่าของหน้า',
  'gallery.create': 'สร้างอัลบั้ม',
  'gallery.update': 'แก้ไขอัลบั้ม',
  'gallery.delete': 'ลบอัลบั้ม',
  'gallery.add_pictures': 'เพิ่มรูปในอัลบั้ม',
  'gallery.arrange': 'จัดเรียงรูปในอัลบั้ม',
  'gallery.remove_picture': 'ลบรูปจากอัลบั้ม',
  'gallery.cover': 'เปลี่ยนรูปปกของอัลบั้ม',
  'gallery.move': 'เลื่อนลำดับอัลบั้ม',
  'job.create': 'เพิ่มประกาศรับสมัครงาน',
  'job.update': 'แก้ไขประกาศรับสมัครงาน',
  'job.delete': 'ลบประกาศรับสมัครงาน',
  'member.disable': 'ระงับบัญชีของ',
  'member.enable': 'เปิดใช้บัญชีของ',
  'member.line_sign_up': 'สมัครสมาชิกด้วย LINE เป็นบัญชี',
  'member.line_link': 'เชื่อมต่อ LINE กับบัญชีของ',
  'member.line_unlink': 'ยกเลิกการเชื่อมต่อ LINE ของ',
  'staff.grant': 'ให้สิทธิ์',
  'staff.revoke': 'ถอนสิทธิ์ของ',
  'staff.two_factor_enable': 'เปิดการยืนยันสองขั้นตอนของ',
  'staff.two_factor_disable': 'ปิดการยืนยันสองขั้นตอนของ',
  'staff.two_factor_reset': 'ล้างการยืนยันสองขั้นตอนของ',
  'staff.two_factor_recovery_used': 'ใช้รหัสกู้คืนเข้าสู่ระบบของ',
  'staff.two_factor_recovery_failed': 'ใส่รหัสกู้คืนผิดสำหรับ',
  'staff.two_factor_failures': 'ใส่รหัสยืนยันผิดหลายครั้งสำหรับ',
  'staff.two_factor_lock': 'ระงับการยืนยันสองขั้นตอนชั่วคราวของ',
  'settings.require_two_factor': 'เปลี่ยนนโยบายการยืนยันสองขั้นตอนของทีมงาน',
  'settings.update_company': 'แก้ไขข้อมูลร้าน',
  'settings.update_payment': 'แก้ไขการชำระเงิน',
  'settings.update_delivery': 'แก้ไขการจัดส่ง',
  'settings.update_gift': 'แก้ไขการห่อของขวัญ',
  'settings.update_reviews': 'แก้ไขการตั้งค่ารีวิว',
  'review.write': 'เขียนรีวิวสินค้า',
  'review.approve': 'อนุมัติรีวิวของ',
  'review.hide': 'ซ่อนรีวิวของ',
  'review.show': 'แสดงรีวิวอีกครั้งของ',
  'review.answer': 'ตอบรีวิวของ',
  'review.answer_remove': 'ลบคำตอบรีวิวของ',
  'review.photo_remove': 'ลบรูปจากรีวิวของ',
  'storage.pictures_delete': 'ลบรูปที่ไม่มีที่ใช้แล้วออกจาก',
};

/** The Thai name of an action for the filter; order actions take the order page's own words. */
export function auditActionLabel(action: string): string {
  const verb = VERBS[action];
  if (verb) return verb.replace(/(ของ|สำหรับ|ใน|จาก)$/, '').trim();
  const orderAction = orderActionOf(action);
  if (orderAction) return `${actionLabels[orderAction]} (คำสั่งซื้อ)`;
  return action;
}

function orderActionOf(action: string): OrderAction | null {
  const name = action.startsWith('order.') ? action.slice('order.'.length) : '';
  return Object.hasOwn(actionLabels, name) ? (name as OrderAction) : null;
}

type Shown = (value: unknown) => string;
const text: Shown = (value) => (value === null || value === undefined || value === '' ? '(ว่าง)' : String(value));
const money: Shown = (value) => (typeof value === 'number' ? formatBaht(value) : text(value));
const onOff: Shown = (value) => (value === true ? 'เปิด' : value === false ? 'ปิด' : text(value));
const yesNo: Shown = (value) => (value === true ? 'ใช่' : value === false ? 'ไม่' : text(value));
const status: Shown = (value) => (typeof value === 'string' && Object.hasOwn(statusLabels, value) ? statusLabels[value as OrderStatus] : text(value));
const role: Shown = (value) => (isRole(value) ? ROLE_LABELS[value] : value === null ? 'ไม่มีสิทธิ์' : text(value));
const count: Shown = (value) => (typeof value === 'number' ? value.toLocaleString('th-TH') : text(value));
const reviewStatus: Shown = (value) => (value === 'pending' ? 'รอตรวจ' : value === 'published' ? 'เผยแพร่แล้ว' : value === 'hidden' ? 'ซ่อนอยู่' : text(value));

/** Fields whose change reads well in a sentence, with their Thai names and how their values are shown. */
const FIELDS: Record<string, { label: string; show: Shown }> = {
  priceSatang: { label: 'ราคา', show: money },
  stock: { label: 'คงเหลือ', show: count },
  name: { label: 'ชื่อ', show: text },
  nameEn: { label: 'ชื่อภาษาอังกฤษ', show: text },
  active: { label: 'การแสดงในร้าน', show: onOff },
  recommended: { label: 'สินค้าแนะนำ', show: yesNo },
  unit: { label: 'หน่วย', show: text },
  status: { label: 'สถานะ', show: status },
  carrier: { label: 'ขนส่ง', show: text },
  trackingNo: { label: 'เลขพัสดุ', show: text },
  role: { label: 'สิทธิ์', show: role },
  disabled: { label: 'การระงับบัญชี', show: yesNo },
  twoFactor: { label: 'การยืนยันสองขั้นตอน', show: onOff },
  requireTwoFactor: { label: 'การบังคับยืนยันสองขั้นตอน', show: onOff },
  recoveryCodesLeft: { label: 'รหัสกู้คืนที่เหลือ', show: count },
  position: { label: 'ลำดับ', show: count },
  title: { label: 'หัวข้อ', show: text },
  discountValue: { label: 'ส่วนลด', show: count },
  minOrderSatang: { label: 'ยอดขั้นต่ำ', show: money },
  maxDiscountSatang: { label: 'ส่วนลดสูงสุด', show: money },
  usageLimit: { label: 'จำนวนสิทธิ์', show: count },
  bannerColor: { label: 'สีแบนเนอร์', show: text },
  bannerTextOver: { label: 'ข้อความบนแบนเนอร์', show: onOff },
  phone: { label: 'เบอร์โทรศัพท์ร้าน', show: text },
  address: { label: 'ที่อยู่ร้าน', show: text },
  openingHours: { label: 'เวลาเปิดทำการ', show: text },
  promptpayId: { label: 'หมายเลขพร้อมเพย์', show: text },
  orderExpiryHours: { label: 'เวลาให้ชำระเงิน (ชั่วโมง)', show: count },
  freeShippingMinSatang: { label: 'ยอดส่งฟรี', show: money },
  giftCardPriceSatang: { label: 'ราคาการ์ดข้อความ', show: money },
  open: { label: 'การเปิดรับสมัคร', show: onOff },
  caption: { label: 'คำบรรยาย', show: text },
  reviewStatus: { label: 'สถานะรีวิว', show: reviewStatus },
  hiddenReason: { label: 'เหตุผลที่ซ่อน', show: text },
  photos: { label: 'จำนวนรูป', show: count },
  storedPictures: { label: 'จำนวนรูปที่เก็บไว้', show: count },
  reviewsNeedApproval: { label: 'การรออนุมัติรีวิวใหม่', show: onOff },
  reviewInvites: { label: 'อีเมลชวนรีวิว', show: onOff },
};
/** Fields whose values are too long or too technical for a sentence: said to have changed, nothing more. */
const CHANGED_ONLY: Record<string, string> = {
  bannerImage: 'รูปแบนเนอร์',
  coverImage: 'รูปปก',
  pictures: 'รูปสินค้า',
  tiers: 'ราคาส่ง',
  descriptionLength: 'รายละเอียด',
  description: 'รายละเอียด',
  categoryId: 'หมวดหมู่',
  brandId: 'แบรนด์',
  bankAccounts: 'บัญชีธนาคาร',
  deliveryOptions: 'วิธีจัดส่ง',
  giftWrapOptions: 'แบบห่อของขวัญ',
  paymentMethods: 'วิธีชำระเงิน',
  categoryCodes: 'หมวดหมู่ที่ร่วมรายการ',
  productCodes: 'สินค้าที่ร่วมรายการ',
  body: 'เนื้อหา',
  startsAt: 'วันเริ่ม',
  endsAt: 'วันสิ้นสุด',
  answer: 'คำตอบของร้าน',
};

export interface AuditChange {
  label: string;
  from: string | null;
  to: string | null;
}

export interface AuditRowInput {
  action: string;
  entityType: string;
  entityId: string;
  actorId: string | null;
  actorEmail: string;
  actorRole: string;
  via: string;
  before: unknown;
  after: unknown;
  note: string;
}

/** Names the page looked up for a page of rows: people by member id, products by code. */
export interface AuditNames {
  people: ReadonlyMap<string, string>;
  products: ReadonlyMap<string, string>;
}

export interface AuditSentence {
  who: string;
  /** Everything before the thing's name: "เปลี่ยนราคา", "ยืนยันการชำระเงิน คำสั่งซื้อ". */
  verb: string;
  target: { label: string; href: string | null } | null;
  /** After the thing's name: " จาก ฿270 เป็น ฿290" when one value changed. */
  tail: string;
  /** Every value that changed, when there were several. */
  changes: AuditChange[];
}

const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The values that differ between before and after, in the order FIELDS lists them, then the rest. */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const a = record(before);
  const b = record(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const order = (key: string) => {
    const index = Object.keys(FIELDS).indexOf(key);
    return index === -1 ? 1000 : index;
  };
  const changes: AuditChange[] = [];
  for (const key of keys.sort((x, y) => order(x) - order(y))) {
    if (!(key in a) || !(key in b)) continue;
    if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
    const field = FIELDS[key];
    if (field) changes.push({ label: field.label, from: field.show(a[key]), to: field.show(b[key]) });
    else if (CHANGED_ONLY[key]) changes.push({ label: CHANGED_ONLY[key], from: null, to: null });
  }
  return changes;
}

function who(row: AuditRowInput, names: AuditNames): string {
  if (row.via === 'system') return 'ระบบ';
  const name = row.actorId ? names.people.get(row.actorId) : undefined;
  return name || row.actorEmail || 'ไม่ทราบผู้ทำ';
}

function pick(row: AuditRowInput, key: string): string | null {
  const value = record(row.after)[key] ?? record(row.before)[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function target(row: AuditRowInput, names: AuditNames): AuditSentence['target'] {
  const id = row.entityId;
  const path = encodeURIComponent;
  switch (row.entityType) {
    case 'product': {
      // The operator CLI records a product by its row id with the code in the values.
      const code = /^\d+$/.test(id) ? (pick(row, 'code') ?? id) : id;
      // A row written without the product's code (an import's summary) names no product: no link to guess.
      if (!code) return { label: pick(row, 'name') ?? 'สินค้า', href: null };
      const label = names.products.get(code) ?? pick(row, 'name') ?? code;
      const stock = row.action === 'product.stock_adjust';
      return { label, href: row.action === 'product.delete' ? null : `/admin/products/${path(code)}${stock ? '/stock' : ''}` };
    }
    case 'order':
      return { label: id, href: `/admin/orders/${path(id)}` };
    case 'category':
      return { label: pick(row, 'name') ?? id, href: '/admin/categories' };
    case 'brand':
      return { label: pick(row, 'name') ?? pick(row, 'nameTh') ?? id, href: '/admin/brands' };
    case 'promotion':
      return { label: pick(row, 'name') ? `${pick(row, 'name')} (${id})` : id, href: `/admin/promotions/${path(id)}` };
    case 'page':
      return { label: pick(row, 'title') ?? id, href: row.action === 'page.unpublish' || row.action === 'page.publish' || id === '' ? `/admin/pages` : `/admin/pages/${path(id)}` };
    case 'gallery':
      return { label: pick(row, 'title') ?? id, href: row.action === 'gallery.delete' ? '/admin/gallery' : `/admin/gallery/${path(id)}` };
    case 'job':
      return { label: pick(row, 'title') ?? `ประกาศที่ ${id}`, href: row.action === 'job.delete' ? '/admin/recruitment' : `/admin/recruitment/${path(id)}` };
    case 'member': {
      const label = names.people.get(id) ?? pick(row, 'email') ?? 'สมาชิก';
      return { label, href: /^[0-9a-f-]{36}$/i.test(id) ? `/admin/members/${path(id)}` : null };
    }
    case 'address':
      return { label: id, href: null };
    case 'product_review':
      return { label: pick(row, 'product') ?? `รีวิว ${id}`, href: /^\d+$/.test(id) ? `/admin/reviews?review=${id}` : null };
    case 'storage':
      return { label: 'ที่เก็บรูป', href: null };
    default:
      return null;
  }
}

/** One audit row as a sentence an owner reads. */
export function describeAudit(row: AuditRowInput, names: AuditNames): AuditSentence {
  const person = who(row, names);
  const thing = target(row, names);
  const orderAction = orderActionOf(row.action);
  let verb = VERBS[row.action] ?? (orderAction ? `${actionLabels[orderAction]} คำสั่งซื้อ` : row.action);
  const changes = auditChanges(row.before, row.after);
  let tail = '';
  const single = changes.length === 1 ? changes[0]! : null;
  const editing = /\.(update|quick_edit|stock_adjust)$/.test(row.action) || row.action.startsWith('settings.');
  const place = row.entityType === 'settings' ? { label: 'ตั้งค่าร้าน', href: '/admin/settings' } : thing;
  if (single && single.from !== null && editing) {
    // "สมหญิง เปลี่ยนราคา ลิปสติก… จาก ฿270 เป็น ฿290"
    if (row.action === 'product.stock_adjust') verb = 'ปรับสต็อก';
    else verb = row.entityType === 'settings' ? `เปลี่ยน${single.label} ใน` : `เปลี่ยน${single.label}`;
    tail = ` จาก ${single.from} เป็น ${single.to}`;
    return { who: person, verb, target: place, tail, changes: [] };
  }
  const statusChange = changes.find((change) => change.label === FIELDS.status!.label);
  if (row.action === 'staff.grant' && single && single.to !== null) tail = ` เป็น${single.to}`;
  else if (orderAction && statusChange) tail = ` (${statusChange.from} → ${statusChange.to})`;
  const tracking = record(row.after).trackingNo;
  if (orderAction === 'ship' && typeof tracking === 'string' && tracking !== '') tail += ` เลขพัสดุ ${tracking}`;
  const shown = row.action === 'staff.grant' || orderAction ? [] : changes;
  return { who: person, verb, target: place, tail, changes: shown };
}
