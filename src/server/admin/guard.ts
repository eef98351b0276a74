import { AppError, forbidden } from '../http/errors.ts';
import { clientIp } from '../http/client.ts';
import type { AuthContext, SessionMember } from '../auth/guard.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { can, type Permission, type Role } from '../../lib/roles.ts';
import { currentPowers } from './powers.ts';

/**
 * Who may use the back office, enforced on the server for every admin page and endpoint (docs/design.md
 * section 10). A caller without a role gets 404, as if /admin did not exist; a role without the right
 * for this area gets 403. Roles come from currentPowers (powers.ts), the one answer for the whole shop.
 */
export interface StaffMember {
  member: SessionMember;
  role: Role;
}

/**
 * The role this member holds, in force or not: only for the pages a role without the required two-step
 * must still reach (`/admin/two-step` to set it up, the "forbidden" page). Powers come from requireStaff.
 */
export async function currentStaff(context: AuthContext): Promise<StaffMember | null> {
  const powers = await currentPowers(context);
  return powers?.heldRole ? { member: powers.member, role: powers.heldRole } : null;
}

/** The staff member whose role is in force, or why not: no role (404), no right (403), two-step missing. */
async function staffWith(context: AuthContext, permission: Permission): Promise<StaffMember | 'no_role' | 'no_right' | 'two_factor_missing'> {
  const powers = await currentPowers(context);
  if (!powers?.heldRole) return 'no_role';
  if (!can(powers.heldRole, permission)) return 'no_right';
  if (!powers.role) return 'two_factor_missing';
  return { member: powers.member, role: powers.role };
}

export const adminNotFound = () => new AppError(404, 'not_found', 'ไม่พบหน้าที่ต้องการ');

/** For admin endpoints: the staff member with this permission, or AppError 404 (no role) / 403 (no right). */
export async function requireStaff(context: AuthContext, permission: Permission): Promise<StaffMember> {
  const staff = await staffWith(context, permission);
  if (staff === 'no_role') throw adminNotFound();
  if (staff === 'no_right') throw forbidden('บทบาทของคุณไม่มีสิทธิ์ในส่วนนี้ของหลังร้าน');
  if (staff === 'two_factor_missing') {
    throw new AppError(403, 'two_factor_required', 'เจ้าของร้านกำหนดให้ทีมงานทุกคนเปิดการยืนยันตัวตนสองขั้นตอน กรุณาตั้งค่าที่ /admin/two-step ก่อน');
  }
  return staff;
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
  const staff = await staffWith(Astro, permission);
  if (staff === 'no_role') return Astro.rewrite('/404');
  if (staff === 'no_right') return Astro.rewrite('/admin/forbidden');
  if (staff === 'two_factor_missing') {
    return new Response(null, { status: 302, headers: { Location: '/admin/two-step?required=1', 'Cache-Control': 'private, no-store' } });
  }
  return staff;
}

/** The audit actor for a change made by this staff member through a page or endpoint. */
export function auditActor(staff: StaffMember, context: { request: Request; clientAddress?: string }, via: 'web' | 'api' = 'web'): AuditActor {
  return { id: staff.member.id, email: staff.member.email, role: staff.role, via, ip: clientIp(context) };
}
