import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { quotations } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/** What the placement transaction needs from a quotation: its id, its unit prices, its delivery fee. */
export interface QuotedPrices {
  id: string;
  /** Unit price in satang by product code, as quoted. */
  prices: ReadonlyMap<string, number>;
  shippingFeeSatang: number;
}

/** Sets each priced line to the quoted unit price (the shop's price may have changed since). */
export function applyQuotedPrices(
  quotation: QuotedPrices,
  priced: { product: { code: string }; amount: number; unitPriceSatang: number; lineTotalSatang: number }[],
): void {
  for (const line of priced) {
    const quoted = quotation.prices.get(line.product.code);
    if (quoted === undefined) throw conflict('quotation_mismatch', 'รายการสินค้าไม่ตรงกับใบเสนอราคา');
    line.unitPriceSatang = quoted;
    line.lineTotalSatang = quoted * line.amount;
  }
}

/**
 * Ties the quotation to the order in the placement transaction. The update only takes a quotation not
 * yet ordered: two orders from one quotation at the same moment cannot both pass.
 */
export async function markQuotationOrdered(tx: DbOrTx, quotationId: string, orderId: string): Promise<void> {
  const rows = await tx
    .update(quotations)
    .set({ orderId })
    .where(and(eq(quotations.id, quotationId), isNull(quotations.orderId)))
    .returning({ id: quotations.id });
  if (rows.length === 0) throw conflict('quotation_used', 'ใบเสนอราคานี้ถูกใช้สั่งซื้อไปแล้ว');
}
