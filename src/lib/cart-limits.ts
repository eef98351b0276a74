/**
 * Limits and shapes shared by the client cart store and the quote endpoint, so the store never holds a
 * cart the server would refuse to price. No zod here: this module is in every page's cart bundle.
 */
export const MAX_CART_LINES = 100;
export const MAX_LINE_AMOUNT = 9999;
export const PRODUCT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Body of POST /api/cart/quote (the zod schema is in cart-quote-schema.ts, kept out of client bundles). */
export interface CartQuoteRequest {
  items: { product_code: string; amount: number; product_price?: number }[];
}

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
  /** Σ line totals of the lines that can be bought (unavailable and sold-out lines count 0). */
  subtotal: number;
  subtotal_satang: number;
  /** True when every line can be ordered as it stands (no unavailable or short line). */
  orderable: boolean;
}
