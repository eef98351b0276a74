import { z } from './zod.ts';
import { emailField } from './account-schemas.ts';
import { BACK_IN_STOCK } from './back-in-stock.ts';

// Back-in-stock requests (docs/decisions/220): what the endpoints accept.

/** A variant's code, as cart lines and product paths take it. */
export const variantCodeField = z
  .string({ error: 'กรุณาระบุรหัสสินค้า' })
  .trim()
  .min(1, 'กรุณาระบุรหัสสินค้า')
  .max(64, BACK_IN_STOCK.notFound)
  .regex(/^[A-Za-z0-9_-]+$/, BACK_IN_STOCK.notFound);

export const backInStockMemberSchema = z.object({ variant: variantCodeField }, { error: 'ข้อมูลที่ส่งมาไม่ถูกต้อง' });

export const backInStockVisitorSchema = z.object({ variant: variantCodeField, email: emailField }, { error: 'ข้อมูลที่ส่งมาไม่ถูกต้อง' });
