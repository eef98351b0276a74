import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/use-store';
import { $auth, refreshUser, setUser } from '../../stores/auth';
import { useHydrated } from '../../lib/use-hydrated';

/** Login and register links for visitors; the member's dropdown (บัญชีของฉัน, ออกจากระบบ) once logged in. */
export default function UserMenu({ icon }: { icon?: ReactNode }) {
  const hydrated = useHydrated();
  const { user, loggedIn } = useStore($auth);
  const [leaving, setLeaving] = useState(false);

  // Only a remembered member (the session may have ended elsewhere) or a browser holding the session hint
  // cookie (logged in by a plain form post) needs checking; other visitors cause no request at all.
  useEffect(() => {
    if ($auth.get().loggedIn || /(?:^|;\s*)shop_member=1/.test(document.cookie)) void refreshUser();
  }, []);

  async function logout() {
    setLeaving(true);
    await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
    setUser(null);
    window.location.assign('/login');
  }

  if (!hydrated || !loggedIn || !user) {
    return (
      <div className="d-flex gap-2 align-items-center user-links">
        <a className="btn btn-outline-primary btn-sm" href="/login">
          เข้าสู่ระบบ
        </a>
        <a className="btn btn-primary btn-sm" href="/register">
          สมัครสมาชิก
        </a>
      </div>
    );
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
