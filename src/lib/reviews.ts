/**
 * Reviews from real buyers (issue 31 part 3, docs/decisions/224): the limits, words and small sums the
 * server, the pages and the product page's script share. Pure: no zod, no server code.
 */
export const MAX_REVIEW_PHOTOS = 3;
export const MAX_REVIEW_BODY = 2000;
export const REVIEWS_PAGE_SIZE = 10;
/** A photo's file as sent (the body limit at the edge is 8 MB for the whole form). */
export const MAX_REVIEW_PHOTO_BYTES = 8 * 1024 * 1024;

export const REVIEW_WORDS = {
  heading: 'รีวิวจากผู้ซื้อ',
  write: 'เขียนรีวิว',
  submit: 'ส่งรีวิว',
  rating: 'คะแนน',
  body: 'รีวิว',
  photos: 'รูปภาพ (ไม่เกิน 3 รูป)',
  more: 'ดูรีวิวเพิ่มเติม',
  reviewed: 'รีวิวแล้ว',
  pending: 'รอร้านตรวจ',
  hidden: 'ซ่อนโดยร้าน',
  none: 'ยังไม่มีรีวิวสำหรับสินค้านี้',
  answer: 'ร้านตอบกลับ',
  thanksPublished: 'ขอบคุณสำหรับรีวิว รีวิวของคุณแสดงบนหน้าสินค้าแล้ว',
  thanksPending: 'ขอบคุณสำหรับรีวิว ร้านจะตรวจก่อนแสดงบนหน้าสินค้า',
} as const;

/** What the member sees of their own review's status. */
export type ReviewState = 'published' | 'pending' | 'hidden';

export function reviewStateWord(state: ReviewState, hiddenReason?: string | null): string {
  if (state === 'pending') return REVIEW_WORDS.pending;
  if (state === 'hidden') return hiddenReason ? `${REVIEW_WORDS.hidden}: ${hiddenReason}` : REVIEW_WORDS.hidden;
  return REVIEW_WORDS.reviewed;
}

/** The average of published reviews to one decimal (4.6), 0 with none. */
export function averageRating(count: number, ratingSum: number): number {
  return count > 0 ? Math.round((ratingSum / count) * 10) / 10 : 0;
}

/** "คะแนน 4.6 จาก 5 จาก 12 รีวิว": the accessible name of a row of stars. */
export function ratingLabel(average: number, count: number): string {
  return `คะแนน ${average.toFixed(1)} จาก 5 จาก ${count.toLocaleString('th-TH')} รีวิว`;
}

/** Five stars as text: a star is filled from three quarters up (4.5 shows four, 4.8 five). */
export function starsText(average: number): string {
  const full = Math.min(5, Math.max(0, Math.floor(average + 0.25)));
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}
