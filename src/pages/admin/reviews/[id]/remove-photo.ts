import { adminForm } from '../../../../server/admin/forms';
import { removeReviewPhoto, reviewIdOf } from '../../../../server/reviews/review-moderation.service';

/** ลบรูปนี้: one photo of the review goes (the field `photo` names its storage key); the rest stays. */
export const POST = adminForm(
  'reviews',
  () => '/admin/reviews',
  async ({ context, actor, form }) => {
    const id = reviewIdOf(context.params.id);
    await removeReviewPhoto(actor, id, form.get('photo'));
    return { message: 'ลบรูปออกจากรีวิวแล้ว' };
  },
);
