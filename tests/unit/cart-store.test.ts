import { setPersistentEngine, type PersistentListener } from '@nanostores/persistent';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * A fake localStorage and storage-event bus, installed before the store module loads, so the tests
 * see exactly the string the store writes under `shoppingCart` and can play "another tab".
 */
const storage: Record<string, string> = {};
const listeners: PersistentListener[] = [];
setPersistentEngine(storage, {
  addEventListener(_key: string, listener: PersistentListener) {
    listeners.push(listener);
  },
  removeEventListener(_key: string, listener: PersistentListener) {
    listeners.splice(listeners.indexOf(listener), 1);
  },
});

// The store and the changes only the cart page and checkout make (kept apart for the catalog's script budget).
const cart = { ...(await import('../../src/stores/cart')), ...(await import('../../src/stores/cart-edits')) };
const { $cart, $cartCount, $cartPieces, $cartTotal, CART_STORAGE_KEY, MAX_CART_LINES, MAX_LINE_AMOUNT } = cart;

const lip = { product_code: 'P00001', product_name: 'ลิปสติก', product_price: 59, product_image: '/images/demo/a.svg' };
const pen = { product_code: 'P00002', product_name: 'ปากกา', product_price: 12.5, product_image: null };
const tiered = {
  product_code: 'P00003',
  product_name: 'ลูกโป่ง',
  product_price: 59,
  product_image: null,
  retail_price: 59,
  tiers: [
    { min_quantity: 12, price: 45 },
    { min_quantity: 100, price: 39 },
  ],
  stock: 500,
};

function stored(): unknown {
  return JSON.parse(storage[CART_STORAGE_KEY] ?? 'null');
}

/** Keep the store mounted, as an island would, so it listens to other tabs. */
const unbind = $cart.listen(() => {});

beforeEach(() => {
  cart.clearCart();
});

