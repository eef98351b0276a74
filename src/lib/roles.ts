/**
 * Back-office roles (docs/design.md section 10). A member's `scopes` array carries at most one of them; the
 * strongest wins if several are present. Pure: the server enforces, islands and menus only read.
 */
export const ROLES = ['owner', 'staff', 'editor'] as const;
export type Role = (typeof ROLES)[number];

/** What a back-office page or action needs. One permission per area of the sidebar. */
export type Permission =
  | 'dashboard'
  | 'orders'
  | 'catalog'
  | 'import'
  | 'promotions'
  | 'banners'
  | 'pages'
  | 'gallery'
  | 'recruitment'
  | 'settings'
  | 'members'
  | 'reviews'
  | 'staff'
  | 'audit';

const RIGHTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set<Permission>([
    'dashboard',
    'orders',
    'catalog',
    'import',
    'promotions',
    'banners',
    'pages',
    'gallery',
    'recruitment',
    'settings',
    'members',
    'reviews',
    'staff',
    'audit',
  ]),
  // Staff run the shop day to day; content pages are open to them too (issue 11), settings and roles are not.
  // Reviews are moderated by whoever answers customers day to day (decision 226): staff, not content editors.
  staff: new Set<Permission>(['dashboard', 'orders', 'catalog', 'import', 'promotions', 'banners', 'pages', 'gallery', 'members', 'reviews', 'audit']),
  editor: new Set<Permission>(['pages', 'gallery', 'recruitment', 'banners']),
};

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'เจ้าของร้าน',
  staff: 'พนักงาน',
  editor: 'ผู้ดูแลเนื้อหา',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * The role a member's scopes give. The legacy `admin` scope (before roles existed, decision 061) counts
 * as staff.
 */
export function roleFromScopes(scopes: readonly string[]): Role | null {
  if (scopes.includes('owner')) return 'owner';
  if (scopes.includes('staff') || scopes.includes('admin')) return 'staff';
  if (scopes.includes('editor')) return 'editor';
  return null;
}

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? RIGHTS[role].has(permission) : false;
}

/** The first back-office page a role may open: where `/admin` sends an editor, who has no dashboard. */
export function homeFor(role: Role): string {
  return can(role, 'dashboard') ? '/admin' : '/admin/pages';
}

export interface AdminNavItem {
  href: string;
  label: string;
  permission: Permission;
}

/** The sidebar of docs/design.md section 10, in its order and words. */
export const ADMIN_NAV: readonly AdminNavItem[] = [
  { href: '/admin', label: 'แดชบอร์ด', permission: 'dashboard' },
  { href: '/admin/orders', label: 'คำสั่งซื้อ', permission: 'orders' },
  { href: '/admin/products', label: 'สินค้า', permission: 'catalog' },
  { href: '/admin/categories', label: 'หมวดหมู่', permission: 'catalog' },
  { href: '/admin/brands', label: 'แบรนด์', permission: 'catalog' },
  { href: '/admin/search', label: 'คำค้นหา', permission: 'catalog' },
  { href: '/admin/import', label: 'นำเข้า/ส่งออก', permission: 'import' },
  // Editors keep the promotion banners (issue 11), so the list opens for 'banners'; codes need 'promotions'.
  { href: '/admin/promotions', label: 'โปรโมชั่น', permission: 'banners' },
  { href: '/admin/pages', label: 'หน้าเนื้อหา', permission: 'pages' },
  { href: '/admin/gallery', label: 'แกลเลอรี', permission: 'gallery' },
  { href: '/admin/recruitment', label: 'ร่วมงานกับเรา', permission: 'recruitment' },
  { href: '/admin/settings', label: 'ตั้งค่าร้าน', permission: 'settings' },
  { href: '/admin/members', label: 'สมาชิก', permission: 'members' },
  { href: '/admin/reviews', label: 'รีวิว', permission: 'reviews' },
  { href: '/admin/staff', label: 'ทีมงาน', permission: 'staff' },
  { href: '/admin/audit', label: 'บันทึกการใช้งาน', permission: 'audit' },
];
