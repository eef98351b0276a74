import type { AstroGlobal } from 'astro';
import { requireMemberPage } from '../auth/guard.ts';
import { powersOf } from '../admin/powers.ts';
import { getDb } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import { orderNoSchema, type OrderView } from '../../lib/orders.ts';
import { actorFor, isStaff } from './order-actors.ts';
import { orderView, visibleOrder } from './order-read.ts';

/** The shop's not-found page for an order, pointing to the member's list of orders. */
function orderNotFound(Astro: AstroGlobal): Promise<Response> {
  Astro.locals.errorPage = {
    status: 404,
    title: 'ไม่พบคำสั่งซื้อ',
    message: 'ไม่พบคำสั่งซื้อเลขที่นี้ในบัญชีของคุณ ดูคำสั่งซื้อทั้งหมดได้ที่การสั่งซื้อของฉัน',
    way: { href: '/user/purchase', label: 'การสั่งซื้อของฉัน' },
  };
  return Astro.rewrite('/404');
}

/**
 * The order of `?no=` for a private order page: the member's own (staff: any), a login redirect for
 * visitors, My Purchase when no number is given (a bookmark, a shortened link), or the Thai not-found
 * page for a malformed, unknown or someone else's order number. `own` tells staff looking at a
 * customer's order apart from the customer, for what only the buyer is shown (the full PromptPay id).
 */
export async function orderForPage(Astro: AstroGlobal): Promise<{ order: OrderView; staff: boolean; own: boolean } | Response> {
  const member = await requireMemberPage(Astro);
  if (member instanceof Response) return member;
  const no = (Astro.url.searchParams.get('no') ?? '').trim();
  if (no === '') return Astro.redirect('/user/purchase', 303);
  const parsed = orderNoSchema.safeParse(no.toUpperCase());
  if (!parsed.success) return orderNotFound(Astro);
  try {
    const powers = await powersOf(member);
    const db = await getDb();
    const row = await visibleOrder(db, actorFor(powers), parsed.data);
    return { order: await orderView(db, row), staff: isStaff(powers), own: row.memberId === member.id };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return orderNotFound(Astro);
    throw error;
  }
}
