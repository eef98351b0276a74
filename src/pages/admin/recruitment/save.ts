import { checkbox, adminForm, parseWith, textFields } from '../../../server/admin/forms';
import { notFound } from '../../../server/http/errors';
import { deleteJob, saveJob } from '../../../server/content/recruitment-admin.service';
import { jobSchema } from '../../../lib/gallery-schemas';
import { serialId } from '../../../lib/row-id';

/** New or changed job post (hidden `id` for a change); `intent=delete` removes it. */
export const POST = adminForm(
  'recruitment',
  (context) => {
    const referer = context.request.headers.get('referer');
    const path = referer ? new URL(referer, context.url).pathname : '';
    return /^\/admin\/recruitment(\/\d+)?$/.test(path) ? path : '/admin/recruitment';
  },
  async ({ actor, form }) => {
    const rawId = form.get('id');
    const id = rawId === null || rawId === '' ? undefined : (serialId(rawId) ?? undefined);
    if (id === undefined && rawId !== null && rawId !== '') throw notFound('job_not_found', 'ไม่พบประกาศนี้');
    if (form.get('intent') === 'delete') {
      if (id === undefined) throw notFound('job_not_found', 'ไม่พบประกาศนี้');
      await deleteJob(actor, id);
      return { message: 'ลบประกาศแล้ว', redirect: '/admin/recruitment' };
    }
    const saved = await saveJob(actor, parseWith(jobSchema, { ...textFields(form), open: checkbox(form, 'open') }), id);
    return { message: id === undefined ? 'เพิ่มประกาศแล้ว' : 'บันทึกประกาศแล้ว', redirect: `/admin/recruitment/${saved}` };
  },
);
