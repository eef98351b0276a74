import { bankLabel } from './thai-banks.ts';

/** What staff and the member see about a slip's QR (docs/design.md section 14). Pure: pages and islands use it. */
export type SlipCheckStatus = 'verified' | 'warning' | 'no_qr';

export const slipCheckLabels: Record<SlipCheckStatus, string> = {
  verified: 'อ่าน QR สลิปได้',
  warning: 'QR สลิปมีข้อควรระวัง',
  no_qr: 'ตรวจสอบด้วยตนเอง',
};

export interface SlipCheckView {
  status: SlipCheckStatus;
  label: string;
  bank: string | null;
  bankLabel: string;
  reference: string | null;
  warning: string | null;
  /** The QR text when it was not a slip-verify payload. */
  payload: string | null;
  /** The amount the QR carries (EMVCo tag 54, as a PromptPay payment QR has), in satang; null when none. */
  amountSatang: number | null;
  checkedAt: string;
}

/**
 * The transaction amount of an EMVCo QR text (top-level tag 54), in satang. Slip-verify QRs carry no
 * amount; a pasted PromptPay payment QR does, and staff compare it with the amount due.
 */
export function qrAmountSatang(payload: string | null | undefined): number | null {
  if (!payload) return null;
  let at = 0;
  while (at + 4 <= payload.length) {
    const tag = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(tag) || !Number.isInteger(length) || at + 4 + length > payload.length) return null;
    const value = payload.slice(at + 4, at + 4 + length);
    if (tag === '54') return /^\d{1,9}(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : null;
    at += 4 + length;
  }
  return null;
}

export function slipCheckView(row: {
  status: SlipCheckStatus;
  bank: string | null;
  reference: string | null;
  warning: string | null;
  payload: string | null;
  checkedAt: Date;
}): SlipCheckView {
  return {
    status: row.status,
    label: slipCheckLabels[row.status],
    bank: row.bank,
    bankLabel: bankLabel(row.bank),
    reference: row.reference,
    warning: row.warning,
    payload: row.payload,
    amountSatang: qrAmountSatang(row.payload),
    checkedAt: row.checkedAt.toISOString(),
  };
}

/** The back office's review-tab filter from the URL (`?slip=no_qr` or `?slip=warning`); null = all. */
export type SlipFilter = 'no_qr' | 'warning';
export const slipFilterLabels: Record<SlipFilter, string> = { no_qr: 'ไม่มี QR (ตรวจสอบด้วยตนเอง)', warning: 'มีคำเตือน' };
export function parseSlipFilter(value: string | null | undefined): SlipFilter | null {
  return value === 'no_qr' || value === 'warning' ? value : null;
}
