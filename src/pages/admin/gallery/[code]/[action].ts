import { auditActor } from '../../../../server/admin/guard';
import { formEndpoint, parseWith, textFields } from '../../../../server/admin/content-forms';
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

const pictureId = (form: FormData) => {
  const id = Number(form.get('pictureId'));
  if (!Number.isInteger(id) || id <= 0) throw notFound('gallery_picture_not_found', 'ไม่พบรูปนี้ในอัลบั้ม');
  return id;
};
const direction = (form: FormData) => (form.get('direction') === 'up' ? 'up' : 'down');

/** The album page's forms: details, upload, captions and order, move, cover, remove, delete. */
export const POST = formEndpoint(
  'gallery',
  async (context, form, staff) => {
    const code = (context.params.code ?? '').toLowerCase();
    const actor = auditActor(staff, context);
    const back = `/admin/gallery/${code}`;
    switch (context.params.action) {
      case 'save':
        await updateAlbum(actor, code, parseWith(albumSchema.omit({ code: true }), textFields(form)));
        return { to: back, flash: { kind: 'success', text: 'บันทึกอัลบั้มแล้ว' } };
      case 'upload': {
        const files = form.getAll('pictures').filter((file): file is File => file instanceof File && file.size > 0);
        const caption = parseWith(captionSchema, form.get('caption') ?? '');
        const count = await addPictures(actor, code, await Promise.all(files.map(async (file) => ({ bytes: new Uint8Array(await file.arrayBuffer()), caption }))));
        return { to: back, flash: { kind: 'success', text: `เพิ่มรูปแล้ว ${count} รูป` } };
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
        return { to: back, flash: { kind: 'success', text: 'บันทึกลำดับและคำบรรยายแล้ว' } };
      }
      case 'move':
        await movePicture(actor, code, pictureId(form), direction(form));
        return { to: `${back}#pictures`, flash: { kind: 'success', text: 'เลื่อนรูปแล้ว' } };
      case 'cover':
        await setCover(actor, code, pictureId(form));
        return { to: back, flash: { kind: 'success', text: 'ตั้งเป็นภาพปกแล้ว' } };
      case 'remove':
        await removePicture(actor, code, pictureId(form));
        return { to: `${back}#pictures`, flash: { kind: 'success', text: 'ลบรูปแล้ว' } };
      case 'move-album':
        await moveAlbum(actor, code, direction(form));
        return { to: '/admin/gallery', flash: { kind: 'success', text: 'เลื่อนอัลบั้มแล้ว' } };
      case 'delete':
        await deleteAlbum(actor, code);
        return { to: '/admin/gallery', flash: { kind: 'success', text: 'ลบอัลบั้มแล้ว' } };
      default:
        throw notFound();
    }
  },
  (context) => `/admin/gallery/${encodeURIComponent(context.params.code ?? '')}`,
);
