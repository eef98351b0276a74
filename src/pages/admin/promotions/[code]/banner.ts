import { adminForm, parseWith } from '../../../../server/admin/forms';
import { uploadedBanner } from '../../../../server/promotions/promotion-form';
import { savePromotionBanner } from '../../../../server/promotions/promotion-admin.service';
import { bannerColorSchema, bannerTextSchema } from '../../../../lib/promotion-schemas';

/** Editors keep the home banners (docs/design.md section 10): picture and colour only, never the discount. */
export const POST = adminForm(
  'banners',
  (context) => `/admin/promotions/${encodeURIComponent(context.params.code ?? '')}`,
  async ({ context, actor, form }) => {
    const bannerColor = parseWith(bannerColorSchema, form.get('bannerColor') ?? '');
    const text = form.get('bannerText');
    const bannerTextOver = parseWith(bannerTextSchema, typeof text === 'string' && text !== '' ? text : undefined);
    const code = context.params.code ?? '';
    await savePromotionBanner(actor, code, { bannerColor, bannerTextOver, bannerImage: await uploadedBanner(form) });
    return { message: 'บันทึกแบนเนอร์แล้ว', redirect: `/admin/promotions/${encodeURIComponent(code)}` };
  },
);
