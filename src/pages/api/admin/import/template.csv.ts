import { endpoint } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { templateCsv } from '../../../../server/catalog-admin/csv-export.service';

/** The import template: the header row and two examples, UTF-8 with a BOM so Excel shows Thai. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'import');
  return new Response(await templateCsv(), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="product-import-template.csv"',
      'Cache-Control': 'no-store',
    },
  });
});
