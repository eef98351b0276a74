import { may, type MemberPowers } from '../admin/powers.ts';
import type { ActorType } from '../../lib/orders.ts';

/** Who acts on an order: members, staff (a back-office role with the orders right) and the system. */

/** Who asks: a member (only their own orders), staff (any order) or the system (expiry). */
export interface Actor {
  type: ActorType;
  id: string | null;
}

export interface OrderMember {
  id: string;
  email: string;
  scopes: string[];
}

/**
 * Staff for orders: a role with the orders right that is in force now (owner, staff; SHOP_ADMIN_EMAILS
 * count as staff). From powers, never from the role alone: a role held without the two-step sign-in the
 * owner requires is a plain member here too (powers.ts).
 */
export function isStaff(powers: Pick<MemberPowers, 'role'>): boolean {
  return may(powers, 'orders');
}

export function actorFor(powers: Pick<MemberPowers, 'member' | 'role'>): Actor {
  return { type: isStaff(powers) ? 'staff' : 'member', id: powers.member.id };
}
