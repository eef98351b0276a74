import { z } from '../../lib/zod.ts';
import { MAX_LINE_AMOUNT, PRODUCT_CODE_PATTERN } from '../../lib/cart-limits.ts';
import { MAX_CART_CHANGES, MEMBER_CART_BAD_QUANTITY, MEMBER_CART_TOO_MANY_CHANGES } from '../../lib/member-cart.ts';

/** Bodies of PATCH /api/user/cart and POST /api/user/cart/merge (docs/design.md section 14). */

const badCart = 'ข้อมูลตะกร้าสินค้าไม่ถูกต้อง';
const code = z.string({ error: 'รหัสสินค้าไม่ถูกต้อง' }).trim().regex(PRODUCT_CODE_PATTERN, 'รหัสสินค้าไม่ถูกต้อง');
const quantity = (min: number) =>
  z.number({ error: MEMBER_CART_BAD_QUANTITY }).int(MEMBER_CART_BAD_QUANTITY).min(min, MEMBER_CART_BAD_QUANTITY).max(MAX_LINE_AMOUNT, MEMBER_CART_BAD_QUANTITY);
// An ISO 8601 time with its zone, as Date.prototype.toISOString writes it.
const changedAt = z.iso.datetime({ offset: true, error: 'เวลาที่แก้ไขตะกร้าไม่ถูกต้อง' });

export const cartChangesSchema = z.object(
  {
    changes: z
      .array(z.object({ code, quantity: quantity(0), updated_at: changedAt }, { error: badCart }), { error: badCart })
      .max(MAX_CART_CHANGES, MEMBER_CART_TOO_MANY_CHANGES),
  },
  { error: badCart },
);

export const cartMergeSchema = z.object(
  {
    items: z
      .array(z.object({ code, quantity: quantity(1) }, { error: badCart }), { error: badCart })
      .max(MAX_CART_CHANGES, MEMBER_CART_TOO_MANY_CHANGES),
  },
  { error: badCart },
);
