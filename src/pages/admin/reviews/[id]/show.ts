import { adminForm } from '../../../../server/admin/forms';
import { reviewIdOf, showReview } from '../../../../server/reviews/review-moderation.service';

/** แสดงอีกครั้ง: a hidden review is published again. */
export const POST = adminForm(
  'reviews',
  () => '/admin/reviews',
  async ({ context, actor }) => {
    await showReview(actor, reviewIdOf(context.params.id));
    return { message: 'แสดงรีวิวอีกครั้งแล้ว' };
  },
);
