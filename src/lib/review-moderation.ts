import { z } from './zod.ts';

/**
 * The back office's words and limits for reviews (issue 31 part 3), shared by the queue's forms and the
 * server. Pure: no server code.
 */
export type ReviewStatusName = 'pending' | 'published' | 'hidden';
export type ReviewTab = ReviewStatusName | 'all';

export const REVIEW_TABS: readonly { key: ReviewTab; label: string }[] = [
  { key: 'pending', label: 'รอตรวจ' },
  { key: 'published', label: 'เผยแพร่แล้ว' },
  { key: 'hidden', label: 'ซ่อนอยู่' },
  { key: 'all', label: 'ทั้งหมด' },
];

export const REVIEW_STATUS_LABELS: Record<ReviewStatusName, string> = {
  pending: 'รอตรวจ',
  published: 'เผยแพร่แล้ว',
  hidden: 'ซ่อนอยู่',
};

export function parseReviewTab(value: string | null): ReviewTab {
  return REVIEW_TABS.some((tab) => tab.key === value) ? (value as ReviewTab) : 'pending';
}

export const HIDE_REASON_MAX = 300;
export const ANSWER_MAX = 1000;

// Control characters never get this far: the edge refuses them in any form field (decision 141).
export const hideReasonSchema = z
  .string({ error: 'กรุณาระบุเหตุผลที่ซ่อน' })
  .trim()
  .min(1, 'กรุณาระบุเหตุผลที่ซ่อน')
  .max(HIDE_REASON_MAX, `เหตุผลที่ซ่อนยาวเกิน ${HIDE_REASON_MAX} ตัวอักษร`);

/** The shop's public answer; empty removes it. Kept as typed and shown as text, never as HTML. */
export const answerSchema = z
  .string()
  .trim()
  .max(ANSWER_MAX, `คำตอบของร้านยาวเกิน ${ANSWER_MAX.toLocaleString('en-US')} ตัวอักษร`);
