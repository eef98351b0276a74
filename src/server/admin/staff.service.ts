import { asc, eq, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { backOfficePolicy, members } from '../db/schema.ts';
import { env } from '../env.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { verifyPassword } from '../auth/password.ts';
import { clear, ensureBelow, hit, LIMITS } from '../security/rate-limit.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { isRole, roleFromScopes, ROLES, type Role } from '../../lib/roles.ts';

/**
 * Roles (docs/design.md section 10): only an owner grants and removes them, after typing their password
 * again, and the shop always keeps at least one owner. Role scopes are replaced, never stacked: a
 * member holds one role.
 */
const ROLE_SCOPES = [...ROLES, 'admin'];

export interface StaffRow {
  id: string | null;
  name: string;
  email: string;
  role: Role;
  /** Staff only because their email is in SHOP_ADMIN_EMAILS: changed in the configuration, not here. */
  fromConfig: boolean;
  twoFactor: boolean;
}

export async function listStaff(): Promise<StaffRow[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      email: members.email,
      scopes: members.scopes,
      twoFactor: sql<boolean>`exists (select 1 from member_two_factor t where t.member_id = ${members.id} and t.enabled_at is not null)`,
    })
    .from(members)
    .where(sql`${members.scopes} && ${sql.raw(`ARRAY[${ROLE_SCOPES.map((scope) => `'${scope}'`).join(',')}]::text[]`)}`)
    .orderBy(asc(members.email));
  const configured = env()
    .SHOP_ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  const listed: StaffRow[] = rows.map((row) => ({
    id: row.id,
    name: `${row.firstName} ${row.lastName}`.trim(),
    email: row.email,
    role: roleFromScopes(row.scopes) ?? 'staff',
    fromConfig: false,
    twoFactor: Boolean(row.twoFactor),
  }));
  for (const email of configured) {
    if (!listed.some((row) => row.email.toLowerCase() === email)) {
      listed.push({ id: null, name: '', email, role: 'staff', fromConfig: true, twoFactor: false });
    }
  }
  return listed;
}

/** The owner's password again before roles change: a session left open on a shop counter is not enough. */
export async function confirmPassword(memberId: string, password: string): Promise<void> {
  await ensureBelow(LIMITS.passwordChangeFail, memberId);
  const db = await getDb();
  const [row] = await db.select({ hash: members.passwordHash }).from(members).where(eq(members.id, memberId)).limit(1);
  if (!row || !password || !(await verifyPassword(row.hash, password))) {
    await hit(LIMITS.passwordChangeFail, memberId);
    throw new AppError(400, 'wrong_password', 'รหัสผ่านไม่ถูกต้อง กรุณากรอกรหัสผ่านของคุณอีกครั้ง', { password: 'รหัสผ่านไม่ถูกต้อง' });
  }
  await clear(LIMITS.passwordChangeFail, memberId);
}

/** Locks every owner row (id order, so two owners acting at once queue instead of deadlocking). */
async function lockOwners(tx: DbOrTx): Promise<string[]> {
  const rows = await tx
    .select({ id: members.id })
    .from(members)
    .where(sql`'owner' = any(${members.scopes})`)
    .orderBy(asc(members.id))
    .for('update');
  return rows.map((row) => row.id);
}

function withRole(scopes: readonly string[], role: Role | null): string[] {
  const kept = scopes.filter((scope) => !ROLE_SCOPES.includes(scope));
  return role ? [...kept, role] : kept;
}

/**
 * Gives the member with this email a role (replacing any other). Changing the last owner into
 * something else is refused.
 */
export async function grantRole(actor: AuditActor, input: { email: string; role: string }): Promise<{ email: string; role: Role }> {
  if (!isRole(input.role)) throw badRequest('role_invalid', 'กรุณาเลือกบทบาท', { role: 'กรุณาเลือกบทบาท' });
  const role = input.role;
  const email = input.email.trim().toLowerCase();
  if (!email) throw badRequest('email_required', 'กรุณากรอกอีเมลของสมาชิก', { email: 'กรุณากรอกอีเมลของสมาชิก' });
  const db = await getDb();
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx);
    const [target] = await tx
      .select({ id: members.id, email: members.email, scopes: members.scopes })
      .from(members)
      .where(sql`lower(${members.email}) = ${email}`)
      .limit(1)
      .for('update');
    if (!target) throw notFound('member_not_found', `ไม่พบสมาชิกที่ใช้อีเมล ${email} (ต้องสมัครสมาชิกก่อน)`);
    const before = roleFromScopes(target.scopes);
    if (before === 'owner' && role !== 'owner' && owners.length <= 1) {
      throw conflict('last_owner', 'ร้านต้องมีเจ้าของร้านอย่างน้อย 1 คน จึงเปลี่ยนบทบาทของเจ้าของร้านคนสุดท้ายไม่ได้');
    }
    const scopes = withRole(target.scopes, role);
    await tx.update(members).set({ scopes, updatedAt: sql`now()` }).where(eq(members.id, target.id));
    await recordAudit(tx, actor, {
      action: 'staff.grant',
      entityType: 'member',
      entityId: target.id,
      before: { email: target.email, role: before },
      after: { email: target.email, role },
    });
    return { email: target.email, role };
  });
}

/** Takes every back-office role from a member; the last owner keeps theirs. */
export async function removeRole(actor: AuditActor, memberId: string): Promise<{ email: string }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(memberId)) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx);
    const [target] = await tx
      .select({ id: members.id, email: members.email, scopes: members.scopes })
      .from(members)
      .where(eq(members.id, memberId))
      .limit(1)
      .for('update');
    if (!target) throw notFound('member_not_found', 'ไม่พบสมาชิกนี้');
    const before = roleFromScopes(target.scopes);
    if (!before) throw conflict('no_role', 'สมาชิกนี้ไม่มีบทบาทในหลังร้านแล้ว');
    if (before === 'owner' && owners.length <= 1) {
      throw conflict('last_owner', 'ร้านต้องมีเจ้าของร้านอย่างน้อย 1 คน จึงนำสิทธิ์ของเจ้าของร้านคนสุดท้ายออกไม่ได้');
    }
    await tx.update(members).set({ scopes: withRole(target.scopes, null), updatedAt: sql`now()` }).where(eq(members.id, target.id));
    await recordAudit(tx, actor, {
      action: 'staff.revoke',
      entityType: 'member',
      entityId: target.id,
      before: { email: target.email, role: before },
      after: { email: target.email, role: null },
    });
    return { email: target.email };
  });
}

export async function requireTwoFactorForAll(db?: DbOrTx): Promise<boolean> {
  const handle = db ?? (await getDb());
  const [row] = await handle.select({ value: backOfficePolicy.requireTwoFactor }).from(backOfficePolicy).where(eq(backOfficePolicy.id, 1)).limit(1);
  return row?.value ?? false;
}

export async function setRequireTwoFactor(actor: AuditActor, value: boolean): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const before = await requireTwoFactorForAll(tx);
    await tx
      .insert(backOfficePolicy)
      .values({ id: 1, requireTwoFactor: value })
      .onConflictDoUpdate({ target: backOfficePolicy.id, set: { requireTwoFactor: value, updatedAt: sql`now()` } });
    await recordAudit(tx, actor, {
      action: 'settings.require_two_factor',
      entityType: 'back_office_policy',
      entityId: '1',
      before: { requireTwoFactor: before },
      after: { requireTwoFactor: value },
    });
  });
}

