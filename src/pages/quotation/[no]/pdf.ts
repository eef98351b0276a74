import { endpoint } from '../../../server/http/responses';
import { requireMember } from '../../../server/auth/guard';
import { quotationPdf } from '../../../server/quotations/quotation.service';
import { pdfResponse } from '../../../server/documents/pdf';
import { quotationNoSchema } from '../../../lib/quotations';

/** The caller's quotation as PDF. */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const no = quotationNoSchema.parse(context.params.no ?? '');
  const { bytes, filename } = await quotationPdf(member.id, no);
  return pdfResponse(bytes, filename);
});
