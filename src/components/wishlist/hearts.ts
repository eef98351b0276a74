import { atom } from 'nanostores';
import { WISH_ADD, WISH_REMOVE, wishLabel } from '../../lib/wishlist';
import { jsonCall } from '../../lib/json-call';

/**
 * The hearts (`button[data-wish]`) of product cards and product pages (docs/decisions/209). Pages are
 * cached and shared, so every heart arrives unpressed; for a member this module reads the wishlist's
 * codes once (GET /api/user/wishlist?fields=code) into a store and presses the hearts it holds. A
 * visitor's press goes to the login form, which comes back to the same page with `#wish=<code>` (through
 * the login's safe `next`), and the wish is added then. Loaded by Navbar.astro's script only when a heart
 * is pressed or a member's page has hearts, so anonymous pages carry none of it.
 */
export const $wishes = atom<ReadonlySet<string> | null>(null);

const PENDING = /^#wish=([A-Za-z0-9_-]{1,64})$/;
const TOAST_MS = 4000;
let loading: Promise<void> | undefined;

const isMember = () => document.documentElement.classList.contains('member');

function loginFor(code: string): void {
  const back = `${location.pathname}${location.search}#wish=${code}`;
  location.assign(`/login?next=${encodeURIComponent(back)}`);
}

function paint(): void {
  const wishes = $wishes.get();
  document.querySelectorAll<HTMLButtonElement>('button[data-wish]').forEach((button) => {
    const pressed = wishes?.has(button.dataset.wish ?? '') ?? false;
    button.setAttribute('aria-pressed', String(pressed));
    button.setAttribute('aria-label', wishLabel(pressed, button.dataset.name));
    button.title = pressed ? WISH_REMOVE : WISH_ADD;
  });
}

function toast(text: string, link?: { href: string; label: string }): void {
  let slot = document.getElementById('wish-toast');
  if (!slot) {
    slot = document.createElement('div');
    slot.id = 'wish-toast';
    slot.className = 'wish-toast';
    slot.setAttribute('role', 'status');
    document.body.append(slot);
  }
  const box = document.createElement('div');
  box.className = 'toast show text-bg-dark border-0 px-3 py-2';
  box.textContent = text;
  if (link) {
    const anchor = document.createElement('a');
    anchor.href = link.href;
    anchor.className = 'link-light ms-2';
    anchor.textContent = link.label;
    box.append(anchor);
  }
  slot.replaceChildren(box);
  setTimeout(() => box.remove(), TOAST_MS);
}

/** The member's wishlist codes, read once per page; then a heart carried through login is added. */
export function showWishes(): Promise<void> {
  loading ??= (async () => {
    const answer = await jsonCall('GET', '/api/user/wishlist?fields=code');
    const codes = Array.isArray(answer.data) ? (answer.data as { code: string }[]).map((item) => item.code) : [];
    $wishes.set(new Set(codes));
    paint();
    const pending = PENDING.exec(location.hash)?.[1];
    if (pending && answer.status === 200) {
      history.replaceState(history.state, '', `${location.pathname}${location.search}`);
      if (!codes.includes(pending)) await setWish(pending, true);
    }
  })();
  return loading;
}

async function setWish(code: string, wanted: boolean): Promise<void> {
  const before = $wishes.get() ?? new Set<string>();
  const after = new Set(before);
  if (wanted) after.add(code);
  else after.delete(code);
  // Pressed at once; put back if the server says no.
  $wishes.set(after);
  paint();
  const answer = wanted
    ? await jsonCall('POST', '/api/user/wishlist', { code })
    : await jsonCall('DELETE', `/api/user/wishlist/${encodeURIComponent(code)}`);
  if (answer.status === 200) {
    toast(wanted ? 'เพิ่มในรายการโปรดแล้ว' : 'ลบออกจากรายการโปรดแล้ว', wanted ? { href: '/user/wishlist', label: 'ดูรายการโปรด' } : undefined);
    return;
  }
  $wishes.set(before);
  paint();
  if (answer.status === 401) {
    loginFor(code);
    return;
  }
  toast(answer.message ?? 'บันทึกรายการโปรดไม่สำเร็จ กรุณาลองใหม่อีกครั้ง');
}

/** A heart pressed: a visitor goes to log in first; a member's wish is added or taken off. */
export async function toggleWish(button: HTMLButtonElement): Promise<void> {
  const code = button.dataset.wish ?? '';
  if (!isMember()) {
    loginFor(code);
    return;
  }
  await showWishes();
  await setWish(code, !($wishes.get()?.has(code) ?? false));
}
