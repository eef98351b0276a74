import { z } from './zod.ts';
import { isValidThaiTaxId, normaliseTaxId } from './tax-id.ts';
import { formatThaiPhone, isThaiPhone, normalizeThaiPhone } from './phone.ts';
import { STORED_PICTURE } from './gift-wrap.ts';

/**
 * The shop settings forms (/admin/settings, owner only), shared by the page and the endpoints so both
 * say the same Thai thing about the same mistake.
 */
const text = (max: number, label: string) => z.string({ error: `กรุณาใส่${label}` }).trim().max(max, `${label}ยาวเกิน ${max} ตัวอักษร`);
const httpsUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label}ยาวเกินไป`)
    .refine((value) => value === '' || /^https:\/\/[^\s<>"']+$/i.test(value), `${label}ต้องขึ้นต้นด้วย https://`);

export const companySettingsSchema = z.object({
  name: text(120, 'ชื่อร้าน').min(1, 'กรุณาใส่ชื่อร้าน'),
  nameEn: text(120, 'ชื่อภาษาอังกฤษ').default(''),
  tagline: text(200, 'คำโปรย').default(''),
  phone: z
    .string({ error: 'กรุณาใส่เบอร์โทรศัพท์ร้าน' })
    .trim()
    .refine((value) => isThaiPhone(normalizeThaiPhone(value)), 'เบอร์โทรศัพท์ร้านไม่ถูกต้อง (เช่น 081-234-5678 หรือ 02-123-4567)')
    .transform((value) => formatThaiPhone(normalizeThaiPhone(value))),
  email: z
    .string()
    .trim()
    .max(200)
    .refine((value) => value === '' || z.email().safeParse(value).success, 'อีเมลไม่ถูกต้อง')
    .default(''),
  facebookUrl: httpsUrl('ลิงก์เพจ Facebook ').default(''),
  lineId: text(60, 'LINE ID').default(''),
  mapUrl: httpsUrl('ลิงก์แผนที่ ').default(''),
  address: text(500, 'ที่อยู่').default(''),
  openingHours: text(200, 'เวลาเปิดทำการ').default(''),
  taxId: z
    .string()
    .trim()
    .refine((value) => value === '' || isValidThaiTaxId(value), 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง (13 หลัก และเลขหลักสุดท้ายต้องตรงตามสูตรตรวจสอบ)')
    .transform(normaliseTaxId)
    .default(''),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

export const bankAccountSchema = z.object({
  bank: text(100, 'ชื่อธนาคาร').min(1, 'กรุณาใส่ชื่อธนาคาร'),
  accountNo: z
    .string()
    .trim()
    .regex(/^[0-9][0-9 -]{5,20}[0-9]$/, 'เลขที่บัญชีไม่ถูกต้อง'),
  accountName: text(150, 'ชื่อบัญชี').min(1, 'กรุณาใส่ชื่อบัญชี'),
  branch: text(100, 'สาขา').default(''),
});

/** PromptPay: a mobile number (10 digits) or a 13-digit citizen / tax id. */
export function isPromptPayId(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^0[689]\d{8}$/.test(digits) || /^\d{13}$/.test(digits);
}

export const paymentSettingsSchema = z
  .object({
    promptpayId: z
      .string()
      .trim()
      .refine((value) => value === '' || isPromptPayId(value), 'พร้อมเพย์ต้องเป็นเบอร์มือถือ 10 หลัก หรือเลขประจำตัว 13 หลัก')
      .transform((value) => value.replace(/[\s-]/g, '')),
    bankAccounts: z.array(bankAccountSchema).max(10, 'บัญชีธนาคารได้ไม่เกิน 10 บัญชี'),
    paymentMethods: z.object({ promptpay: z.boolean(), bankTransfer: z.boolean(), cod: z.boolean() }),
    orderExpiryHours: z.coerce
      .number({ error: 'กรุณาใส่เวลาชำระเงินเป็นชั่วโมง' })
      .int('เวลาชำระเงินต้องเป็นจำนวนเต็มชั่วโมง')
      .min(1, 'เวลาชำระเงินอย่างน้อย 1 ชั่วโมง')
      .max(168, 'เวลาชำระเงินไม่เกิน 168 ชั่วโมง (7 วัน)'),
  })
  .superRefine((value, ctx) => {
    const { promptpay, bankTransfer, cod } = value.paymentMethods;
    if (!promptpay && !bankTransfer && !cod) ctx.addIssue({ code: 'custom', path: ['paymentMethods'], message: 'ต้องเปิดวิธีชำระเงินอย่างน้อย 1 วิธี' });
    if (promptpay && value.promptpayId === '') ctx.addIssue({ code: 'custom', path: ['promptpayId'], message: 'เปิดพร้อมเพย์ต้องใส่หมายเลขพร้อมเพย์' });
    if (bankTransfer && value.bankAccounts.length === 0) ctx.addIssue({ code: 'custom', path: ['bankAccounts'], message: 'เปิดโอนเงินผ่านธนาคารต้องมีบัญชีอย่างน้อย 1 บัญชี' });
  });
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

const bahtAmount = (label: string) =>
  z.coerce
    .number({ error: `${label}ต้องเป็นตัวเลข` })
    .min(0, `${label}ต้องไม่ติดลบ`)
    .max(1_000_000, `${label}สูงเกินไป`)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, `${label}ทศนิยมได้ 2 ตำแหน่ง`)
    .transform((value) => Math.round(value * 100));

export const deliveryOptionSchema = z.object({
  code: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9_-]{0,29}$/, 'กรุณาเลือกขนส่งจากรายการ'),
  name: text(100, 'ชื่อวิธีจัดส่ง').min(1, 'กรุณาใส่ชื่อวิธีจัดส่ง'),
  feeSatang: bahtAmount('ค่าจัดส่ง'),
  days: text(60, 'ระยะเวลาจัดส่ง').default(''),
  trackingUrl: httpsUrl('ลิงก์ติดตามพัสดุ ')
    .refine((value) => value === '' || value.includes('{tracking}'), 'ลิงก์ติดตามพัสดุต้องมี {tracking} ตรงที่ใส่เลขพัสดุ')
    .transform((value) => (value === '' ? null : value)),
});

