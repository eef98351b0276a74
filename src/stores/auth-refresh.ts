import { $user, setUser, type AuthUser } from './auth';

/*
 * Apart from the store: only a member's page (the session hint cookie, UserMenu.tsx) asks, so anonymous
 * pages do not load it (docs/design.md section 15, docs/decisions/212).
 */
let refreshing: Promise<AuthUser | null> | undefined;

/** Asks the server who the session belongs to and updates the store. */
export function refreshUser(): Promise<AuthUser | null> {
  refreshing ??= fetch('/api/auth/me', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (response.status === 401) {
        setUser(null);
        return null;
      }
      if (!response.ok) return $user.get();
      const body = (await response.json()) as { data?: { user?: AuthUser } };
      const user = body.data?.user ?? null;
      setUser(user);
      return user;
    })
    .catch(() => $user.get())
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}
