import { endpoint } from '../../../server/http/responses';
import { requireStaff } from '../../../server/admin/guard';
import { catalogCsvStream } from '../../../server/catalog-admin/csv-export.service';

/** The whole catalog as CSV, streamed page by page (never built in memory). */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'import');
  const day = new Date().toISOString().slice(0, 10);
  return new Response(catalogCsvStream(), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="products-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
});