describe('decoding what is stored', () => {
  const good = { ...lip, amount: 2 };
  it.each<[string, string, unknown[]]>([
    ['not JSON', '{oops', []],
    ['JSON null', 'null', []],
    ['an object, not an array', JSON.stringify({ product_code: 'P1', amount: 1 }), []],
    ['a string', JSON.stringify('P00001'), []],
    ['a valid cart', JSON.stringify([good]), [good]],
    ['entries that are not objects', JSON.stringify([1, 'x', null, [good], good]), [good]],
    ['a missing code', JSON.stringify([{ ...good, product_code: undefined }]), []],
    ['a code with markup', JSON.stringify([{ ...good, product_code: '<img onerror=x>' }]), []],
    ['a zero amount', JSON.stringify([{ ...good, amount: 0 }]), []],
    ['a negative amount', JSON.stringify([{ ...good, amount: -3 }]), []],
    ['an amount below one', JSON.stringify([{ ...good, amount: 0.5 }]), []],
    ['an amount as text', JSON.stringify([{ ...good, amount: '2' }]), []],
    ['a fractional amount', JSON.stringify([{ ...good, amount: 2.7 }]), [good]],
    ['a huge amount', JSON.stringify([{ ...good, amount: 1e12 }]), [{ ...good, amount: MAX_LINE_AMOUNT }]],
    ['a negative price', JSON.stringify([{ ...good, product_price: -10 }]), [{ ...good, product_price: 0 }]],
    ['a price as text', JSON.stringify([{ ...good, product_price: '59' }]), [{ ...good, product_price: 0 }]],
    ['a price with fractions of satang', JSON.stringify([{ ...good, product_price: 12.345 }]), [{ ...good, product_price: 12.35 }]],
    ['a foreign image host', JSON.stringify([{ ...good, product_image: 'https://evil.example/x.png' }]), [{ ...good, product_image: null }]],
    ['a protocol-relative image', JSON.stringify([{ ...good, product_image: '//evil.example/x.png' }]), [{ ...good, product_image: null }]],
    ['a javascript: image', JSON.stringify([{ ...good, product_image: 'javascript:alert(1)' }]), [{ ...good, product_image: null }]],
    ['no name', JSON.stringify([{ ...good, product_name: 42 }]), [{ ...good, product_name: good.product_code }]],
    ['the same code twice', JSON.stringify([good, { ...good, amount: 3 }]), [{ ...good, amount: 5 }]],
    ['a negative stock', JSON.stringify([{ ...good, stock: -1 }]), [good]],
    ['bad tiers', JSON.stringify([{ ...good, retail_price: 59, tiers: [{ min_quantity: 0, price: 1 }, 'x'] }]), [{ ...good, retail_price: 59, tiers: [] }]],
  ])('%s', (_name, raw, expected) => {
    expect(cart.decodeCart(raw)).toEqual(expected);
  });

  it('a huge array is cut to the line limit without reading all of it', () => {
    const huge = Array.from({ length: 20_000 }, (_, i) => ({ ...lip, product_code: `P${i}`, amount: 1 }));
    expect(cart.decodeCart(JSON.stringify(huge))).toHaveLength(MAX_CART_LINES);
    // Counted, not timed: only a bounded prefix of the entries is ever looked at.
    const entriesRead = new Set<number>();
    const counted = huge.map((entry, index) => ({
      ...entry,
      get product_code() {
        entriesRead.add(index);
        return entry.product_code;
      },
    }));
    expect(cart.sanitizeCart(counted)).toHaveLength(MAX_CART_LINES);
    expect(entriesRead.size).toBeGreaterThanOrEqual(MAX_CART_LINES);
    expect(entriesRead.size).toBeLessThanOrEqual(MAX_CART_LINES * 2);
  });

  it('re-prices a stored line by its tiers on load, whatever price was stored', () => {
    const [item] = cart.decodeCart(JSON.stringify([{ ...tiered, product_price: 1, amount: 12 }]));
    expect(item?.product_price).toBe(45);
  });

  it('a value from another tab replaces the cart, repaired', () => {
    for (const listener of listeners) listener({ key: CART_STORAGE_KEY, newValue: JSON.stringify([{ ...lip, amount: -1 }, { ...pen, amount: 2 }]) });
    expect($cart.get()).toEqual([{ ...pen, amount: 2 }]);
    for (const listener of listeners) listener({ key: CART_STORAGE_KEY, newValue: null as unknown as string });
    expect($cart.get()).toEqual([]);
  });

  it('repairStoredCart writes a corrupt stored value back clean', () => {
    cart.replaceCart([{ ...lip, amount: 1 }]);
    storage[CART_STORAGE_KEY] = JSON.stringify([{ ...lip, amount: 1, junk: 'x'.repeat(10) }]);
    cart.repairStoredCart({ getItem: (key) => storage[key] ?? null });
    expect(stored()).toEqual([{ ...lip, amount: 1 }]);
  });

  it('repairStoredCart repairs what is stored now, not a stale copy in memory', () => {
    cart.clearCart();
    // Written by another tab (or before this page's store saw it): memory still holds the empty cart.
    storage[CART_STORAGE_KEY] = JSON.stringify([{ ...pen, amount: 2 }, { ...lip, amount: -1 }]);
    cart.repairStoredCart({ getItem: (key) => storage[key] ?? null });
    expect(stored()).toEqual([{ ...pen, amount: 2 }]);
    expect($cart.get()).toEqual([{ ...pen, amount: 2 }]);
  });

  it('repairStoredCart leaves a clean value alone', () => {
    storage[CART_STORAGE_KEY] = JSON.stringify([{ ...pen, amount: 2 }]);
    cart.clearCart();
    storage[CART_STORAGE_KEY] = JSON.stringify([{ ...pen, amount: 3 }]);
    cart.repairStoredCart({ getItem: (key) => storage[key] ?? null });
    expect($cart.get()).toEqual([]);
  });
});

