import { endpoint, ok } from '../../server/http/responses';
import { listGalleries } from '../../server/content/content.service';
import { apiGallery } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/get-gallery/ — albums. */
export const GET = endpoint(async (context) => {
  const albums = await listGalleries();
  cacheApi(context, ['gallery']);
  return ok(albums.map(apiGallery));
});
