import { requireStaff } from '../../server/admin/guard';
import { readForm } from '../../server/http/body-limit';
import { badRequest } from '../../server/http/errors';
import { endpoint, ok } from '../../server/http/responses';
import { storePicture } from '../../server/storage/images';
import type { Permission } from '../../lib/roles';

/** Which picture folder each back-office area may fill. */
const FOLDERS = { pages: 'pages', banners: 'banners', gallery: 'gallery' } as const satisfies Record<string, Permission>;

/**
 * A picture for the page editor (and other islands that upload one at a time): checked, stripped and
 * stored through the picture pipeline; answers the URL with its size for the Markdown.
 */
export const POST = endpoint(async (context) => {
  const folderName = new URL(context.request.url).searchParams.get('folder') ?? '';
  if (!(folderName in FOLDERS)) {
    await requireStaff(context, 'pages');
    throw badRequest('upload_folder', 'ไม่รู้จักที่เก็บรูปนี้');
  }
  const folder = FOLDERS[folderName as keyof typeof FOLDERS];
  await requireStaff(context, folder);
  const form = await readForm(context.request);
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) throw badRequest('upload_missing', 'กรุณาเลือกไฟล์รูปภาพ');
  const picture = await storePicture(new Uint8Array(await file.arrayBuffer()), folder);
  return ok({ url: picture.url, width: picture.width, height: picture.height, widths: picture.widths }, { headers: { 'Cache-Control': 'no-store' } });
});
