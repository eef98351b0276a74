import { getDb } from '../db/client.ts';
import { AppError, notFound } from '../http/errors.ts';
import { satangToBaht } from '../../lib/money.ts';
import { PRODUCT_CODE_PATTERN } from '../../lib/cart-limits.ts';
import { MAX_WISHLIST, WISHLIST_FULL_MESSAGE, type WishlistItem } from '../../lib/wishlist.ts';
import * as repo from './wishlist.repo.ts';

/**
 * A member's wishlist (docs/decisions/209): hearts on products, per product (not per variant), at most
 * MAX_WISHLIST of them. Adding what is there already and removing what is not are no-ops, so a heart
 * pressed twice in two tabs ends where the shopper meant. Shopper actions, so no audit rows.
 */

export interface WishState {
  code: string;
  wished: boolean;
  /** How many products the member's wishlist holds afterwards. */
  count: number;
}

const productNotFound = () => notFound('product_not_found', 'ไม่พบสินค้านี้');

function checkedCode(code: unknown): string {
  if (typeof code !== 'string' || !PRODUCT_CODE_PATTERN.test(code)) throw productNotFound();
  return code;
}

export async function wishlistOf(memberId: string): Promise<WishlistItem[]> {
  const rows = await repo.listForMember(await getDb(), memberId);
  return rows.map((row) => ({
    code: row.code,
    name: row.name,
    unit: row.unit,
    price: satangToBaht(row.priceSatang),
    price_satang: row.priceSatang,
    stock: row.stock,
    image: row.image,
    available: row.active,
    added_at: row.addedAt.toISOString(),
  }));
}

export async function wishlistCodes(memberId: string): Promise<string[]> {
  return repo.codesForMember(await getDb(), memberId);
}

/** Puts a product on the member's wishlist: a product for sale, and room under the cap (409 otherwise). */
export async function addToWishlist(memberId: string, rawCode: unknown): Promise<WishState> {
  const code = checkedCode(rawCode);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const product = await repo.findProduct(tx, code);
    if (!product || !product.active) throw productNotFound();
    if (!(await repo.lockMember(tx, memberId))) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
    if (!(await repo.has(tx, memberId, product.id))) {
      const count = await repo.countForMember(tx, memberId);
      if (count >= MAX_WISHLIST) throw new AppError(409, 'wishlist_full', WISHLIST_FULL_MESSAGE);
      await repo.insert(tx, memberId, product.id);
    }
    return { code, wished: true, count: await repo.countForMember(tx, memberId) };
  });
}

/** Takes a product off the wishlist; one the shop no longer sells can be taken off too. */
export async function removeFromWishlist(memberId: string, rawCode: unknown): Promise<WishState> {
  const code = checkedCode(rawCode);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const product = await repo.findProduct(tx, code);
    if (!product) throw productNotFound();
    await repo.remove(tx, memberId, product.id);
    return { code, wished: false, count: await repo.countForMember(tx, memberId) };
  });
}

/** How many members keep the product on their wishlist (the back office's product page). */
export async function wishCountOfProduct(productId: number): Promise<number> {
  return repo.countForProduct(await getDb(), productId);
}
