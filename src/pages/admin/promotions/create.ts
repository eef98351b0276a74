import { auditActor } from '../../../server/admin/guard';
import { formEndpoint } from '../../../server/admin/content-forms';
import { readPromotionForm, uploadedBanner } from '../../../server/promotions/promotion-form';
import { savePromotion } from '../../../server/promotions/promotion-admin.service';

export const POST = formEndpoint(
  'promotions',
  async (context, form, staff) => {
    const input = readPromotionForm(form);
    const code = await savePromotion(auditActor(staff, context), input, { bannerImage: await uploadedBanner(form) });
    return { to: `/admin/promotions/${encodeURIComponent(code)}`, flash: { kind: 'success', text: `สร้างโปรโมชั่น ${code} แล้ว` } };
  },
  () => '/admin/promotions/new',
);
