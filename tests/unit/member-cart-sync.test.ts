import { setPersistentEngine } from '@nanostores/persistent';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemberCart, MemberCartLine, MemberCartMerge } from '../../src/lib/member-cart';

/**
 * docs/decisions/218: the member's cart sync in a pretend browser (localStorage, sessionStorage, window
 * events and fetch stood in for): the merge at the first page, changes sent once after a pause, kept
 * while offline and sent on `online`, a removal sent as quantity 0, logout clearing the cart.
 */
const storage: Record<string, string> = {};
setPersistentEngine(storage, { addEventListener() {}, removeEventListener() {} });
const session = new Map<string, string>();
const windowEvents = new EventTarget();
Object.assign(globalThis, {
  window: windowEvents,
  sessionStorage: { getItem: (key: string) => session.get(key) ?? null, setItem: (key: string, value: string) => session.set(key, value), removeItem: (key: string) => session.delete(key) },
});
vi.mock('sweetalert2', () => ({ default: { fire: vi.fn(async () => ({})) } }));

interface Sent {
  method: string;
  url: string;
  body: unknown;
}
const sent: Sent[] = [];
let offline = false;
/** While set, the merge's answer waits for it (a slow first meeting with the server). */
let mergeHeld: Promise<void> | null = null;
/** The server's saved cart, by code: what the fake endpoints answer from. */
let server = new Map<string, number>();

const line = (code: string, quantity: number): MemberCartLine => ({ code, quantity, updated_at: '2026-01-01T00:00:00.000Z', name: `ชื่อ ${code}`, image: null, stock: 50, unit_price: 10, retail_price: 10, tiers: [] });
const cartAnswer = (): MemberCart => ({ lines: [...server].filter(([, quantity]) => quantity > 0).map(([code, quantity]) => line(code, quantity)), dropped: [], note: null });

globalThis.fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
  if (offline) throw new TypeError('Failed to fetch');
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  sent.push({ method: init?.method ?? 'GET', url: String(url), body });
  if (String(url).endsWith('/merge') && mergeHeld) await mergeHeld;
  let data: MemberCart | MemberCartMerge = cartAnswer();
  if (String(url).endsWith('/merge')) {
    const items = (body as { items: { code: string; quantity: number }[] }).items;
    let fromDevice = 0;
    for (const item of items) {
      if (item.quantity > (server.get(item.code) ?? 0)) {
        server.set(item.code, item.quantity);
        fromDevice += 1;
      }
    }
    data = { ...cartAnswer(), from_account: 0, from_device: fromDevice, merge_note: null };
  } else if (init?.method === 'PATCH') {
    for (const change of (body as { changes: { code: string; quantity: number }[] }).changes) server.set(change.code, change.quantity);
    data = cartAnswer();
  }
  return new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}) as typeof fetch;

const { $cart, addToCart } = await import('../../src/stores/cart');
const { removeCartItem } = await import('../../src/stores/cart');
const sync = await import('../../src/stores/member-cart-sync');

const item = (code: string, amount = 1) => ({ product_code: code, product_name: code, product_price: 10, product_image: null, amount, stock: 50 });
const codes = () => $cart.get().map((entry) => `${entry.product_code}×${entry.amount}`).sort();

beforeEach(async () => {
  vi.useFakeTimers();
  sync.forgetMemberCart();
  sent.length = 0;
  offline = false;
  server = new Map();
});

afterAll(() => {
  vi.useRealTimers();
});

describe('the member cart sync', () => {
  it('merges at the first page, then sends each change once, after the pause', async () => {
    server.set('A-1', 3);
    addToCart(item('B-1'));
    await sync.startMemberCartSync({ id: 'member-1' });
    expect(sent.map((entry) => `${entry.method} ${entry.url}`)).toEqual(['POST /api/user/cart/merge']);
    expect(codes()).toEqual(['A-1×3', 'B-1×1']);

    addToCart(item('C-1'));
    addToCart(item('C-1'));
    removeCartItem('B-1');
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(800);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ method: 'PATCH', url: '/api/user/cart' });
    const changes = (sent[1]!.body as { changes: { code: string; quantity: number }[] }).changes;
    expect(changes.map((change) => [change.code, change.quantity]).sort()).toEqual([
      ['B-1', 0],
      ['C-1', 2],
    ]);
    expect(sync.$cartSync.get().pending).toEqual({});
    expect(sync.$cartSync.get().base).toEqual({ 'A-1': 3, 'C-1': 2 });
  });

  it('keeps a change made while the first merge is on its way, and sends it after', async () => {
    server.set('A-1', 2);
    addToCart(item('B-1'));
    let release = () => {};
    mergeHeld = new Promise((resolve) => (release = resolve));
    const started = sync.startMemberCartSync({ id: 'member-4' });
    addToCart(item('C-1'));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.map((entry) => `${entry.method} ${entry.url}`)).toEqual(['POST /api/user/cart/merge']);
    release();
    mergeHeld = null;
    await started;
    expect(codes()).toEqual(['A-1×2', 'B-1×1', 'C-1×1']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.map((entry) => `${entry.method} ${entry.url}`)).toEqual(['POST /api/user/cart/merge', 'PATCH /api/user/cart']);
    expect(Object.fromEntries(server)).toEqual({ 'A-1': 2, 'B-1': 1, 'C-1': 1 });
  });

  it('keeps changes made offline and sends them when the browser is back online', async () => {
    await sync.startMemberCartSync({ id: 'member-2' });
    offline = true;
    addToCart(item('D-1', 2));
    await vi.advanceTimersByTimeAsync(800);
    expect(Object.keys(sync.$cartSync.get().pending)).toEqual(['D-1']);
    expect(JSON.parse(storage['memberCartSync']!).pending['D-1'].quantity).toBe(2);
    offline = false;
    windowEvents.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.get('D-1')).toBe(2);
    expect(sync.$cartSync.get().pending).toEqual({});
  });

  it('a new visit sends what changed here and takes the rest from the server, without merging back removed lines', async () => {
    // Saved for member-3 on an earlier visit: E-1 and F-1 once each. Since then, another device removed F-1,
    // and this browser raised E-1 on a page that did not listen.
    sync.$cartSync.set({ member: 'member-3', base: { 'E-1': 1, 'F-1': 1 }, pending: {} });
    $cart.set([item('E-1', 2), item('F-1', 1)]);
    server = new Map([
      ['E-1', 1],
      ['F-1', 0],
    ]);
    await sync.startMemberCartSync({ id: 'member-3' });
    expect(sent.map((entry) => `${entry.method} ${entry.url}`)).toEqual(['PATCH /api/user/cart']);
    expect((sent[0]!.body as { changes: { code: string; quantity: number }[] }).changes.map((change) => [change.code, change.quantity])).toEqual([['E-1', 2]]);
    expect(codes()).toEqual(['E-1×2']);
  });

  it('logging out clears the cart in the browser after sending what waits', async () => {
    await sync.startMemberCartSync({ id: 'member-4' });
    addToCart(item('G-1'));
    await sync.endMemberCartSync();
    expect(server.get('G-1')).toBe(1);
    expect($cart.get()).toEqual([]);
    expect(sync.$cartSync.get()).toEqual({ member: null, base: {}, pending: {} });
  });
});
