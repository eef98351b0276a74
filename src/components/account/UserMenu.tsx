import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/use-store';
import { $user, setUser } from '../../stores/auth';
import { useHydrated } from '../../lib/use-hydrated';

// Only a logged-in member's page fetches the dropdown (docs/decisions/212).
const MemberMenu = lazy(() => import('./MemberMenu'));
// A member's cart is kept on the server too; only members' pages load its module (docs/decisions/218).
const memberCart = () => import('../../stores/member-cart-sync');

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
 * (docs/decisions/187). Until the member's name is known the member sees a plain `บัญชีของฉัน` link; the
 * dropdown itself (MemberMenu.tsx) is fetched only then, so anonymous pages never load it.
 */
export default function UserMenu({ icon }: { icon?: ReactNode }) {
  const hydrated = useHydrated();
  // The user itself rather than $auth: nanostores' `computed` stays out of every page's script (decision 212).
  const user = useStore($user);
  const loggedIn = user !== null;
  // Read once after hydration: without the hint cookie there is no session, whatever localStorage remembers.
  const [hinted, setHinted] = useState(true);

  useEffect(() => {
    const hint = hasSessionHint();
    setHinted(hint);
    if (!hint) {
      // The session ended where this page could not see it (a plain-form logout, the cookies' age):
      // a remembered member is forgotten rather than shown.
      if ($user.get()) {
        setUser(null);
        // Logging out clears the member's cart here too, however the session ended.
        void memberCart().then((sync) => sync.forgetEndedMemberCart(), () => undefined);
      }
      return;
    }
    // Logged in by a plain form post, or remembered: ask who it is. No session after all (the server's 401
    // drops the hint cookie; a failed request does not): the visitor's links, here and on the next page.
    // The asking is its own module: anonymous pages never load it (docs/decisions/212).
    void import('../../stores/auth-refresh')
      .then(({ refreshUser }) => refreshUser())
      .then((member) => {
        if (member) void memberCart().then((sync) => sync.startMemberCartSync(member));
        if (!member && !hasSessionHint()) {
          document.documentElement.classList.remove('member');
          setHinted(false);
        }
      })
      .catch(() => undefined);
  }, []);

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
  // Until the member's dropdown has loaded, the plain link the member saw before their name was known.
  return (
    <Suspense
      fallback={
        <a className="btn btn-outline-primary btn-sm" href="/profile">
          {icon}
          บัญชีของฉัน
        </a>
      }
    >
      <MemberMenu user={user} icon={icon} />
    </Suspense>
  );
}
