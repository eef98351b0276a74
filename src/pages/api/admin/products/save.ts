import { adminForm } from '../../../../server/admin/forms';
import { productInputFromForm, saveProduct, storeProductPictures } from '../../../../server/catalog-admin/product-admin.service';

/**
 * The product form (new and edit). Pictures usually arrive already stored (the picture island uploads
 * them as they are dropped); without JavaScript they come with the form as files and are stored here.
 */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const files = form.getAll('files').filter((file): file is File => file instanceof File && file.size > 0);
  for (const picture of await storeProductPictures(files)) {
    form.append('picture_url', picture.url);
    form.append('picture_alt', '');
    form.append('picture_width', String(picture.width));
    form.append('picture_height', String(picture.height));
  }
  const originalCode = typeof form.get('original_code') === 'string' && form.get('original_code') !== '' ? (form.get('original_code') as string) : null;
  const input = productInputFromForm(form);
  const saved = await saveProduct(actor, originalCode, input);
  const location = `/admin/products/${encodeURIComponent(saved.code)}`;
  return { message: saved.created ? `เพิ่มสินค้า ${saved.code} แล้ว` : `บันทึกสินค้า ${saved.code} แล้ว`, redirect: location, data: { code: saved.code, created: saved.created, location } };
});
