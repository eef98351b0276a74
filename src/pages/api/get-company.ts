import { endpoint, ok } from '../../server/http/responses';
import { listCompanies } from '../../server/company/company.service';
import { apiCompany } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/get-company/ — `{ data: [company] }`; the first item is the shop configuration. */
export const GET = endpoint(async (context) => {
  const companies = await listCompanies();
  cacheApi(context, ['content']);
  return ok(companies.map(apiCompany));
});
