import { z } from 'zod';
import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, readJson } from '../../../../server/http/responses';
import { addToWishlist, wishlistCodes, wishlistOf } from '../../../../server/wishlist/wishlist.service';

/**
 * The member's wishlist (docs/decisions/209). GET answers the products, newest first, with price and
 * stock; `?fields=code` answers the codes only, which is what the hearts of a page read once.
 */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  if (context.url.searchParams.get('fields') === 'code') {
    const codes = await wishlistCodes(member.id);
    return ok(codes.map((code) => ({ code })), { headers: PRIVATE, extra: { total: codes.length } });
  }
  const items = await wishlistOf(member.id);
  return ok(items, { headers: PRIVATE, extra: { total: items.length } });
});

const addSchema = z.object(
  { code: z.string({ error: 'กรุณาระบุรหัสสินค้า' }).trim().min(1, 'กรุณาระบุรหัสสินค้า').max(64, 'ไม่พบสินค้านี้') },
  { error: 'ข้อมูลที่ส่งมาไม่ถูกต้อง' },
);

export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const input = await readJson(context.request, addSchema);
  return ok(await addToWishlist(member.id, input.code), { headers: PRIVATE });
});
