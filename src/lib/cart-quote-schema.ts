import { z } from './zod.ts';
import { MAX_CART_LINES, MAX_LINE_AMOUNT, PRODUCT_CODE_PATTERN } from './cart-limits.ts';

const badCart = 'ข้อมูลตะกร้าสินค้าไม่ถูกต้อง';

/** Body of POST /api/cart/quote. `product_price` is the price the shopper last saw: compared, never charged. */
export const cartQuoteRequestSchema = z.object(
  {
    items: z
      .array(
        z.object(
          {
            product_code: z.string({ error: 'รหัสสินค้าไม่ถูกต้อง' }).trim().regex(PRODUCT_CODE_PATTERN, 'รหัสสินค้าไม่ถูกต้อง'),
            amount: z
              .number({ error: 'จำนวนสินค้าต้องเป็นตัวเลข' })
              .int('จำนวนสินค้าต้องเป็นจำนวนเต็ม')
              .min(1, 'จำนวนสินค้าต้องมีอย่างน้อย 1 ชิ้น')
              .max(MAX_LINE_AMOUNT, `สั่งซื้อได้ไม่เกิน ${MAX_LINE_AMOUNT} ชิ้นต่อรายการ`),
            product_price: z
              .number({ error: 'ราคาสินค้าไม่ถูกต้อง' })
              .min(0, 'ราคาสินค้าไม่ถูกต้อง')
              .max(10_000_000, 'ราคาสินค้าไม่ถูกต้อง')
              .optional(),
          },
          { error: badCart },
        ),
        { error: badCart },
      )
      .max(MAX_CART_LINES, `ตะกร้าสินค้ามีได้ไม่เกิน ${MAX_CART_LINES} รายการ`),
  },
  { error: badCart },
);

