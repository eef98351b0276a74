import { z } from 'zod';
import { requireStaff } from '../../../server/admin/guard';
import { endpoint, ok, readJson } from '../../../server/http/responses';
import { previewPage } from '../../../server/content/pages.service';
import { MAX_PAGE_BODY } from '../../../lib/content-schemas';

/** The editor's live preview: the shop's own renderer and sanitiser, so the preview is what gets published. */
export const POST = endpoint(async (context) => {
  await requireStaff(context, 'pages');
  const { body } = await readJson(context.request, z.object({ body: z.string().max(MAX_PAGE_BODY, 'เนื้อหายาวเกินไป') }));
  return ok({ html: await previewPage(body) }, { headers: { 'Cache-Control': 'no-store' } });
});
