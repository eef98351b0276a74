import { z } from 'zod';

/**
 * Limits shared by the client cart store and the quote endpoint, so the store never holds a cart the
 * server would refuse to price.
 */
export const MAX_CART_LINES = 100;
export const MAX_LINE_AMOUNT = 9999;
export const PRODUCT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Body of POST /api/cart/quote. `product_price` is the price the shopper last saw: compared, never charged. */
const badCart = 'ข้อมูลตะกร้าสินค้าไม่ถูกต้อง';

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

export type CartQuoteRequest = z.infer<typeof cartQuoteRequestSchema>;

/** One priced line of a quote, as the endpoint answers it (baht in `*_price`, satang alongside). */
export interface CartQuoteLine {
  product_code: string;
  /** Null when the product is unknown or no longer sold. */
  product_name: string | null;
  product_image: string | null;
  amount: number;
  stock: number;
  unit_price: number;
  unit_price_satang: number;
  retail_price: number;
  retail_price_satang: number;
  line_total: number;
  line_total_satang: number;
  tiers: { min_quantity: number; price: number; price_satang: number }[];
  next_tier: { missing: number; min_quantity: number; price: number; price_satang: number } | null;
  /** The price the client said it showed, echoed for messages; null when none was sent. */
  last_seen_price: number | null;
  price_changed: boolean;
  insufficient_stock: boolean;
  unavailable: boolean;
}

export interface CartQuote {
  lines: CartQuoteLine[];
  /** Σ line totals of the lines that can be bought (unavailable lines count 0). */
  subtotal: number;
  subtotal_satang: number;
  /** True when every line can be ordered as it stands (no unavailable or short line). */
  orderable: boolean;
}
