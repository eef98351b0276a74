import { auditActor } from '../../../server/admin/guard';
import { formEndpoint, parseWith, textFields } from '../../../server/admin/content-forms';
import { createAlbum } from '../../../server/content/gallery-admin.service';
import { albumSchema } from '../../../lib/gallery-schemas';

export const POST = formEndpoint(
  'gallery',
  async (context, form, staff) => {
    const code = await createAlbum(auditActor(staff, context), parseWith(albumSchema, textFields(form)));
    return { to: `/admin/gallery/${code}`, flash: { kind: 'success', text: 'สร้างอัลบั้มแล้ว เพิ่มรูปได้เลย' } };
  },
  () => '/admin/gallery',
);
