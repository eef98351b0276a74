import { adminForm, parseWith, textFields } from '../../../server/admin/forms';
import { createPage } from '../../../server/content/pages.service';
import { newPageSchema } from '../../../lib/content-schemas';

export const POST = adminForm(
  'pages',
  () => '/admin/pages',
  async ({ actor, form }) => {
    const input = parseWith(newPageSchema, textFields(form));
    await createPage(actor, input);
    return { message: 'สร้างหน้าใหม่แล้ว เขียนเนื้อหาแล้วกด เผยแพร่', redirect: `/admin/pages/${input.slug}` };
  },
);
