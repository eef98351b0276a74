import { endpoint, ok } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { storeProductPictures } from '../../../../server/catalog-admin/product-admin.service';
import { readForm } from '../../../../server/http/body-limit';
import { badRequest } from '../../../../server/http/errors';

/**
 * Pictures dropped on the product form are stored at once (checked, cleaned, WebP at a few widths) and
 * come back as what the form keeps: url, width, height, srcset widths. Nothing is attached to a product
 * until the form is saved.
 */
export const POST = endpoint(async (context) => {
  await requireStaff(context, 'catalog');
  const form = await readForm(context.request);
  const files = form.getAll('files').filter((file): file is File => file instanceof File);
  if (files.length === 0) throw badRequest('picture_missing', 'กรุณาเลือกไฟล์รูปภาพ');
  return ok(await storeProductPictures(files));
});
