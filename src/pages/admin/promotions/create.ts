import { adminForm } from '../../../server/admin/forms';
import { readPromotionForm, uploadedBanner } from '../../../server/promotions/promotion-form';
import { savePromotion } from '../../../server/promotions/promotion-admin.service';

export const POST = adminForm(
  'promotions',
  () => '/admin/promotions/new',
  async ({ actor, form }) => {
    const input = readPromotionForm(form);
    const code = await savePromotion(actor, input, { bannerImage: await uploadedBanner(form) });
    return { message: `สร้างโปรโมชั่น ${code} แล้ว`, redirect: `/admin/promotions/${encodeURIComponent(code)}` };
  },
);
