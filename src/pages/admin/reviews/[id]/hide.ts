import { adminForm } from '../../../../server/admin/forms';
import { hideReview, reviewIdOf } from '../../../../server/reviews/review-moderation.service';

/** ซ่อน with a required reason (เหตุผลที่ซ่อน), which the member sees on their side. */
export const POST = adminForm(
  'reviews',
  () => '/admin/reviews',
  async ({ context, actor, form }) => {
    const id = reviewIdOf(context.params.id);
    await hideReview(actor, id, form.get('reason'));
    return { message: 'ซ่อนรีวิวแล้ว สมาชิกจะเห็นว่ารีวิวถูกซ่อนพร้อมเหตุผล' };
  },
);