describe('operations, each saved at once under shoppingCart', () => {
  type Step = (typeof cart)[keyof typeof cart];
  const cases: { name: string; start: unknown[]; run: () => unknown; expected: unknown[]; result?: unknown }[] = [
    { name: 'add a new item starts at 1', start: [], run: () => cart.addToCart(lip), expected: [{ ...lip, amount: 1 }], result: { status: 'added', amount: 1 } },
    { name: 'add the same code raises by 1', start: [{ ...lip, amount: 1 }], run: () => cart.addToCart(lip), expected: [{ ...lip, amount: 2 }] },
    { name: 'add with a chosen quantity', start: [{ ...lip, amount: 1 }], run: () => cart.addToCart({ ...lip, amount: 4 }), expected: [{ ...lip, amount: 5 }] },
    { name: 'add a fractional quantity adds its whole part', start: [], run: () => cart.addToCart({ ...lip, amount: 2.9 }), expected: [{ ...lip, amount: 2 }] },
    { name: 'add a zero quantity adds one', start: [], run: () => cart.addToCart({ ...lip, amount: 0 }), expected: [{ ...lip, amount: 1 }] },
    { name: 'add keeps other lines in order', start: [{ ...pen, amount: 1 }], run: () => cart.addToCart(lip), expected: [{ ...pen, amount: 1 }, { ...lip, amount: 1 }] },
    { name: 'add refreshes name and price of the line', start: [{ ...lip, amount: 1 }], run: () => cart.addToCart({ ...lip, product_name: 'ลิปใหม่', product_price: 49 }), expected: [{ ...lip, product_name: 'ลิปใหม่', product_price: 49, amount: 2 }] },
    { name: 'add stops at the stock', start: [{ ...lip, amount: 2, stock: 3 }], run: () => cart.addToCart({ ...lip, amount: 5, stock: 3 }), expected: [{ ...lip, amount: 3, stock: 3 }], result: { status: 'limited', amount: 3 } },
    { name: 'add of a sold-out product adds nothing', start: [], run: () => cart.addToCart({ ...lip, stock: 0 }), expected: [], result: { status: 'sold_out', amount: 0 } },
    { name: 'add into a full cart adds nothing', start: Array.from({ length: MAX_CART_LINES }, (_, i) => ({ ...pen, product_code: `X${i}`, amount: 1 })), run: () => cart.addToCart(lip), expected: Array.from({ length: MAX_CART_LINES }, (_, i) => ({ ...pen, product_code: `X${i}`, amount: 1 })), result: { status: 'full', amount: 0 } },
    { name: 'add prices a tiered line by its new amount', start: [{ ...tiered, amount: 10 }], run: () => cart.addToCart({ ...tiered, amount: 2 }), expected: [{ ...tiered, amount: 12, product_price: 45 }] },
    { name: 'add from a card without tiers keeps the tiers the line has', start: [{ ...tiered, amount: 10 }], run: () => cart.addToCart({ product_code: tiered.product_code, product_name: tiered.product_name, product_price: 59, product_image: null, stock: 500, amount: 2 }), expected: [{ ...tiered, amount: 12, product_price: 45 }] },
    { name: 'reduce lowers by one', start: [{ ...lip, amount: 3 }], run: () => cart.reduceCartItem(lip.product_code), expected: [{ ...lip, amount: 2 }] },
    { name: 'reduce stops at one', start: [{ ...lip, amount: 1 }], run: () => cart.reduceCartItem(lip.product_code), expected: [{ ...lip, amount: 1 }] },
    { name: 'reduce below a tier goes back to retail', start: [{ ...tiered, amount: 12, product_price: 45 }], run: () => cart.reduceCartItem(tiered.product_code), expected: [{ ...tiered, amount: 11, product_price: 59 }] },
    { name: 'reduce of an unknown code changes nothing', start: [{ ...lip, amount: 2 }], run: () => cart.reduceCartItem('NOPE'), expected: [{ ...lip, amount: 2 }] },
    { name: 'increase raises by one', start: [{ ...lip, amount: 1 }], run: () => cart.increaseCartItem(lip.product_code), expected: [{ ...lip, amount: 2 }] },
    { name: 'increase stops at the stock', start: [{ ...lip, amount: 3, stock: 3 }], run: () => cart.increaseCartItem(lip.product_code), expected: [{ ...lip, amount: 3, stock: 3 }] },
    { name: 'increase never lowers a line above a shrunk stock', start: [{ ...lip, amount: 5, stock: 0 }], run: () => cart.increaseCartItem(lip.product_code), expected: [{ ...lip, amount: 5, stock: 0 }] },
    { name: 'increase into a tier re-prices', start: [{ ...tiered, amount: 11 }], run: () => cart.increaseCartItem(tiered.product_code), expected: [{ ...tiered, amount: 12, product_price: 45 }] },
    { name: 'update sets the amount', start: [{ ...lip, amount: 1 }], run: () => cart.updateCartItem(lip.product_code, 7), expected: [{ ...lip, amount: 7 }] },
    { name: 'update below one makes one', start: [{ ...lip, amount: 4 }], run: () => cart.updateCartItem(lip.product_code, -5), expected: [{ ...lip, amount: 1 }] },
    { name: 'update with NaN makes one', start: [{ ...lip, amount: 4 }], run: () => cart.updateCartItem(lip.product_code, Number.NaN), expected: [{ ...lip, amount: 1 }] },
    { name: 'update caps at the stock', start: [{ ...lip, amount: 1, stock: 6 }], run: () => cart.updateCartItem(lip.product_code, 50), expected: [{ ...lip, amount: 6, stock: 6 }] },
    { name: 'update caps at the line maximum', start: [{ ...lip, amount: 1 }], run: () => cart.updateCartItem(lip.product_code, 1e9), expected: [{ ...lip, amount: MAX_LINE_AMOUNT }] },
    { name: 'update to a tier amount re-prices', start: [{ ...tiered, amount: 1 }], run: () => cart.updateCartItem(tiered.product_code, 100), expected: [{ ...tiered, amount: 100, product_price: 39 }] },
    { name: 'remove drops the line', start: [{ ...lip, amount: 1 }, { ...pen, amount: 2 }], run: () => cart.removeCartItem(lip.product_code), expected: [{ ...pen, amount: 2 }] },
    { name: 'replace stores a sanitised list', start: [{ ...lip, amount: 1 }], run: () => cart.replaceCart([{ ...pen, amount: 2 }, { product_code: '', amount: 1 }]), expected: [{ ...pen, amount: 2 }] },
    { name: 'replace with garbage empties', start: [{ ...lip, amount: 1 }], run: () => cart.replaceCart('garbage'), expected: [] },
    { name: 'clear empties', start: [{ ...lip, amount: 1 }, { ...pen, amount: 2 }], run: () => cart.clearCart(), expected: [] },
  ];

  it.each(cases)('$name', ({ start, run, expected, result }) => {
    cart.replaceCart(start);
    const answer = (run as Step & (() => unknown))();
    expect($cart.get()).toEqual(expected);
    expect(stored()).toEqual(expected);
    if (result) expect(answer).toEqual(result);
  });

  it('stores the exact shape of docs/design.md section 7', () => {
    cart.addToCart(lip);
    cart.addToCart(lip);
    expect(storage[CART_STORAGE_KEY]).toBe(
      JSON.stringify([{ product_code: 'P00001', product_name: 'ลิปสติก', product_price: 59, product_image: '/images/demo/a.svg', amount: 2 }]),
    );
  });
});

