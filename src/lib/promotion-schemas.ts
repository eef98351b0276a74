import { z } from './zod.ts';

/**
 * The promotion form of /admin/promotions (codes and their banners). Times are typed in Thai time
 * (datetime-local, Asia/Bangkok) and kept as instants.
 */
export const BANGKOK_OFFSET = '+07:00';

/** `2026-12-01T09:00` typed in Bangkok → the instant. */
export function bangkokLocalToDate(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value}:00${BANGKOK_OFFSET}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The instant → `2026-12-01T09:00` in Bangkok, for a datetime-local input. */
export function dateToBangkokLocal(date: Date | string): string {
  const shifted = new Date(new Date(date).getTime() + 7 * 3_600_000);
  return shifted.toISOString().slice(0, 16);
}

const localDate = (label: string) =>
  z.string({ error: `กรุณาเลือก${label}` }).transform((value, ctx) => {
    const date = bangkokLocalToDate(value.trim());
    if (!date) {
      ctx.addIssue({ code: 'custom', message: `กรุณาเลือก${label}` });
      return z.NEVER;
    }
    return date;
  });

const optionalBaht = (label: string) =>
  z
    .string()
    .trim()
    .default('')
    .transform((value, ctx) => {
      if (value === '') return null;
      const baht = Number(value);
      if (!Number.isFinite(baht) || baht < 0 || baht > 10_000_000 || Math.abs(baht * 100 - Math.round(baht * 100)) > 1e-6) {
        ctx.addIssue({ code: 'custom', message: `${label}ต้องเป็นจำนวนเงินที่ถูกต้อง (ทศนิยมไม่เกิน 2 ตำแหน่ง)` });
        return z.NEVER;
      }
      return Math.round(baht * 100);
    });

/** A whole number of uses, or empty for no limit. */
const optionalCount = (label: string) =>
  z
    .string()
    .trim()
    .default('')
    .transform((value, ctx) => {
      if (value === '') return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 10_000_000) {
        ctx.addIssue({ code: 'custom', message: `${label}ต้องเป็นจำนวนเต็มตั้งแต่ 1 ขึ้นไป หรือเว้นว่างถ้าไม่จำกัด` });
        return z.NEVER;
      }
      return n;
    });

export const bannerColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'สีแบนเนอร์ต้องเป็นรหัสสีแบบ #RRGGBB')
  .transform((value) => value.toLowerCase());

/**
 * "text over picture" (`over`) or "picture only" (`none`): the banner forms' two choices. Left out (a
 * form from before the choice existed, a script), the promotion keeps what it had; a new one gets text over.
 */
export const bannerTextSchema = z
  .enum(['over', 'none'], { error: 'กรุณาเลือกว่าจะแสดงข้อความบนแบนเนอร์หรือไม่' })
  .optional()
  .transform((value) => (value === undefined ? undefined : value === 'over'));

export const promotionFormSchema = z
  .object({
    code: z
      .string({ error: 'กรุณาใส่โค้ดส่วนลด' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9_-]{2,29}$/, 'โค้ดใช้ตัวอักษรภาษาอังกฤษ ตัวเลข - หรือ _ ยาว 3–30 ตัว'),
    name: z.string({ error: 'กรุณาใส่ชื่อโปรโมชั่น' }).trim().min(1, 'กรุณาใส่ชื่อโปรโมชั่น').max(120, 'ชื่อโปรโมชั่นยาวเกิน 120 ตัวอักษร'),
    description: z.string().trim().max(500, 'คำอธิบายยาวเกิน 500 ตัวอักษร').default(''),
    discountType: z.enum(['percent', 'fixed'], { error: 'กรุณาเลือกชนิดส่วนลด' }),
    discountAmount: z.string().trim().default(''),
    minOrder: optionalBaht('ยอดขั้นต่ำ'),
    maxDiscount: optionalBaht('ส่วนลดสูงสุด'),
    startsAt: localDate('วันเริ่ม'),
    endsAt: localDate('วันสิ้นสุด'),
    usageLimit: optionalCount('จำนวนสิทธิ์'),
    perMemberLimit: optionalCount('จำนวนครั้งต่อคน'),
    firstOrderOnly: z.boolean(),
    active: z.boolean(),
    categoryCodes: z.array(z.string().trim().min(1)).max(200),
    productCodes: z.array(z.string().trim().min(1)).max(500, 'เลือกสินค้าได้ไม่เกิน 500 รายการ'),
    bannerColor: bannerColorSchema,
    bannerTextOver: bannerTextSchema,
  })
  .transform((value, ctx) => {
    const amount = Number(value.discountAmount);
    let discountValue: number;
    if (value.discountType === 'percent') {
      if (!Number.isInteger(amount) || amount < 1 || amount > 100) ctx.addIssue({ code: 'custom', path: ['discountAmount'], message: 'ส่วนลดเปอร์เซ็นต์ต้องเป็นจำนวนเต็ม 1–100' });
      discountValue = amount;
    } else {
      if (!Number.isFinite(amount) || amount <= 0 || amount > 1_000_000 || Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6) {
        ctx.addIssue({ code: 'custom', path: ['discountAmount'], message: 'ส่วนลดเป็นบาทต้องมากกว่า 0 (ทศนิยมไม่เกิน 2 ตำแหน่ง)' });
      }
      discountValue = Math.round(amount * 100);
    }
    if (value.endsAt <= value.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'วันสิ้นสุดต้องหลังวันเริ่ม' });
    const { discountAmount: _amount, minOrder, maxDiscount, ...rest } = value;
    return { ...rest, discountValue, minOrderSatang: minOrder ?? 0, maxDiscountSatang: value.discountType === 'percent' ? maxDiscount : null };
  });
export type PromotionForm = z.output<typeof promotionFormSchema>;

/** Codes typed one per line or separated by commas or spaces. */
export function splitCodes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((code) => code.trim()).filter(Boolean))];
}
