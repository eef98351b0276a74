import { MAX_CART_LINES, MAX_LINE_AMOUNT } from './cart-limits.ts';

/**
 * The saved cart of a member (docs/decisions/218): the shapes of /api/user/cart and the Thai words the
 * endpoints and the cart sync in the browser share. No zod here: the browser's sync module loads this.
 */

/** How many changes one PATCH (and how many lines one merge) may carry: every line twice over. */
export const MAX_CART_CHANGES = MAX_CART_LINES * 2;
/** Removals are kept this long, so an older change still offline somewhere cannot bring a line back. */
export const CART_TOMBSTONE_DAYS = 30;

export const MEMBER_CART_FULL_MESSAGE = `ตะกร้าสินค้ามีได้ไม่เกิน ${MAX_CART_LINES} รายการ`;
export const MEMBER_CART_TOO_MANY_CHANGES = `ส่งการเปลี่ยนแปลงตะกร้าได้ครั้งละไม่เกิน ${MAX_CART_CHANGES} รายการ`;
export const MEMBER_CART_BAD_QUANTITY = `จำนวนสินค้าต้องเป็นจำนวนเต็มตั้งแต่ 0 ถึง ${MAX_LINE_AMOUNT}`;

/** One change of a line: quantity 0 removes it. `updated_at` is when the shopper made it (ISO 8601). */
export interface MemberCartChange {
  code: string;
  quantity: number;
  updated_at: string;
}

/** One line of the saved cart as the endpoints answer it, with what the cart shows about its variant. */
export interface MemberCartLine {
  code: string;
  quantity: number;
  updated_at: string;
  name: string;
  image: string | null;
  stock: number;
  unit_price: number;
  retail_price: number;
  tiers: { min_quantity: number; price: number }[];
}

/** A line the server did not keep or does not show: an unknown or withdrawn variant, or no room left. */
export interface MemberCartDropped {
  code: string;
  reason: 'unavailable' | 'full';
}

export interface MemberCart {
  lines: MemberCartLine[];
  dropped: MemberCartDropped[];
  /** A Thai sentence about the dropped lines, or null when none was dropped. */
  note: string | null;
}

export interface MemberCartMerge extends MemberCart {
  /** Lines this device gained from the account (new, or a larger amount). */
  from_account: number;
  /** Lines the account gained from this device. */
  from_device: number;
  /** What the shopper is told about the merge, or null when nothing moved. */
  merge_note: string | null;
}

export function droppedNote(dropped: readonly MemberCartDropped[]): string | null {
  if (dropped.length === 0) return null;
  const unavailable = dropped.filter((line) => line.reason === 'unavailable').map((line) => line.code);
  const full = dropped.filter((line) => line.reason === 'full').map((line) => line.code);
  const parts: string[] = [];
  if (unavailable.length > 0) parts.push(`สินค้าที่ไม่มีจำหน่ายแล้วไม่ได้บันทึกในตะกร้าของบัญชี: ${unavailable.join(', ')}`);
  if (full.length > 0) parts.push(`${MEMBER_CART_FULL_MESSAGE} จึงไม่ได้บันทึก: ${full.join(', ')}`);
  return parts.join(' · ');
}

/** "รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 2 รายการ", and what this device added to the account. */
export function mergeNote(fromAccount: number, fromDevice: number): string | null {
  const parts: string[] = [];
  if (fromAccount > 0) parts.push(`รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม ${fromAccount} รายการ`);
  if (fromDevice > 0) parts.push(`บันทึกสินค้าในตะกร้าของเครื่องนี้ไว้กับบัญชีของคุณ ${fromDevice} รายการ`);
  return parts.length > 0 ? parts.join(' · ') : null;
}
