import { adminForm } from '../../../../server/admin/forms';
import { approveReview, reviewIdOf } from '../../../../server/reviews/review-moderation.service';

/** อนุมัติ: a waiting review goes public. */
export const POST = adminForm(
  'reviews',
  () => '/admin/reviews',
  async ({ context, actor }) => {
    await approveReview(actor, reviewIdOf(context.params.id));
    return { message: 'อนุมัติรีวิวแล้ว รีวิวแสดงในหน้าสินค้าแล้ว' };
  },
);
