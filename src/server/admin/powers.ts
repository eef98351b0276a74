import { currentMember, type AuthContext, type SessionMember } from '../auth/guard.ts';
import { unauthorized } from '../http/errors.ts';
import { twoFactorEnabled } from '../auth/two-factor.service.ts';
import { requireTwoFactorForAll } from './staff.service.ts';
import { roleOf } from './role.ts';
import { can, type Permission, type Role } from '../../lib/roles.ts';

/**
 * What the signed-in member may do right now: the one answer behind every grant of a role's powers, in
 * the back office and in the member API alike (orders, slips, receipts, tax invoices, status changes),
 * for roles from scopes and for SHOP_ADMIN_EMAILS staff (docs/decisions/171-one-answer-for-staff-powers.md).
 *
 * A role is in force only while its holder meets the back-office rules:
 * - two-step sign-in: when the owner requires it for the whole team, a role held without it is not in
 *   force, and its holder is a plain member everywhere but `/admin/two-step`;
 * - the idle timeout: a session of someone with a role ends after 8 hours without use when it is resolved
 *   (session.service.ts, STAFF_IDLE_MS), so such a caller reaches here with no session at all.
 */
export interface MemberPowers {
  member: SessionMember;
  /** The role in force: null for a member without one, and for a role held without the required two-step. */
  role: Role | null;
  /** The role the account holds, in force or not: for the two-step setup page and the "forbidden" page only. */
  heldRole: Role | null;
  /** The owner requires two-step sign-in for the whole team and this person holds a role without it. */
  twoFactorMissing: boolean;
}

export async function powersOf(member: SessionMember): Promise<MemberPowers> {
  const heldRole = roleOf(member);
  // Members without a role, most callers, cost no database read here.
  const twoFactorMissing = heldRole !== null && (await requireTwoFactorForAll()) && !(await twoFactorEnabled(member.id));
  return { member, role: twoFactorMissing ? null : heldRole, heldRole, twoFactorMissing };
}

// One answer per request, however many guards and helpers ask.
const answered = new WeakMap<Request, Promise<MemberPowers | null>>();

/** The powers of this request's signed-in member, or null for a visitor (or a session that idled out). */
export function currentPowers(context: AuthContext): Promise<MemberPowers | null> {
  let pending = answered.get(context.request);
  if (!pending) {
    pending = currentMember(context).then((member) => (member ? powersOf(member) : null));
    answered.set(context.request, pending);
  }
  return pending;
}

/** For member endpoints: the caller's powers, or AppError 401 for a visitor. */
export async function requirePowers(context: AuthContext): Promise<MemberPowers> {
  const powers = await currentPowers(context);
  if (!powers) throw unauthorized();
  return powers;
}

/** Whether the role in force (never a role merely held) gives this permission. */
export function may(powers: Pick<MemberPowers, 'role'> | null, permission: Permission): boolean {
  return can(powers?.role, permission);
}