describe('derived values', () => {
  it.each<[string, unknown[], number, number, number]>([
    ['empty', [], 0, 0, 0],
    ['one line', [{ ...lip, amount: 2 }], 1, 2, 118],
    ['sold-out lines are listed but not totalled', [{ ...lip, amount: 2 }, { ...pen, amount: 1, stock: 0 }], 2, 3, 118],
    ['fractions of baht add up exactly', [{ ...pen, amount: 3 }, { ...pen, product_code: 'P9', product_price: 0.1, amount: 3 }], 2, 6, 37.8],
  ])('%s: lines, pieces, total', (_name, items, count, pieces, total) => {
    cart.replaceCart(items);
    expect($cartCount.get()).toBe(count);
    expect($cartPieces.get()).toBe(pieces);
    expect($cartTotal.get()).toBe(total);
  });
});

describe('applying a server quote', () => {
  const line = (over: Record<string, unknown>) => ({
    product_code: 'P00001',
    product_name: 'ลิปสติกใหม่',
    product_image: '/images/demo/b.svg',
    amount: 2,
    stock: 10,
    unit_price: 55,
    unit_price_satang: 5500,
    retail_price: 55,
    retail_price_satang: 5500,
    line_total: 110,
    line_total_satang: 11000,
    tiers: [],
    next_tier: null,
    last_seen_price: 59,
    price_changed: true,
    insufficient_stock: false,
    unavailable: false,
    ...over,
  });

  it('takes the server name, image, price and stock', () => {
    cart.replaceCart([{ ...lip, amount: 2 }]);
    cart.applyQuote([line({})] as never);
    expect(stored()).toEqual([{ ...lip, product_name: 'ลิปสติกใหม่', product_image: '/images/demo/b.svg', product_price: 55, amount: 2, stock: 10, retail_price: 55, tiers: [] }]);
  });

  it('lowers an amount above the stock to the stock', () => {
    cart.replaceCart([{ ...lip, amount: 8 }]);
    cart.applyQuote([line({ amount: 8, stock: 5, insufficient_stock: true })] as never);
    expect($cart.get()[0]?.amount).toBe(5);
  });

  it('keeps unavailable lines, with no stock, for the shopper to remove', () => {
    cart.replaceCart([{ ...lip, amount: 1 }]);
    cart.applyQuote([line({ unavailable: true, product_name: null })] as never);
    expect($cart.get()).toEqual([{ ...lip, amount: 1, stock: 0 }]);
    expect($cartTotal.get()).toBe(0);
  });
});

afterAll(() => unbind());
