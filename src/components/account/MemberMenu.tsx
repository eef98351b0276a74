import { useState, type ReactNode } from 'react';
import { setUser, type AuthUser } from '../../stores/auth';
import { endMemberCartSync } from '../../stores/member-cart-sync';

/**
 * The member's dropdown in the navbar (บัญชีของฉัน, จัดการร้าน for staff, ออกจากระบบ). A module of its own,
 * fetched by UserMenu only for a logged-in member: anonymous pages never run it, so it is not part of
 * the script they load (docs/design.md section 15, docs/decisions/212).
 */
export default function MemberMenu({ user, icon }: { user: AuthUser; icon?: ReactNode }) {
  const [leaving, setLeaving] = useState(false);

  async function logout() {
    setLeaving(true);
    // What waits is saved first; then the cart in this browser is cleared (docs/decisions/218).
    await endMemberCartSync().catch(() => undefined);
    await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
    setUser(null);
    document.documentElement.classList.remove('member');
    window.location.assign('/login');
  }

  return (
    <div className="dropdown user-menu">
      <button
        className="btn btn-outline-primary btn-sm dropdown-toggle text-truncate"
        style={{ maxWidth: '12rem' }}
        type="button"
        data-bs-toggle="dropdown"
        // Static: plain CSS placement, under the button on phones (collapsed navbar), right-aligned from sm up.
        data-bs-display="static"
        aria-expanded="false"
        aria-label={`เมนูสมาชิก ${user.firstName}`}
      >
        {/* The icon comes from the server (Navbar.astro): its path data stays out of the script every page loads. */}
        {icon}
        {user.firstName}
      </button>
      <ul className="dropdown-menu dropdown-menu-sm-end">
        <li>
          <a className="dropdown-item" href="/profile">
            บัญชีของฉัน
          </a>
        </li>
        {user.role && (
          <li>
            <a className="dropdown-item" href="/admin">
              จัดการร้าน
            </a>
          </li>
        )}
        <li>
          <hr className="dropdown-divider" />
        </li>
        <li>
          <button type="button" className="dropdown-item text-danger" disabled={leaving} onClick={() => void logout()}>
            ออกจากระบบ
          </button>
        </li>
      </ul>
    </div>
  );
}
