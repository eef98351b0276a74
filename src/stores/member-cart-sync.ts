import { persistentAtom } from '@nanostores/persistent';
import type { MemberCart, MemberCartMerge } from '../lib/member-cart';
import { $cart, encodeCart, type CartItem } from './cart';
import { amounts, cartAfterAnswer, changesToSend, EMPTY_SYNC, recordChanges, unrecordedChanges, type SyncState } from './member-cart-rules';

/**
 * A member's cart follows them (docs/decisions/218). The cart stays the persistent store in localStorage
 * `shoppingCart`; for a signed-in member this module also keeps it on the server:
 * - the first time in a tab session (after login, or on a new visit), the cart and the saved one meet:
 *   a cart not yet saved for this member merges (same variant, the larger amount, a Thai note says what
 *   came in); a cart already saved for them sends what changed here and takes the rest from the server;
 * - every change is sent about 800 ms after the last one, each line with the time it was made (the
 *   latest change of a line wins on the server);
 * - what could not be sent (offline, server away) waits in localStorage and goes on `online`, when the
 *   page is left, or on the next page;
 * - logging out clears the cart in this browser.
 * Loaded only for signed-in members (UserMenu, MemberMenu): visitors never run it (docs/decisions/212).
 */

export const SYNC_STORAGE_KEY = 'memberCartSync';
/** Per tab: the member whose cart this tab session has already met the server's. */
const SESSION_KEY = 'memberCartSynced';
const SAVE_DELAY_MS = 800;
const ENDPOINT = '/api/user/cart';

function decodeState(encoded: string): SyncState {
  try {
    const value = JSON.parse(encoded) as Partial<SyncState> | null;
    if (!value || typeof value !== 'object') return EMPTY_SYNC;
    const base: Record<string, number> = {};
    for (const [code, quantity] of Object.entries(value.base ?? {})) if (typeof quantity === 'number') base[code] = quantity;
    const pending: SyncState['pending'] = {};
    for (const [code, change] of Object.entries(value.pending ?? {})) {
      if (change && typeof change.quantity === 'number' && typeof change.at === 'string') pending[code] = { quantity: change.quantity, at: change.at };
    }
    return { member: typeof value.member === 'string' ? value.member : null, base, pending };
  } catch {
    return EMPTY_SYNC;
  }
}

export const $cartSync = persistentAtom<SyncState>(SYNC_STORAGE_KEY, EMPTY_SYNC, { encode: JSON.stringify, decode: decodeState });

let member: string | null = null;
/** Whether this page's cart has met the server's: until then nothing is sent but the meeting itself. */
let ready = false;
let seen = new Map<string, number>();
let applying = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let sending: Promise<void> | undefined;
let again = false;
let stopListening: (() => void) | undefined;

function sessionSynced(): boolean {
  try {
    return sessionStorage.getItem(SESSION_KEY) === member;
  } catch {
    return false;
  }
}

function markSessionSynced(value: string | null): void {
  try {
    if (value) sessionStorage.setItem(SESSION_KEY, value);
    else sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // Storage refused (private mode): the next page merges again, which changes nothing.
  }
}

async function call<T>(method: string, url: string, body?: unknown, keepalive = false): Promise<{ status: number; data?: T }> {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    keepalive,
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: T };
  return { status: response.status, data: json.data };
}

/** Takes the server's answer: the new base, sent changes confirmed, the browser's cart rebuilt. */
function applyAnswer(answer: MemberCart, sent: SyncState['pending']): void {
  const state = $cartSync.get();
  const pending = { ...state.pending };
  for (const [code, change] of Object.entries(sent)) {
    const now = pending[code];
    if (now && now.quantity === change.quantity && now.at === change.at) delete pending[code];
  }
  for (const entry of answer.dropped) delete pending[entry.code];
  const base = Object.fromEntries(answer.lines.map((line) => [line.code, line.quantity]));
  // The state first: another tab hearing the cart change then already knows it matches the server.
  $cartSync.set({ member, base, pending });
  const next: CartItem[] = cartAfterAnswer($cart.get(), answer.lines, answer.dropped, pending);
  applying = true;
  try {
    if (encodeCart(next) !== encodeCart($cart.get())) $cart.set(next);
  } finally {
    applying = false;
  }
  seen = amounts($cart.get());
}

async function showNote(text: string | null): Promise<void> {
  if (!text) return;
  const { default: Swal } = await import('sweetalert2');
  await Swal.fire({ toast: true, position: 'top-end', icon: 'info', title: text, showConfirmButton: false, timer: 6000, timerProgressBar: true });
}

