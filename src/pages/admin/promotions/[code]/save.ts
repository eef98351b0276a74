import { adminForm } from '../../../../server/admin/forms';
import { readPromotionForm, uploadedBanner } from '../../../../server/promotions/promotion-form';
import { savePromotion } from '../../../../server/promotions/promotion-admin.service';

export const POST = adminForm(
  'promotions',
  (context) => `/admin/promotions/${encodeURIComponent(context.params.code ?? '')}`,
  async ({ context, actor, form }) => {
    const input = readPromotionForm(form);
    const code = await savePromotion(actor, input, { existingCode: context.params.code ?? '', bannerImage: await uploadedBanner(form) });
    return { message: 'บันทึกโปรโมชั่นแล้ว', redirect: `/admin/promotions/${encodeURIComponent(code)}` };
  },
);
