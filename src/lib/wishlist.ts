/**
 * The wishlist's words and limits, shared by the hearts in the browser, the endpoints and the page
 * (docs/decisions/209). No zod and nothing else heavy: the hearts' module loads this.
 */
export const MAX_WISHLIST = 500;
export const WISH_ADD = 'เพิ่มในรายการโปรด';
export const WISH_REMOVE = 'ลบออกจากรายการโปรด';
export const WISHLIST_FULL_MESSAGE = `รายการโปรดเก็บได้ไม่เกิน ${MAX_WISHLIST.toLocaleString('en-US')} รายการ กรุณาลบบางรายการออกก่อน`;

/** One product of a member's wishlist as GET /api/user/wishlist answers it (prices in baht and satang). */
export interface WishlistItem {
  code: string;
  name: string;
  unit: string;
  price: number;
  price_satang: number;
  stock: number;
  image: string | null;
  /** False once the shop stopped selling it: it stays listed, without a link or add to cart. */
  available: boolean;
  added_at: string;
}

/** A heart's accessible name: the word for what a press does, with the product's name on a card. */
export function wishLabel(pressed: boolean, name?: string): string {
  return name ? `${pressed ? WISH_REMOVE : WISH_ADD}: ${name}` : pressed ? WISH_REMOVE : WISH_ADD;
}
