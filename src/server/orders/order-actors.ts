import { roleOf } from '../admin/guard.ts';
import { can } from '../../lib/roles.ts';
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

/** Staff for orders: a back-office role with the orders right (owner, staff; SHOP_ADMIN_EMAILS count as staff). */
export function isStaff(member: OrderMember): boolean {
  return can(roleOf(member), 'orders');
}

export function actorFor(member: OrderMember): Actor {
  return { type: isStaff(member) ? 'staff' : 'member', id: member.id };
}
