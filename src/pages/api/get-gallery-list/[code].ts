import { endpoint, ok } from '../../../server/http/responses';
import { galleryByCode } from '../../../server/content/content.service';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';

/** GET /api/get-gallery-list/{gallery_code} — an album's images; 404 if unknown. */
export const GET = endpoint(async (context) => {
  const album = await galleryByCode(decodedParam(context.params.code, 'รหัสอัลบั้มไม่ถูกต้อง'));
  cacheApi(context, ['gallery']);
  return ok(album.images.map((image) => ({ url: image.url, caption: image.caption })));
});
