import { adminForm, parseWith, textFields } from '../../../server/admin/forms';
import { createAlbum } from '../../../server/content/gallery-admin.service';
import { albumSchema } from '../../../lib/gallery-schemas';

export const POST = adminForm(
  'gallery',
  () => '/admin/gallery',
  async ({ actor, form }) => {
    const code = await createAlbum(actor, parseWith(albumSchema, textFields(form)));
    return { message: 'สร้างอัลบั้มแล้ว เพิ่มรูปได้เลย', redirect: `/admin/gallery/${code}` };
  },
);
