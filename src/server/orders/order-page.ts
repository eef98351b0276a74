import type { AstroGlobal } from 'astro';
import { requireMemberPage } from '../auth/guard.ts';
import { powersOf } from '../admin/powers.ts';
import { AppError } from '../http/errors.ts';
import { orderNoSchema, type OrderView } from '../../lib/orders.ts';
import { actorFor, getOrder, isStaff } from './order.service.ts';

/**
 * The order of `?no=` for a private order page: the member's own (staff: any), a login redirect for
 * visitors, or a 404 for a malformed, unknown or someone else's order number.
 */
export async function orderForPage(Astro: AstroGlobal): Promise<{ order: OrderView; staff: boolean } | Response> {
  const member = await requireMemberPage(Astro);
  if (member instanceof Response) return member;
  const parsed = orderNoSchema.safeParse((Astro.url.searchParams.get('no') ?? '').toUpperCase());
  if (!parsed.success) return new Response(null, { status: 404 });
  try {
    const powers = await powersOf(member);
    return { order: await getOrder(actorFor(powers), parsed.data), staff: isStaff(powers) };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return new Response(null, { status: 404 });
    throw error;
  }
}
