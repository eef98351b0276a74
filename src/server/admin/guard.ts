import { AppError, forbidden } from '../http/errors.ts';
import { clientIp } from '../http/client.ts';
import { currentMember, type AuthContext, type SessionMember } from '../auth/guard.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { can, type Permission, type Role } from '../../lib/roles.ts';
import { roleOf } from './role.ts';
import { requireTwoFactorForAll } from './staff.service.ts';
import { twoFactorEnabled } from '../auth/two-factor.service.ts';

/**
 * Who may use the back office, enforced on the server for every admin page and endpoint (docs/design.md
 * section 10). A caller without a role gets 404, as if /admin did not exist; a role without the right
 * for this area gets 403.
 */
export interface StaffMember {
  member: SessionMember;
  role: Role;
}

export { roleOf };

export async function currentStaff(context: AuthContext): Promise<StaffMember | null> {
  const member = await currentMember(context);
  if (!member) return null;
  const role = roleOf(member);
  return role ? { member, role } : null;
}

export const adminNotFound = () => new AppError(404, 'not_found', 'ไม่พบหน้าที่ต้องการ');

/** For admin endpoints: the staff member with this permission, or AppError 404 (no role) / 403 (no right). */
export async function requireStaff(context: AuthContext, permission: Permission): Promise<StaffMember> {
  const staff = await currentStaff(context);
  if (!staff) throw adminNotFound();
  if (!can(staff.role, permission)) throw forbidden('บทบาทของคุณไม่มีสิทธิ์ในส่วนนี้ของหลังร้าน');
  if (await twoFactorMissing(staff)) {
    throw new AppError(403, 'two_factor_required', 'เจ้าของร้านกำหนดให้ทีมงานทุกคนเปิดการยืนยันตัวตนสองขั้นตอน กรุณาตั้งค่าที่ /admin/two-step ก่อน');
  }
  return staff;
}

/** The owner requires two-step sign-in for everyone and this person has not set it up yet. */
export async function twoFactorMissing(staff: StaffMember): Promise<boolean> {
  return (await requireTwoFactorForAll()) && !(await twoFactorEnabled(staff.member.id));
}

export interface AdminPageContext extends AuthContext {
  url: URL;
  response: { headers: Headers; status?: number | undefined };
  rewrite(path: string): Promise<Response>;
}

/**
 * For admin pages: the staff member, or the Response to return (the shop's 404 page for callers without a
 * role, the 403 page for a role without this right). Marks the page private and not for search engines.
 */
export async function requireStaffPage(Astro: AdminPageContext, permission: Permission): Promise<StaffMember | Response> {
  Astro.response.headers.set('Cache-Control', 'private, no-store');
  Astro.response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  const staff = await currentStaff(Astro);
  if (!staff) return Astro.rewrite('/404');
  if (!can(staff.role, permission)) return Astro.rewrite('/admin/forbidden');
  if (await twoFactorMissing(staff)) {
    return new Response(null, { status: 302, headers: { Location: '/admin/two-step?required=1', 'Cache-Control': 'private, no-store' } });
  }
  return staff;
}

/** The audit actor for a change made by this staff member through a page or endpoint. */
export function auditActor(staff: StaffMember, context: { request: Request; clientAddress?: string }, via: 'web' | 'api' = 'web'): AuditActor {
  return { id: staff.member.id, email: staff.member.email, role: staff.role, via, ip: clientIp(context) };
}