export const deliverySettingsSchema = z
  .object({
    deliveryOptions: z.array(deliveryOptionSchema).min(1, 'ต้องมีวิธีจัดส่งอย่างน้อย 1 วิธี').max(20, 'วิธีจัดส่งได้ไม่เกิน 20 วิธี'),
    freeShippingMinSatang: z.union([z.literal('').transform(() => null), bahtAmount('ยอดส่งฟรี')]).nullable(),
  })
  .superRefine((value, ctx) => {
    const codes = value.deliveryOptions.map((option) => option.code);
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: 'custom', path: ['deliveryOptions'], message: 'รหัสวิธีจัดส่งซ้ำกัน' });
  });
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

/**
 * issue 29 / issue 32 screen 8: where and when a "รับเองที่หน้าร้าน" order is collected, and after how
 * many days a shipped order nobody confirmed counts as received. Its own small form on the settings page.
 */
export const pickupSettingsSchema = z.object({
  pickupAddress: text(500, 'ที่อยู่สำหรับรับสินค้า').default(''),
  pickupHours: text(200, 'เวลาเปิดให้รับสินค้า').default(''),
  autoDeliverDays: z.coerce
    .number({ error: 'กรุณาใส่จำนวนวันเป็นตัวเลข' })
    .int('จำนวนวันต้องเป็นจำนวนเต็ม')
    .min(1, 'ยืนยันรับสินค้าอัตโนมัติได้เร็วที่สุด 1 วันหลังจัดส่ง')
    .max(60, 'ยืนยันรับสินค้าอัตโนมัติได้ช้าที่สุด 60 วันหลังจัดส่ง'),
});
export type PickupSettings = z.infer<typeof pickupSettingsSchema>;

/**
 * issue 31 part 6: the wrapping options checkout offers and the message card's price (0: free). Rows
 * keep their code, so an order and a checkout page already open still name the same wrapping; a new
 * row gets a free `wrap-N`, and its optional picture is one stored by the picture pipeline
 * (src/server/settings/gift-settings-form.ts).
 */
export const giftWrapOptionSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,29}$/, 'รหัสแบบห่อไม่ถูกต้อง'),
  name: text(80, 'ชื่อแบบห่อ').min(1, 'กรุณาใส่ชื่อแบบห่อ'),
  priceSatang: bahtAmount('ราคาห่อของขวัญ').pipe(z.number().max(100_000, 'ราคาห่อของขวัญไม่เกิน ฿1,000')),
  active: z.boolean(),
  picture: z.string().regex(STORED_PICTURE, 'รูปแบบห่อไม่ถูกต้อง').optional(),
});

export const giftSettingsSchema = z
  .object({
    giftWrapOptions: z.array(giftWrapOptionSchema).max(20, 'แบบห่อของขวัญได้ไม่เกิน 20 แบบ'),
    giftCardPriceSatang: bahtAmount('ราคาการ์ดข้อความ').pipe(z.number().max(100_000, 'ราคาการ์ดข้อความไม่เกิน ฿1,000')),
  })
  .superRefine((value, ctx) => {
    const codes = value.giftWrapOptions.map((option) => option.code);
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: 'custom', path: ['giftWrapOptions'], message: 'รหัสแบบห่อซ้ำกัน' });
  });
export type GiftSettings = z.infer<typeof giftSettingsSchema>;

/** issue 31 part 3: whether new reviews wait for the shop, and the invite mail after delivery (decision 226). */
export const reviewSettingsSchema = z.object({
  reviewsNeedApproval: z.boolean(),
  reviewInvites: z.boolean(),
});
export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;
