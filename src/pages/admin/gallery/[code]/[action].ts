import { adminForm, parseWith, textFields } from '../../../../server/admin/forms';
import { notFound } from '../../../../server/http/errors';
import {
  addPictures,
  arrangePictures,
  deleteAlbum,
  moveAlbum,
  movePicture,
  removePicture,
  setCover,
  updateAlbum,
} from '../../../../server/content/gallery-admin.service';
import { albumSchema, captionSchema } from '../../../../lib/gallery-schemas';
import { serialId } from '../../../../lib/row-id';

const pictureId = (form: FormData) => {
  const id = serialId(form.get('pictureId'));
  if (id === null) throw notFound('gallery_picture_not_found', 'ไม่พบรูปนี้ในอัลบั้ม');
  return id;
};
const direction = (form: FormData) => (form.get('direction') === 'up' ? 'up' : 'down');

/** The album page's forms: details, upload, captions and order, move, cover, remove, delete. */
export const POST = adminForm(
  'gallery',
  (context) => `/admin/gallery/${encodeURIComponent(context.params.code ?? '')}`,
  async ({ context, actor, form }) => {
    const code = (context.params.code ?? '').toLowerCase();
    const back = `/admin/gallery/${code}`;
    switch (context.params.action) {
      case 'save':
        await updateAlbum(actor, code, parseWith(albumSchema.omit({ code: true }), textFields(form)));
        return { message: 'บันทึกอัลบั้มแล้ว', redirect: back };
      case 'upload': {
        const files = form.getAll('pictures').filter((file): file is File => file instanceof File && file.size > 0);
        const caption = parseWith(captionSchema, form.get('caption') ?? '');
        const count = await addPictures(actor, code, await Promise.all(files.map(async (file) => ({ bytes: new Uint8Array(await file.arrayBuffer()), caption }))));
        return { message: `เพิ่มรูปแล้ว ${count} รูป`, redirect: back };
      }
      case 'arrange': {
        const ids = form.getAll('pictureId').map(Number);
        const captions = form.getAll('caption');
        const positions = form.getAll('position').map(Number);
        const pictures = ids.map((id, index) => ({
          id,
          caption: parseWith(captionSchema, captions[index] ?? ''),
          position: Number.isFinite(positions[index]) ? (positions[index] as number) : index + 1,
        }));
        await arrangePictures(actor, code, pictures);
        return { message: 'บันทึกลำดับและคำบรรยายแล้ว', redirect: back };
      }
      case 'move':
        await movePicture(actor, code, pictureId(form), direction(form));
        return { message: 'เลื่อนรูปแล้ว', redirect: `${back}#pictures` };
      case 'cover':
        await setCover(actor, code, pictureId(form));
        return { message: 'ตั้งเป็นภาพปกแล้ว', redirect: back };
      case 'remove':
        await removePicture(actor, code, pictureId(form));
        return { message: 'ลบรูปแล้ว', redirect: `${back}#pictures` };
      case 'move-album':
        await moveAlbum(actor, code, direction(form));
        return { message: 'เลื่อนอัลบั้มแล้ว', redirect: '/admin/gallery' };
      case 'delete':
        await deleteAlbum(actor, code);
        return { message: 'ลบอัลบั้มแล้ว', redirect: '/admin/gallery' };
      default:
        throw notFound();
    }
  },
);
