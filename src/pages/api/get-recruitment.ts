import { endpoint, ok } from '../../server/http/responses';
import { listRecruitments } from '../../server/content/content.service';
import { apiRecruitment } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/get-recruitment/ — job posts, open ones first. */
export const GET = endpoint(async (context) => {
  const posts = await listRecruitments();
  cacheApi(context, ['content']);
  return ok(posts.map(apiRecruitment));
});
