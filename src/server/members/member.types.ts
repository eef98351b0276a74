import type { Role } from '../../lib/roles.ts';
import type { SavedAddress } from '../../lib/types.ts';

/** A member as the server hands it out (never the password hash). */
export interface MemberProfile {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  birthday: string | null;
  scopes: string[];
  createdAt: string;
}

export interface AuthUserShape {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  scopes: string[];
  /** Back-office role (owner, staff, editor) or null: the shop's menu shows จัดการร้าน for a role. */
  role: Role | null;
}

export type Address = SavedAddress;
