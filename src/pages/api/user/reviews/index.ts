import { requireMember } from '../../../../server/auth/guard';
import { badRequest } from '../../../../server/http/errors';
import { clientIp } from '../../../../server/http/client';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok } from '../../../../server/http/responses';
import { reviewsOfMember } from '../../../../server/reviews/review-read.service';
import { writeReview } from '../../../../server/reviews/review-write.service';
import { reviewPhotosOf } from '../../../../server/reviews/review-form';

/** The member's own reviews, newest first, with their status (and the shop's reason for a hidden one). */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const reviews = await reviewsOfMember(member.id);
  return ok(reviews, { headers: PRIVATE, extra: { total: reviews.length } });
});

/**
 * Writes a review of one of the member's delivered order lines (docs/decisions/224). Multipart:
 * `line`, `rating` (1–5), `body` (optional), `photos` (up to three files).
 */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  let form: FormData;
  try {
    form = await context.request.formData();
  } catch {
    throw badRequest('invalid_form', 'ข้อมูลรีวิวไม่ถูกต้อง กรุณาลองใหม่อีกครั้ง');
  }
  const written = await writeReview(
    member,
    { line: form.get('line'), rating: form.get('rating'), body: form.get('body') ?? '', photos: await reviewPhotosOf(form) },
    { ip: clientIp(context) },
  );
  return ok(written, { status: 201, headers: PRIVATE });
});
