import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { isRole, type Role } from '../lib/roles';

/**
 * Who is logged in, for islands. Filled from /api/auth/me; never holds the session token (that lives
 * only in the HttpOnly cookie). Kept in localStorage so the navbar shows the member without a flash.
 */
export interface AuthUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  scopes: string[];
  role: Role | null;
}

function decodeUser(encoded: string): AuthUser | null {
  try {
    const value = JSON.parse(encoded) as Partial<AuthUser> | null;
    if (!value || typeof value.id !== 'string' || typeof value.firstName !== 'string') return null;
    return {
      id: value.id,
      firstName: value.firstName,
      lastName: String(value.lastName ?? ''),
      email: String(value.email ?? ''),
      phone: String(value.phone ?? ''),
      scopes: Array.isArray(value.scopes) ? value.scopes.map(String) : [],
      role: isRole(value.role) ? value.role : null,
    };
  } catch {
    return null;
  }
}

export const $user = persistentAtom<AuthUser | null>('shopUser', null, {
  encode: (value) => (value ? JSON.stringify(value) : undefined),
  decode: decodeUser,
});

export const $auth = /* @__PURE__ */ computed($user, (user) => ({ user, loggedIn: user !== null }));

export function setUser(user: AuthUser | null): void {
  $user.set(user);
}
