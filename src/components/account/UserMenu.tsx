import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/use-store';
import { $auth, refreshUser, setUser } from '../../stores/auth';
import { useHydrated } from '../../lib/use-hydrated';

/** Whether this browser holds the session hint cookie: the one fact the header's state is decided by. */
function hasSessionHint(): boolean {
  return /(?:^|;\s*)shop_member=1(?:;|$)/.test(document.cookie);
}

/**
 * Login and register links for visitors; the member's dropdown (บัญชีของฉัน, ออกจากระบบ) once logged in.
 *
 * Pages may come from the shared cache, so the server renders both states and the `member` class that
 * BaseHead's inline script puts on <html> from the session hint cookie, before the first paint, picks
 * one (CSS in theme.scss): a member never sees the visitor's links, not even while this island loads
 * (docs/decisions/187). Until the member's name is known the member sees a plain `บัญชีของฉัน` link.
 */
export default function UserMenu({ icon }: { icon?: ReactNode }) {
  const hydrated = useHydrated();
  const { user, loggedIn } = useStore($auth);
  const [leaving, setLeaving] = useState(false);
  // Read once after hydration: without the hint cookie there is no session, whatever localStorage remembers.
  const [hinted, setHinted] = useState(true);

  useEffect(() => {
    const hint = hasSessionHint();
    setHinted(hint);
    if (!hint) {
      // The session ended where this page could not see it (a plain-form logout, the cookies' age):
      // a remembered member is forgotten rather than shown.
      if ($auth.get().loggedIn) setUser(null);
      return;
    }
    // Logged in by a plain form post, or remembered: ask who it is. No session after all (the server's 401
    // drops the hint cookie; a failed request does not): the visitor's links, here and on the next page.
    void refreshUser().then((member) => {
      if (!member && !hasSessionHint()) {
        document.documentElement.classList.remove('member');
        setHinted(false);
      }
    });
  }, []);

  async function logout() {
    setLeaving(true);
    await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
    setUser(null);
    document.documentElement.classList.remove('member');
    window.location.assign('/login');
  }

  if (!hydrated || !hinted || !loggedIn || !user) {
    return (
      <>
        <div className="d-flex gap-2 align-items-center user-links visitor-only">
          <a className="btn btn-outline-primary btn-sm" href="/login">
            เข้าสู่ระบบ
          </a>
          <a className="btn btn-primary btn-sm" href="/register">
            สมัครสมาชิก
          </a>
        </div>
        <a className="btn btn-outline-primary btn-sm member-only" href="/profile">
          {icon}
          บัญชีของฉัน
        </a>
      </>
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
