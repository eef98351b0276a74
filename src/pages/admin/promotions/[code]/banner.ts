import { auditActor } from '../../../../server/admin/guard';
import { formEndpoint, parseWith } from '../../../../server/admin/content-forms';
import { uploadedBanner } from '../../../../server/promotions/promotion-form';
import { savePromotionBanner } from '../../../../server/promotions/promotion-admin.service';
import { bannerColorSchema } from '../../../../lib/promotion-schemas';

/** Editors keep the home banners (docs/design.md section 10): picture and colour only, never the discount. */
export const POST = formEndpoint(
  'banners',
  async (context, form, staff) => {
    const bannerColor = parseWith(bannerColorSchema, form.get('bannerColor') ?? '');
    const code = context.params.code ?? '';
    await savePromotionBanner(auditActor(staff, context), code, { bannerColor, bannerImage: await uploadedBanner(form) });
    return { to: `/admin/promotions/${encodeURIComponent(code)}`, flash: { kind: 'success', text: 'บันทึกแบนเนอร์แล้ว' } };
  },
  (context) => `/admin/promotions/${encodeURIComponent(context.params.code ?? '')}`,
);
