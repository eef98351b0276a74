/**
 * Bounded fuzz of every API endpoint family through src/middleware.ts, in process (fast enough for
 * CI, and CI runs this file on PGlite and again on PostgreSQL). Strings come from fast-check: any
 * code point (NUL, C0 controls, DEL, lone surrogates), Thai text, broken percent-encoding, huge
 * numbers. Every answer must be below 500, arrive in time and, when refused, carry the Thai envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as login from '../../src/pages/api/auth/login';
import * as logout from '../../src/pages/api/auth/logout';
import * as me from '../../src/pages/api/auth/me';
import * as category from '../../src/pages/api/category';
import * as getCompany from '../../src/pages/api/get-company';
import * as getGallery from '../../src/pages/api/get-gallery';
import * as memberAddress from '../../src/pages/api/get-member-address';
import * as getPromotion from '../../src/pages/api/get-promotion';
import * as promotionActive from '../../src/pages/api/get-promotionactive';
import * as recruitment from '../../src/pages/api/get-recruitment';
import * as productBrand from '../../src/pages/api/product-brand';
import * as productList from '../../src/pages/api/product';
import * as user from '../../src/pages/api/user/index';
import * as resetRequest from '../../src/pages/api/auth/reset-request';
import * as resetPassword from '../../src/pages/api/auth/reset-password';
import * as quote from '../../src/pages/api/cart/quote';
import * as categoryName from '../../src/pages/api/category-name/[name]';
import * as categoryParams from '../../src/pages/api/category/[params]';
import * as checkEmail from '../../src/pages/api/check-email';
import * as checkMember from '../../src/pages/api/check-member';
import * as checkPhone from '../../src/pages/api/check-phone';
import * as checkPromotion from '../../src/pages/api/check-promotion';
import * as galleryList from '../../src/pages/api/get-gallery-list/[code]';
import * as promotionByCode from '../../src/pages/api/get-promotionbycode/[code]';
import * as credentials from '../../src/pages/api/login/[...credentials]';
import * as memberInsert from '../../src/pages/api/member-insert';
import * as orderGet from '../../src/pages/api/order-get';
import * as orderListGet from '../../src/pages/api/order-list-get';
import * as orderQuote from '../../src/pages/api/order-quote';
import * as orderSlip from '../../src/pages/api/order-slip';
import * as orderStatusUpdate from '../../src/pages/api/order-status-update';
import * as orders from '../../src/pages/api/orders';
import * as productCount from '../../src/pages/api/product-count/[params]';
import * as includeByCode from '../../src/pages/api/product-include-bycode/[code]';
import * as includeName from '../../src/pages/api/product-include-name/[name]';
import * as includeId from '../../src/pages/api/product-include/[id]';
import * as productRandom from '../../src/pages/api/product-random';
import * as productSearch from '../../src/pages/api/product-search/[params]';
import * as subImg from '../../src/pages/api/product-sub-img/[code]';
import * as productByCode from '../../src/pages/api/product/[code]';
import * as productPage from '../../src/pages/api/product/page/[params]';
import * as searchSuggest from '../../src/pages/api/search-suggest';
import * as thaiAddress from '../../src/pages/api/thai-address';
import * as addressById from '../../src/pages/api/user/addresses/[id]';
import * as addressDefault from '../../src/pages/api/user/addresses/[id]/default';
import * as addressList from '../../src/pages/api/user/addresses/index';
import * as wishlistList from '../../src/pages/api/user/wishlist/index';
import * as wishlistItem from '../../src/pages/api/user/wishlist/[code]';
import * as backInStock from '../../src/pages/api/back-in-stock';
import * as backInStockStatus from '../../src/pages/api/user/back-in-stock/index';
import * as backInStockItem from '../../src/pages/api/user/back-in-stock/[code]';
import * as password from '../../src/pages/api/user/password';
import * as profile from '../../src/pages/api/user/profile';
import { TestClient, type CallOptions } from '../fixtures/api-client';
import { createMember, type TestMember } from '../fixtures/orders';

const CASES_PER_FAMILY = Number(process.env.FUZZ_CASES ?? 1000);
const CALL_TIMEOUT_MS = 10_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

type Route = Parameters<TestClient['call']>[0];

interface Call {
  route: Route;
  method: string;
  path: string;
  options?: CallOptions;
  client?: 'anonymous' | 'member';
}

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD bytes, as a browser sends them). */
function encodeSegment(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** What Astro hands a route as a decoded parameter. */
function decodedParam(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\ud800',
  'x\udfff',
  '%00',
  '%',
  '%FF',
  '%E0%B8',
  '..%2F..%2Fetc%2Fpasswd',
  '\'; drop table products; --',
  '<script>alert(1)</script>',
  'ก'.repeat(5000),
  '9'.repeat(400),
  '-1',
  '1e309',
  ',,,,',
  '',
  ' ',
  '\n',
  '\t',
);
/** Any code point, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyUnit, maxLength: 20 }) },
  { weight: 2, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('ก', 'ข', 'ค', 'า', 'ี', '่', '้', 'A', '1', ' ', '-', ','), maxLength: 30 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), nasty, fc.string({ maxLength: 10 })).map((parts) => parts.join('')) },
);
const jsonValue = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));

let member: TestMember;
let anonymous: TestClient;
let signedIn: TestClient;

function pathCall(route: Route, prefix: string, param: string, value: string, query = ''): Call {
  const encoded = encodeSegment(value);
  return { route, method: 'GET', path: `${prefix}${encoded}${query}`, options: { params: { [param]: decodedParam(encoded) } } };
}

/** Raw (possibly malformed) path text, as a hostile client can send it. */
function rawPathCall(route: Route, prefix: string, param: string, raw: string): Call {
  const safe = raw.replace(/[^\x21-\x7e]/g, (char) => encodeSegment(char)).replace(/[?#/]/g, (char) => encodeSegment(char));
  return { route, method: 'GET', path: `${prefix}${safe}`, options: { params: { [param]: decodedParam(safe) } } };
}

function body(route: Route, path: string, value: unknown, method = 'POST', client: Call['client'] = 'anonymous'): Call {
  return { route, method, path, options: { body: value }, client };
}

const families: Record<string, fc.Arbitrary<Call>> = {
  'product and category by path': fc.oneof(
    fc.tuple(fc.constantFrom<[Route, string, string]>(
      [productByCode, '/api/product/', 'code'],
      [includeByCode, '/api/product-include-bycode/', 'code'],
      [includeName, '/api/product-include-name/', 'name'],
      [includeId, '/api/product-include/', 'id'],
      [categoryName, '/api/category-name/', 'name'],
      [subImg, '/api/product-sub-img/', 'code'],
      [galleryList, '/api/get-gallery-list/', 'code'],
      [promotionByCode, '/api/get-promotionbycode/', 'code'],
    ), text).map(([[route, prefix, param], value]) => pathCall(route, prefix, param, value)),
    fc.tuple(fc.constantFrom<[Route, string, string]>(
      [productByCode, '/api/product/', 'code'],
      [categoryName, '/api/category-name/', 'name'],
      [includeName, '/api/product-include-name/', 'name'],
    ), fc.string({ unit: fc.constantFrom('%', '0', 'F', 'E', '8', 'a', 'ก'), maxLength: 12 })).map(([[route, prefix, param], raw]) => rawPathCall(route, prefix, param, raw)),
  ),
  'listings and search': fc
    .tuple(
      fc.constantFrom<[Route, string, string]>(
        [productSearch, '/api/product-search/', 'params'],
        [productPage, '/api/product/page/', 'params'],
        [categoryParams, '/api/category/', 'params'],
        [productCount, '/api/product-count/', 'params'],
      ),
      fc.array(fc.oneof(text, fc.integer().map(String)), { minLength: 1, maxLength: 6 }),
      fc.option(fc.tuple(fc.constantFrom('sort', 'page', 'q', 'keyword', 'brand'), text), { nil: undefined }),
    )
    .map(([[route, prefix, param], parts, query]) =>
      pathCall(route, prefix, param, parts.join(','), query ? `?${encodeSegment(query[0])}=${encodeSegment(query[1])}` : ''),
    ),
  'query strings': fc
    .tuple(
      fc.constantFrom<[Route, string, string]>(
        [searchSuggest, '/api/search-suggest', 'q'],
        [thaiAddress, '/api/thai-address', 'q'],
        [productRandom, '/api/product-random', 'limit'],
        [orderSlip, '/api/order-slip', 'no'],
      ),
      text,
      fc.boolean(),
    )
    .map(([[route, path, name], value, raw]) => ({
      route,
      method: 'GET',
      path: `${path}?${name}=${raw ? value.replace(/[^\x21-\x7e]/g, (char) => encodeSegment(char)).replace(/[#&]/g, encodeSegment) : encodeSegment(value)}`,
      client: 'member' as const,
    })),
  'sign-up, login and password reset': fc.oneof(
    fc.record({ firstName: text, lastName: text, email: text, phone: text, password: text, confirmPassword: text, acceptTerms: fc.boolean() }).map((value) => body(memberInsert, '/api/member-insert', value)),
    fc.record({ login: text, password: text }).map((value) => body(login, '/api/auth/login', value)),
    fc.record({ email: text }).map((value) => body(resetRequest, '/api/auth/reset-request', value)),
    fc.record({ token: text, password: text, confirmPassword: text }).map((value) => body(resetPassword, '/api/auth/reset-password', value)),
    fc.tuple(fc.constantFrom<[Route, string, string]>([checkEmail, '/api/check-email', 'email'], [checkPhone, '/api/check-phone', 'phone'], [checkMember, '/api/check-member', 'email']), text).map(([[route, path, key], value]) => body(route, path, { [key]: value })),
    fc.tuple(text, text).map(([user, pass]) => ({ route: credentials, method: 'GET', path: `/api/login/${encodeSegment(user)},${encodeSegment(pass)}`, options: { params: { credentials: `${user},${pass}` } } })),
    fc.tuple(fc.string({ unit: anyUnit, maxLength: 40 }), fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x')).map(([raw, contentType]) => ({ route: login, method: 'POST', path: '/api/auth/login', options: { rawBody: raw, contentType } })),
  ),
  'cart, checkout and orders': fc.oneof(
    fc.array(fc.record({ product_code: text, amount: fc.oneof(fc.integer(), jsonValue) }), { maxLength: 4 }).map((lines) => body(quote, '/api/cart/quote', { lines })),
    fc.record({ lines: fc.array(fc.record({ product_code: text, amount: fc.integer({ min: -5, max: 1e6 }) }), { maxLength: 3 }), delivery_code: text, promotion_code: text }).map((value) => body(orderQuote, '/api/order-quote', value, 'POST', 'member')),
    fc.record({ code: text, lines: fc.array(fc.record({ product_code: text, amount: fc.integer({ min: 1, max: 5 }) }), { maxLength: 2 }) }).map((value) => body(checkPromotion, '/api/check-promotion', value)),
    fc.record({ idempotency_key: text, lines: fc.array(fc.record({ product_code: text, amount: fc.integer({ min: 1, max: 3 }) }), { maxLength: 2 }), address_id: text, delivery_code: text, payment_method: text, note: text, promotion_code: text }).map((value) => body(orders, '/api/orders', value, 'POST', 'member')),
    fc.record({ order_no: text, no: text }).map((value) => body(orderGet, '/api/order-get', value, 'POST', 'member')),
    fc.record({ tab: text, page: jsonValue }).map((value) => body(orderListGet, '/api/order-list-get', value, 'POST', 'member')),
    fc.record({ order_no: text, action: text, tracking_no: text, note: text }).map((value) => body(orderStatusUpdate, '/api/order-status-update', value, 'POST', 'member')),
  ),
  'lists and the rest, with any query string': fc
    .tuple(
      fc.constantFrom<[Route, string, string]>(
        [productList, '/api/product', 'GET'],
        [category, '/api/category', 'GET'],
        [getCompany, '/api/get-company', 'GET'],
        [getGallery, '/api/get-gallery', 'GET'],
        [getPromotion, '/api/get-promotion', 'GET'],
        [promotionActive, '/api/get-promotionactive', 'GET'],
        [recruitment, '/api/get-recruitment', 'GET'],
        [productBrand, '/api/product-brand', 'GET'],
        [me, '/api/auth/me', 'GET'],
        [user, '/api/user', 'GET'],
        [memberAddress, '/api/get-member-address', 'POST'],
        [logout, '/api/auth/logout', 'POST'],
      ),
      fc.array(fc.tuple(fc.constantFrom('page', 'sort', 'q', 'category', 'brand', 'min', 'max', 'limit', 'x'), text), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([[route, path, method], pairs, asMember]) => ({
      route,
      method,
      path: `${path}?${pairs.map(([key, value]) => `${key}=${encodeSegment(value)}`).join('&')}`,
      // Logging out with the fuzz member's token would end the session the other families use.
      client: asMember && route !== logout ? ('member' as const) : ('anonymous' as const),
      ...(method === 'POST' ? { options: { body: {} } } : {}),
    })),
  'account and address book': fc.oneof(
    fc.record({ firstName: text, lastName: text, phone: text }).map((value) => body(profile, '/api/user/profile', value, 'PUT', 'member')),
    fc.record({ currentPassword: text, password: text, confirmPassword: text }).map((value) => body(password, '/api/user/password', value, 'POST', 'member')),
    fc.record({ recipientName: text, phone: text, line1: text, subdistrict: text, district: text, province: text, postcode: text }).map((value) => body(addressList, '/api/user/addresses', value, 'POST', 'member')),
    fc.tuple(text, fc.constantFrom('GET', 'DELETE', 'PUT')).map(([id, method]) => ({ ...pathCall(addressById, '/api/user/addresses/', 'id', id), method, client: 'member' as const, ...(method === 'PUT' ? { options: { params: { id }, body: { recipientName: id } } } : {}) })),
    text.map((id) => ({ ...pathCall(addressDefault, '/api/user/addresses/', 'id', id), path: `/api/user/addresses/${encodeSegment(id)}/default`, method: 'POST', client: 'member' as const })),
    // The wishlist (docs/decisions/209): any code added or taken off, any `fields`, as the member and as a visitor.
    fc.tuple(fc.oneof(text, fc.record({ code: fc.oneof(text, fc.integer()) })), fc.boolean()).map(([value, asMember]) => body(wishlistList, '/api/user/wishlist', value, 'POST', asMember ? 'member' : 'anonymous')),
    fc.tuple(text, fc.constantFrom('DELETE', 'GET')).map(([code, method]) =>
      method === 'GET'
        ? { route: wishlistList, method, path: `/api/user/wishlist?fields=${encodeSegment(code)}`, client: 'member' as const }
        : { ...pathCall(wishlistItem, '/api/user/wishlist/', 'code', code), method, client: 'member' as const },
    ),
    // Back in stock (docs/decisions/220): any variant and e-mail, as the member and as a visitor; status and cancel.
    fc.tuple(fc.oneof(text, fc.record({ variant: fc.oneof(text, fc.integer()), email: fc.oneof(text, fc.emailAddress()) })), fc.boolean()).map(([value, asMember]) =>
      body(backInStock, '/api/back-in-stock', value, 'POST', asMember ? 'member' : 'anonymous'),
    ),
    fc.tuple(text, fc.constantFrom('DELETE', 'GET')).map(([code, method]) =>
      method === 'GET'
        ? { route: backInStockStatus, method, path: `/api/user/back-in-stock?variant=${encodeSegment(code)}`, client: 'member' as const }
        : { ...pathCall(backInStockItem, '/api/user/back-in-stock/', 'code', code), method, client: 'member' as const },
    ),
  ),
};

let total = 0;
const failures: string[] = [];
const statuses = new Map<number, number>();

async function send(call: Call): Promise<void> {
  const client = call.client === 'member' ? signedIn : anonymous;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
  });
  try {
    const response = await Promise.race([client.call(call.route, call.method, call.path, call.options), timeout]);
    total += 1;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const describeCall = `${call.method} ${call.path.slice(0, 200)} ${JSON.stringify(call.options?.body ?? call.options?.rawBody ?? '').slice(0, 200)}`;
    if (response.status >= 500) failures.push(`${response.status} ← ${describeCall}`);
    else if (response.status >= 400 && response.status !== 404 && typeof response.body.message !== 'string') {
      failures.push(`${response.status} without a message ← ${describeCall}`);
    }
    if (response.status >= 500 || (response.status >= 400 && typeof response.body.message !== 'string' && response.status !== 404)) {
      throw new Error(failures.at(-1));
    }
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  member = await createMember();
  anonymous = new TestClient('192.0.2.50');
  signedIn = new TestClient('192.0.2.51');
  signedIn.bearer = member.token;
});

afterAll(() => {
  // The closing note CI logs show: how many requests, and how many answered 500.
  console.log(`fuzz: ${total} cases over ${Object.keys(families).length} endpoint families, ${failures.length} answers of 500 or without an envelope; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  expect(total).toBeGreaterThanOrEqual(CASES_PER_FAMILY * Object.keys(families).length);
});

describe('fuzz: no input makes an endpoint answer 500', () => {
  for (const [family, arbitrary] of Object.entries(families)) {
    it(`${family}: ${CASES_PER_FAMILY} cases`, async () => {
      await fc.assert(fc.asyncProperty(arbitrary, send), { numRuns: CASES_PER_FAMILY, seed: SEED, endOnFailure: true });
    }, 300_000);
  }

  it('the NUL requests the first fuzz found are refused with a Thai 400', async () => {
    const seen = await Promise.all([
      anonymous.call(productByCode, 'GET', '/api/product/%00', { params: { code: '\u0000' } }),
      anonymous.call(includeByCode, 'GET', '/api/product-include-bycode/%00', { params: { code: '\u0000' } }),
      anonymous.call(includeName, 'GET', '/api/product-include-name/%00', { params: { name: '\u0000' } }),
      anonymous.call(categoryName, 'GET', '/api/category-name/%00', { params: { name: '\u0000' } }),
      anonymous.call(subImg, 'GET', '/api/product-sub-img/%00', { params: { code: '\u0000' } }),
      anonymous.call(searchSuggest, 'GET', '/api/search-suggest?q=%00'),
      anonymous.call(memberInsert, 'POST', '/api/member-insert', { body: { firstName: 'สม\u0000ชาย' } }),
      anonymous.call(login, 'POST', '/api/auth/login', { body: { login: 'a\u0000@example.com', password: 'x' } }),
      anonymous.call(login, 'POST', '/api/auth/login', { rawBody: 'login=a%00b&password=x', contentType: 'application/x-www-form-urlencoded' }),
    ]);
    for (const response of seen) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_characters', message: expect.stringMatching(/[\u0E00-\u0E7F]/) });
    }
    // Line breaks stay allowed in bodies (notes, addresses); only the other controls go.
    const note = await anonymous.call(quote, 'POST', '/api/cart/quote', { body: { lines: [], note: 'ชั้น 2\nตึก A\tห้อง 3' } });
    expect(note.status).toBeLessThan(500);
    expect(note.body.code).not.toBe('invalid_characters');
  });
});
