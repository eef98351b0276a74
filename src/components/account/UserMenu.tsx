import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $auth, refreshUser } from '../../stores/auth';
import { useHydrated } from '../../lib/use-hydrated';

/** Login and register links for visitors; the member's name and menu once the session is known. */
export default function UserMenu() {
  const hydrated = useHydrated();
  const { user, loggedIn } = useStore($auth);

  useEffect(() => {
    void refreshUser();
  }, []);

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
    <div className="d-flex gap-2 align-items-center">
      <a className="btn btn-outline-primary btn-sm" href="/profile">
        {user.firstName}
      </a>
    </div>
  );
}
