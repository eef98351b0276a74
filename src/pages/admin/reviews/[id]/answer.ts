import { adminForm } from '../../../../server/admin/forms';
import { answerReview, reviewIdOf } from '../../../../server/reviews/review-moderation.service';

/** ตอบกลับ: the shop's public answer; an empty answer (or `intent=remove`) removes it. */
export const POST = adminForm(
  'reviews',
  () => '/admin/reviews',
  async ({ context, actor, form }) => {
    const id = reviewIdOf(context.params.id);
    const answer = form.get('intent') === 'remove' ? '' : form.get('answer');
    const result = await answerReview(actor, id, answer);
    const message = { saved: 'บันทึกคำตอบของร้านแล้ว', removed: 'ลบคำตอบของร้านแล้ว', unchanged: 'คำตอบของร้านไม่มีการเปลี่ยนแปลง' }[result];
    return { message };
  },
);
