import type { AstroGlobal } from 'astro';
import { requireMemberPage } from '../auth/guard.ts';
import { powersOf } from '../admin/powers.ts';
import { getDb } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import { orderNoSchema, type OrderView } from '../../lib/orders.ts';
import { actorFor, isStaff } from './order-actors.ts';
import { orderView, visibleOrder } from './order-read.ts';

/**
 * The order of `?no=` for a private order page: the member's own (staff: any), a login redirect for
 * visitors, or a 404 for a malformed, unknown or someone else's order number. `own` tells staff looking
 * at a customer's order apart from the customer, for what only the buyer is shown (the full PromptPay id).
 */
export async function orderForPage(Astro: AstroGlobal): Promise<{ order: OrderView; staff: boolean; own: boolean } | Response> {
  const member = await requireMemberPage(Astro);
  if (member instanceof Response) return member;
  const parsed = orderNoSchema.safeParse((Astro.url.searchParams.get('no') ?? '').toUpperCase());
  if (!parsed.success) return new Response(null, { status: 404 });
  try {
    const powers = await powersOf(member);
    const db = await getDb();
    const row = await visibleOrder(db, actorFor(powers), parsed.data);
    return { order: await orderView(db, row), staff: isStaff(powers), own: row.memberId === member.id };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return new Response(null, { status: 404 });
    throw error;
  }
}
