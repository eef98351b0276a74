import { eq, isNull, and } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { receipts, taxInvoices } from '../db/schema.ts';

export type ReceiptRow = typeof receipts.$inferSelect;
export type TaxInvoiceRow = typeof taxInvoices.$inferSelect;

export async function receiptOf(db: DbOrTx, orderId: string): Promise<ReceiptRow | null> {
  const [row] = await db.select().from(receipts).where(eq(receipts.orderId, orderId)).limit(1);
  return row ?? null;
}

export async function insertReceipt(tx: DbOrTx, row: typeof receipts.$inferInsert): Promise<void> {
  await tx.insert(receipts).values(row);
}

export async function taxInvoiceOf(db: DbOrTx, orderId: string): Promise<TaxInvoiceRow | null> {
  const [row] = await db.select().from(taxInvoices).where(eq(taxInvoices.orderId, orderId)).limit(1);
  return row ?? null;
}

/** Saves the buyer's details while no invoice number was given yet; false once the invoice is issued. */
export async function upsertTaxInvoiceRequest(
  tx: DbOrTx,
  orderId: string,
  details: { buyerName: string; buyerAddress: string; buyerTaxId: string; buyerBranch: string },
): Promise<boolean> {
  const existing = await taxInvoiceOf(tx, orderId);
  if (existing?.invoiceNo) return false;
  if (existing) {
    await tx
      .update(taxInvoices)
      .set({ ...details, requestedAt: new Date() })
      .where(and(eq(taxInvoices.orderId, orderId), isNull(taxInvoices.invoiceNo)));
  } else {
    await tx.insert(taxInvoices).values({ orderId, ...details });
  }
  return true;
}

export async function numberTaxInvoice(tx: DbOrTx, orderId: string, invoiceNo: string, at: Date): Promise<void> {
  await tx.update(taxInvoices).set({ invoiceNo, issuedAt: at }).where(eq(taxInvoices.orderId, orderId));
}
