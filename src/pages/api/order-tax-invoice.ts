import { z } from 'zod';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { requestTaxInvoice } from '../../server/documents/receipt.service';
import { orderNoSchema } from '../../lib/orders';
import { taxInvoiceRequestSchema } from '../../lib/documents';

const schema = z.object({ no: orderNoSchema, tax_invoice: taxInvoiceRequestSchema });

/** A member asks for a full tax invoice for their order (issued at once when already paid). */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, schema);
  const documents = await requestTaxInvoice(member.id, body.no, body.tax_invoice);
  const no = encodeURIComponent(body.no);
  return ok(
    {
      receipt_no: documents.receiptNo,
      tax_invoice_no: documents.taxInvoice?.invoiceNo ?? null,
      tax_invoice_url: documents.taxInvoice?.invoiceNo ? `/order/tax-invoice.pdf?no=${no}` : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
});
