import { badRequest } from '../http/errors.ts';
import { MAX_REVIEW_PHOTOS } from '../../lib/reviews.ts';

/**
 * The photos of a review form (the API's and the page's without JavaScript): the non-empty files under
 * `photos`. More than MAX_REVIEW_PHOTOS is refused before any is read.
 */
export async function reviewPhotosOf(form: FormData): Promise<Uint8Array[]> {
  const files = form.getAll('photos').filter((entry): entry is File => typeof entry !== 'string' && entry.size > 0);
  if (files.length > MAX_REVIEW_PHOTOS) throw badRequest('review_too_many_photos', `แนบรูปได้ไม่เกิน ${MAX_REVIEW_PHOTOS} รูป`, { photos: `ไม่เกิน ${MAX_REVIEW_PHOTOS} รูป` });
  if (form.getAll('photos').some((entry) => typeof entry === 'string' && entry !== '')) throw badRequest('picture_missing', 'กรุณาเลือกไฟล์รูปภาพ');
  return Promise.all(files.map(async (file) => new Uint8Array(await file.arrayBuffer())));
}
