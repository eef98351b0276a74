import { endpoint, ok, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { createQuotation, listQuotations } from '../../server/quotations/quotation.service';
import { quotationJson } from '../../server/quotations/quotation-json';
import { createQuotationSchema } from '../../lib/quotations';

/** A quotation from the cart's lines, priced by the server (201). */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, createQuotationSchema);
  const quotation = await createQuotation(member.id, body);
  return ok(quotationJson(quotation), { status: 201, headers: { 'Cache-Control': 'private, no-store' } });
});

/** The caller's quotations, newest first. */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const list = await listQuotations(member.id);
  return ok(list.map(quotationJson), { headers: { 'Cache-Control': 'private, no-store' } });
});
