import { adminForm } from '../../../../server/admin/forms';
import { generateVariants } from '../../../../server/catalog-admin/variant-editor.service';
import { parseOptionValues, type OptionInput } from '../../../../lib/variant-options';
import { MAX_OPTIONS } from '../../../../lib/variants';

/**
 * The variant editor's options form (issue 30, docs/decisions/214): up to three option names, each with
 * its values, and "สร้างตัวเลือกทั้งหมด" makes every combination a variant. A row left empty is skipped; values without a name are refused.
 */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const product = text('product').trim();
  const options: OptionInput[] = [];
  for (let index = 0; index < MAX_OPTIONS; index += 1) {
    const name = text(`option_name_${index}`).replace(/\s+/g, ' ').trim();
    const values = text(`option_values_${index}`);
    if (!name && !values.trim()) continue;
    options.push({ name, values: parseOptionValues(values, options.length === 0) });
  }
  const { changed, added, left } = await generateVariants(actor, product, options);
  const back = `/admin/products/${encodeURIComponent(product)}`;
  const addedText = added.length > 0 ? `เพิ่มตัวเลือกใหม่ ${added.length.toLocaleString('th-TH')} รายการ` : 'ไม่มีตัวเลือกใหม่';
  return {
    message: changed > 0 ? `บันทึกตัวเลือกของสินค้า ${product} แล้ว ${addedText}` : `ตัวเลือกของสินค้า ${product} ไม่มีการเปลี่ยนแปลง`,
    kind: left.length > 0 ? 'warning' : 'success',
    details: left.length > 0 ? [`ตัวเลือกที่ไม่อยู่ในรายการแล้ว (ยังไม่ได้ลบ ลบได้จากตารางด้านล่าง): ${left.map((entry) => `${entry.label} (${entry.code})`).join(', ')}`] : [],
    redirect: left.length > 0 ? `${back}?left=${left.map((entry) => encodeURIComponent(entry.code)).join(',')}#variants-heading` : `${back}#variants-heading`,
    data: { changed, added, left },
  };
});
