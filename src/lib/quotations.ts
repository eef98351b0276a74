import { z } from './zod.ts';
import { orderLinesSchema, idempotencyKeySchema, paymentMethodSchema } from './orders.ts';

/** Quotations (ใบเสนอราคา) as both sides see them: request schemas and the view. Pure code. */
export const quotationNoSchema = z.string({ error: 'ไม่พบเลขที่ใบเสนอราคา' }).trim().regex(/^QT\d{4}-\d{6}$/, 'เลขที่ใบเสนอราคาไม่ถูกต้อง');

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).optional().default('');

export const createQuotationSchema = z.object({
  lines: orderLinesSchema,
  delivery_code: z.string({ error: 'กรุณาเลือกวิธีจัดส่ง' }).trim().min(1, 'กรุณาเลือกวิธีจัดส่ง').max(40),
  buyer_name: z.string({ error: 'กรุณากรอกชื่อผู้ขอใบเสนอราคา' }).trim().min(2, 'กรุณากรอกชื่อผู้ขอใบเสนอราคา').max(120, 'ชื่อยาวเกินไป'),
  buyer_company: optionalText(200, 'ชื่อบริษัท/หน่วยงานยาวเกินไป'),
  buyer_address: optionalText(500, 'ที่อยู่ยาวเกินไป'),
  buyer_tax_id: z
    .string()
    .trim()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => value === '' || /^\d{13}$/.test(value), 'เลขประจำตัวผู้เสียภาษีต้องเป็นตัวเลข 13 หลัก')
    .optional()
    .default(''),
  buyer_phone: optionalText(30, 'เบอร์โทรศัพท์ยาวเกินไป'),
});
export type CreateQuotationInput = z.infer<typeof createQuotationSchema>;

export const orderFromQuotationSchema = z.object({
  no: quotationNoSchema,
  address_id: z.uuid({ error: 'กรุณาเลือกที่อยู่จัดส่ง' }),
  payment_method: paymentMethodSchema,
  idempotency_key: idempotencyKeySchema,
});

export interface QuotationLineView {
  productCode: string;
  productName: string;
  unitPriceSatang: number;
  amount: number;
  lineTotalSatang: number;
}

export interface QuotationView {
  quotationNo: string;
  buyerName: string;
  buyerCompany: string;
  buyerAddress: string;
  buyerTaxId: string;
  buyerPhone: string;
  deliveryCode: string;
  deliveryName: string;
  shippingFeeSatang: number;
  subtotalSatang: number;
  totalSatang: number;
  vatSatang: number;
  validUntil: string;
  createdAt: string;
  /** The order placed from it, if any. */
  orderNo: string | null;
  valid: boolean;
  lines: QuotationLineView[];
}