/** Sends what waits (or reads the saved cart when nothing does). A failure keeps it waiting. */
async function send(options: { read?: boolean } = {}): Promise<void> {
  if (!member || !ready) return;
  const waiting = $cartSync.get().pending;
  const changes = changesToSend($cartSync.get());
  if (changes.length === 0 && !options.read) return;
  const result = changes.length === 0 ? await call<MemberCart>('GET', ENDPOINT) : await call<MemberCart>('PATCH', ENDPOINT, { changes });
  if (result.status === 401) return stop();
  if (result.status >= 400 && result.status < 500) {
    // Refused as a whole (a cart over the line limit): the server's cart stands; the note says why.
    $cartSync.set({ ...$cartSync.get(), pending: {} });
    const saved = await call<MemberCart>('GET', ENDPOINT);
    if (saved.data) applyAnswer(saved.data, {});
    return;
  }
  if (result.data) {
    applyAnswer(result.data, waiting);
    await showNote(result.data.note);
  }
}

function flush(): Promise<void> {
  if (sending) {
    again = true;
    return sending;
  }
  sending = send()
    .catch(() => undefined)
    .finally(() => {
      sending = undefined;
      if (again) {
        again = false;
        void flush();
      }
    });
  return sending;
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void flush(), SAVE_DELAY_MS);
}

function onCartChange(items: readonly CartItem[]): void {
  if (applying || !member) return;
  const next = amounts(items);
  const state = recordChanges(seen, next, $cartSync.get(), new Date());
  seen = next;
  if (state !== $cartSync.get()) {
    $cartSync.set(state);
    schedule();
  }
}

/** Leaving the page: what still waits goes with keepalive; it stays recorded until an answer confirms it. */
function onPageHide(): void {
  if (!ready) return;
  const changes = changesToSend($cartSync.get());
  if (changes.length > 0) void call('PATCH', ENDPOINT, { changes }, true).catch(() => undefined);
}

/** Back online: the first meeting with the server if it failed, else what waits. */
function onOnline(): void {
  if (!member) return;
  if (ready) void flush();
  else void meet(member).catch(() => undefined);
}

async function meet(user: string): Promise<void> {
  if (sessionSynced()) {
    ready = true;
    if (changesToSend($cartSync.get()).length > 0) await flush();
    return;
  }
  await firstSync(user);
}

async function firstSync(user: string): Promise<void> {
  const state = $cartSync.get();
  if (state.member !== user) {
    const items = $cart.get().map((item) => ({ code: item.product_code, quantity: item.amount }));
    // The whole cart goes as the merge's items; changes made while it is on its way are recorded from
    // here and kept through its answer (a shade added during a slow merge stays, and is sent next).
    $cartSync.set({ ...state, pending: {} });
    const result = await call<MemberCartMerge>('POST', `${ENDPOINT}/merge`, { items });
    if (result.status === 401) return stop();
    if (!result.data) return;
    $cartSync.set({ member: user, base: {}, pending: $cartSync.get().pending });
    applyAnswer(result.data, {});
    ready = true;
    markSessionSynced(user);
    if (changesToSend($cartSync.get()).length > 0) void flush();
    await showNote([result.data.merge_note, result.data.note].filter(Boolean).join(' · ') || null);
    return;
  }
  $cartSync.set(unrecordedChanges($cart.get(), state, new Date()));
  ready = true;
  await send({ read: true });
  markSessionSynced(user);
}

/** Starts keeping the signed-in member's cart on the server (once per page). */
export async function startMemberCartSync(user: { id: string }): Promise<void> {
  if (member === user.id) return;
  stop();
  member = user.id;
  seen = amounts($cart.get());
  stopListening = $cart.listen(onCartChange);
  window.addEventListener('online', onOnline);
  window.addEventListener('pagehide', onPageHide);
  try {
    await meet(user.id);
  } catch {
    // Offline: the changes wait in localStorage; `online` or the next page sends them.
  }
}

function stop(): void {
  clearTimeout(timer);
  stopListening?.();
  stopListening = undefined;
  if (typeof window !== 'undefined') {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('pagehide', onPageHide);
  }
  member = null;
  ready = false;
}

/**
 * Logging out: what waits is sent first (briefly: a logout never hangs on it), then the cart in this
 * browser is cleared, so the next person at this device starts with an empty one.
 */
export async function endMemberCartSync(options: { send?: boolean } = {}): Promise<void> {
  if (options.send !== false && member) {
    clearTimeout(timer);
    await Promise.race([flush(), new Promise((resolve) => setTimeout(resolve, 1500))]);
  }
  forgetMemberCart();
}

/** Clears the browser's cart and what it knew of the saved one (a session that ended elsewhere). */
export function forgetMemberCart(): void {
  stop();
  $cartSync.set(EMPTY_SYNC);
  markSessionSynced(null);
  $cart.set([]);
}

/** A remembered member whose session ended where this page could not see it: their cart goes too. */
export function forgetEndedMemberCart(): void {
  if ($cartSync.get().member !== null) forgetMemberCart();
}
