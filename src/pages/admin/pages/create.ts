import { auditActor } from '../../../server/admin/guard';
import { formEndpoint, parseWith, textFields } from '../../../server/admin/content-forms';
import { createPage } from '../../../server/content/pages.service';
import { newPageSchema } from '../../../lib/content-schemas';

export const POST = formEndpoint(
  'pages',
  async (context, form, staff) => {
    const input = parseWith(newPageSchema, textFields(form));
    await createPage(auditActor(staff, context), input);
    return { to: `/admin/pages/${input.slug}`, flash: { kind: 'success', text: 'สร้างหน้าใหม่แล้ว เขียนเนื้อหาแล้วกด เผยแพร่' } };
  },
  () => '/admin/pages',
);
