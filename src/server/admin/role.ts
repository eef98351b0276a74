import { env } from '../env.ts';
import { roleFromScopes, type Role } from '../../lib/roles.ts';

/**
 * The member's back-office role: their scopes, or `staff` for an email in SHOP_ADMIN_EMAILS
 * (decision 061). Apart from the guard so the session layer can ask without an import cycle.
 */
function configuredStaffEmails(): string[] {
  return env()
    .SHOP_ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
}

export function roleOf(member: { email: string; scopes: readonly string[] }): Role | null {
  const fromScopes = roleFromScopes(member.scopes);
  if (fromScopes) return fromScopes;
  return configuredStaffEmails().includes(member.email.trim().toLowerCase()) ? 'staff' : null;
}
