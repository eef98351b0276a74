import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { backOfficePolicy, orders, sessions } from '../../src/server/db/schema';
import { changeOrderStatus, uploadSlip } from '../../src/server/orders/order.service';
import { requestTaxInvoice } from '../../src/server/documents/receipt.service';
import { orderForPage } from '../../src/server/orders/order-page';
import { requireStaffPage, type AdminPageContext } from '../../src/server/admin/guard';
import { beginTwoFactorSetup, enableTwoFactor } from '../../src/server/auth/two-factor.service';
import { STAFF_IDLE_MS } from '../../src/server/auth/session.service';
import { taxInvoiceRequestSchema } from '../../src/lib/documents';
import type { Permission } from '../../src/lib/roles';
import * as orderGetRoute from '../../src/pages/api/order-get';
import * as orderSlipRoute from '../../src/pages/api/order-slip';
import * as statusUpdateRoute from '../../src/pages/api/order-status-update';
import * as receiptRoute from '../../src/pages/order/receipt.pdf';
import * as paymentQrRoute from '../../src/pages/order/payment-qr.png';
import * as taxInvoiceRoute from '../../src/pages/order/tax-invoice.pdf';
import { BASE, TestClient, type CallResult } from '../fixtures/api-client';
import type { RouteModule } from '../fixtures/admin';
import { createMember, productWithStock, placeTestOrder, type TestMember } from '../fixtures/orders';
import { smallSlip } from '../fixtures/slips';

/**
 * Issue 32: with "two-step sign-in required for the whole team" on, a role held without two-step grants
 * nothing, anywhere (src/server/admin/powers.ts). Every route is found by scanning src/pages, so a new
 * route fails this file until it is placed in one of the lists below and, if it grants a role's powers,
 * proved here.
 */

const PAGES = join(import.meta.dirname, '../../src/pages');
const PNG = await smallSlip();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(PAGES, path).split('\\').join('/')];
  });
}

const ALL_ROUTES = filesUnder(PAGES).filter((file) => /\.(ts|astro)$/.test(file));
const isBackOffice = (file: string) => file.startsWith('admin/') || file.startsWith('api/admin/');
/** A shop page that could grant a role's powers: it reaches for roles, staff or the order page helper. */
const mayGrantPowers = (file: string) => /server\/admin\/|order-page|actorFor|isStaff|roleOf|powers/.test(readFileSync(join(PAGES, file), 'utf8'));

/** Shop routes that act for the caller alone (their own orders, quotations, account) or for anyone. */
const MEMBER_ONLY_OR_PUBLIC = new Set([
  'api/auth/login.ts',
  'api/auth/logout.ts',
  'api/auth/me.ts',
  'api/auth/reset-password.ts',
  'api/auth/reset-request.ts',
  'api/back-in-stock.ts', // a visitor's or member's request for a sold-out variant; no role (issue 31; back-in-stock.test.ts)
  'api/cart/quote.ts',
  'api/category-name/[name].ts',
  'api/category.ts',
  'api/category/[params].ts',
  'api/check-email.ts',
  'api/check-member.ts',
  'api/check-phone.ts',
  'api/check-promotion.ts',
  'api/get-company.ts',
  'api/get-gallery-list/[code].ts',
  'api/get-gallery.ts',
  'api/get-member-address.ts',
  'api/get-promotion.ts',
  'api/get-promotionactive.ts',
  'api/get-promotionbycode/[code].ts',
  'api/get-recruitment.ts',
  'api/login/[...credentials].ts',
  'api/member-insert.ts',
  'api/order-list-get.ts', // listOrders(member.id): the caller's own
  'api/order-quote.ts',
  'api/order-tax-invoice.ts', // requestTaxInvoice(member.id): the caller's own order
  'api/orders.ts',
  'api/product-brand.ts',
  'api/product-count/[params].ts',
  'api/product-include-bycode/[code].ts',
  'api/product-include-name/[name].ts',
  'api/product-include/[id].ts',
  'api/product-random.ts',
  'api/product-search/[params].ts',
  'api/product-sub-img/[code].ts',
  'api/product.ts',
  'api/product/[code].ts',
  'api/product/[code]/reviews.ts', // a product's published reviews, public (issue 31; reviews.test.ts)
  'api/product/page/[params].ts',
  'api/quotation-order.ts', // orderFromQuotation(member): the caller's own quotation
  'api/quotations.ts',
  'api/search-suggest.ts',
  'api/thai-address.ts',
  'api/user/addresses/[id].ts',
  'api/user/addresses/[id]/default.ts',
  'api/user/addresses/index.ts',
  'api/user/back-in-stock/[code].ts', // cancelMember(member.id): the caller's own request (issue 31; back-in-stock.test.ts)
  'api/user/back-in-stock/index.ts', // the caller's own request for a variant (issue 31; back-in-stock.test.ts)
  'api/user/cart/index.ts', // savedCart/applyCartChanges(member.id): the caller's own saved cart (issue 31; member-cart.test.ts)
  'api/user/cart/merge.ts', // mergeIntoSavedCart(member.id): the caller's own saved cart (issue 31; member-cart.test.ts)
  'api/user/close.ts', // closeAccount(session.member.id): the caller's own account (issue 29; every role in member-data.test.ts)
  'api/user/data.ts', // exportMemberData(member.id): the caller's own data (issue 29; every role in member-data.test.ts)
  'api/user/index.ts',
  'api/user/password.ts',
  'api/user/profile.ts',
  'api/user/reviews/index.ts', // writeReview/reviewsOfMember(member.id): the caller's own lines and reviews (issue 31; reviews.test.ts)
  'api/user/reviews/reviewable.ts', // reviewableLinesOf(member.id): the caller's own delivered lines (issue 31; reviews.test.ts)
  'api/user/wishlist/[code].ts', // removeFromWishlist(member.id): the caller's own wishlist (issue 31; wishlist.test.ts)
  'api/user/wishlist/index.ts', // the caller's own wishlist (issue 31; wishlist.test.ts)
  'healthz.ts',
  'images/demo/[file].ts',
  'logout.ts',
  'media/[...key].ts',
  'profile.ts',
  'quotation/[no]/pdf.ts', // quotationPdf(member.id): the caller's own
  'readyz.ts',
  'robots.txt.ts',
  'sitemap.xml.ts',
  'sitemaps/[file].ts',
  'user/account/index.ts',
  'user/index.ts',
]);

/** Back-office pages a role held without the required two-step still opens: they grant no powers. */
const BACK_OFFICE_WITHOUT_POWERS = new Set([
  'admin/two-step.astro', // where the two-step sign-in is set up; only the caller's own
  'admin/forbidden.astro', // the 403 page, reached by rewrite
]);

type Who = 'staffWithout' | 'staffWith' | 'ownerWithout' | 'ownerWith';
const people = {} as Record<Who, TestMember>;
let shopper: TestMember;
/** The shopper's unpaid order with a slip; the shopper's paid order with a receipt and a full tax invoice. */
let unpaidNo: string;
let paidNo: string;

function client(who: Who): TestClient {
  const c = new TestClient();
  c.bearer = people[who].token;
  return c;
}

async function newUnpaidOrder(): Promise<string> {
  const product = await productWithStock(50);
  const { order } = await placeTestOrder(shopper, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'ems', paymentMethod: 'promptpay' });
  return order.orderNo;
}

async function statusOf(orderNo: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.status;
}

async function turnOnTwoStep(member: TestMember): Promise<void> {
  const { Secret, TOTP } = await import('otpauth');
  const setup = await beginTwoFactorSetup(member);
  const now = Date.now();
  const code = TOTP.generate({ secret: Secret.fromBase32(setup.secret), timestamp: now });
  await enableTwoFactor({ id: member.id, email: member.email, role: 'staff', via: 'web' }, member.id, code, now);
}

beforeAll(async () => {
  shopper = await createMember();
  people.staffWithout = await createMember({ scopes: ['staff'] });
  people.staffWith = await createMember({ scopes: ['staff'] });
  people.ownerWithout = await createMember({ scopes: ['owner'] });
  people.ownerWith = await createMember({ scopes: ['owner'] });
  await turnOnTwoStep(people.staffWith);
  await turnOnTwoStep(people.ownerWith);

  unpaidNo = await newUnpaidOrder();
  await uploadSlip(shopper, unpaidNo, PNG);
  paidNo = await newUnpaidOrder();
  await changeOrderStatus({ type: 'staff', id: people.ownerWith.id }, paidNo, { action: 'confirm_payment' });
  await requestTaxInvoice(
    shopper.id,
    paidNo,
    taxInvoiceRequestSchema.parse({ name: 'บริษัท ตัวอย่างการค้า จำกัด', address: '99/9 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500', tax_id: '0105558000006', branch_type: 'head_office' }),
  );

  // The owner's switch, "two-step sign-in required for the whole team".
  const db = await getDb();
  await db.insert(backOfficePolicy).values({ id: 1, requireTwoFactor: true }).onConflictDoUpdate({ target: backOfficePolicy.id, set: { requireTwoFactor: true } });
});

/**
 * The shop routes that give staff more than a member: each is tried as staff without two-step (must act
 * as a plain member: another customer's order is not found, nothing changes) and with it (staff powers).
 */
interface CheckedRoute {
  /** How the route is reached as `who`. */
  attempt(who: Who): Promise<{ status: number; changed?: boolean }>;
  without: number;
  with: number;
}

const get = (route: RouteModule, path: string) => async (who: Who) => ({ status: (await client(who).call(route, 'GET', path)).status });

const CHECKED_SHOP_ROUTES: Record<string, CheckedRoute> = {
  'api/order-get.ts': {
    attempt: async (who) => ({ status: (await client(who).call(orderGetRoute, 'POST', '/api/order-get', { body: { no: unpaidNo } })).status }),
    without: 404,
    with: 200,
  },
  // GET shows the slip (staff: any order's); POST uploads one for the caller's own order only.
  'api/order-slip.ts': { attempt: async (who) => get(orderSlipRoute, `/api/order-slip?no=${unpaidNo}`)(who), without: 404, with: 200 },
  'api/order-status-update.ts': {
    attempt: async (who) => {
      const no = await newUnpaidOrder();
      const result = await client(who).call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no, action: 'cancel', note: 'ทดสอบ' } });
      return { status: result.status, changed: (await statusOf(no)) !== 'pending_payment' };
    },
    without: 404,
    with: 200,
  },
  // The unpaid order's PromptPay QR as a picture: an order document, staff see any order's.
  'order/payment-qr.png.ts': { attempt: async (who) => get(paymentQrRoute, `/order/payment-qr.png?no=${unpaidNo}`)(who), without: 404, with: 200 },
  'order/receipt.pdf.ts': { attempt: async (who) => get(receiptRoute, `/order/receipt.pdf?no=${paidNo}`)(who), without: 404, with: 200 },
  'order/tax-invoice.pdf.ts': { attempt: async (who) => get(taxInvoiceRoute, `/order/tax-invoice.pdf?no=${paidNo}`)(who), without: 404, with: 200 },
};

/** A page's Astro global, enough for the guards: the member's token, the URL, a rewrite that answers its target. */
function astroFor(who: Who, path: string): AdminPageContext & { url: URL; locals: App.Locals } {
  const url = new URL(path, BASE);
  const request = new Request(url, { headers: { authorization: `Bearer ${people[who].token}` } });
  return {
    url,
    request,
    cookies: { get: () => undefined, has: () => false, set: () => {}, delete: () => {} } as never,
    response: { headers: new Headers() },
    locals: {},
    rewrite: async (target: string) => new Response(null, { status: target === '/404' ? 404 : 403, headers: { 'x-rewritten-to': target } }),
  };
}

/** The order pages (success, payment, delivery, cancel) go through orderForPage. */
const ORDER_PAGES = ['order/cancel.astro', 'order/delivery.astro', 'order/payment.astro', 'order/success.astro'];

describe('every route is accounted for', () => {
  it('each route under src/pages is checked here, or listed as member-only/public', () => {
    const unplaced = ALL_ROUTES.filter((file) => {
      if (isBackOffice(file)) return false;
      if (file in CHECKED_SHOP_ROUTES || ORDER_PAGES.includes(file) || MEMBER_ONLY_OR_PUBLIC.has(file)) return false;
      // Shop pages (.astro) render for the caller; only those reaching for roles or staff need a place.
      return file.endsWith('.ts') || mayGrantPowers(file);
    });
    expect(unplaced, 'new routes: prove them in CHECKED_SHOP_ROUTES or list them in MEMBER_ONLY_OR_PUBLIC').toEqual([]);
    const stale = [...MEMBER_ONLY_OR_PUBLIC, ...Object.keys(CHECKED_SHOP_ROUTES), ...ORDER_PAGES, ...BACK_OFFICE_WITHOUT_POWERS].filter((file) => !ALL_ROUTES.includes(file));
    expect(stale, 'listed routes that no longer exist').toEqual([]);
    for (const file of ORDER_PAGES) expect(readFileSync(join(PAGES, file), 'utf8'), file).toContain('orderForPage(Astro)');
  });

  it('a member-only route decides nothing on roles or staff', () => {
    const deciding = [...MEMBER_ONLY_OR_PUBLIC].filter(mayGrantPowers);
    expect(deciding).toEqual([]);
  });

  it('a role is read from scopes or SHOP_ADMIN_EMAILS in powers.ts only, apart from places that grant nothing', () => {
    // Where the role an account holds is read without granting anything to the caller:
    const readsWithoutGranting = new Set([
      'server/admin/role.ts', // the definition
      'server/admin/powers.ts', // the one answer
      'server/auth/session.service.ts', // the 8-hour idle timeout: shorter for anyone holding a role
      'server/members/member.service.ts', // the role shown to islands; the second sign-in step at login
      'server/admin/members-admin.service.ts', // the role of the member looked at, not of the caller
      'server/admin/staff.service.ts', // the team list and role changes
      'server/operator/commands.ts', // the operator's grant command: the role before, for the audit row
      'server/auth/second-step-lockout.ts', // the locked account's role, for its audit row
      'server/auth/two-factor.service.ts', // the owner's reset: whether the member reset holds a role
      'server/members/account-data.service.ts', // closing an account: refused while it holds a role (issue 29)
    ]);
    const src = join(import.meta.dirname, '../../src');
    const files = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
      .map((entry) => relative(src, join(entry.parentPath, entry.name)).split('\\').join('/'));
    const readers = files.filter((file) => /\broleOf\(|\broleFromScopes\(/.test(readFileSync(join(src, file), 'utf8')) && file !== 'lib/roles.ts');
    expect(readers.filter((file) => !readsWithoutGranting.has(file))).toEqual([]);
  });
});

describe('two-step sign-in required for the whole team: a role held without it grants nothing', () => {
  for (const [file, route] of Object.entries(CHECKED_SHOP_ROUTES)) {
    it(`${file}: staff without two-step are a plain member (${route.without}); with it, staff (${route.with})`, async () => {
      const refused = await route.attempt('staffWithout');
      expect(refused.status).toBe(route.without);
      if (refused.changed !== undefined) expect(refused.changed).toBe(false);
      const ownerRefused = await route.attempt('ownerWithout');
      expect(ownerRefused.status).toBe(route.without);
      const allowed = await route.attempt('staffWith');
      expect(allowed.status).toBe(route.with);
      if (allowed.changed !== undefined) expect(allowed.changed).toBe(true);
    });
  }

  it('the order pages (success, payment, delivery, cancel): another customer\'s order is not found without two-step', async () => {
    const refused = await orderForPage(astroFor('staffWithout', `/order/delivery?no=${unpaidNo}`) as never);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(404);
    const allowed = await orderForPage(astroFor('staffWith', `/order/delivery?no=${unpaidNo}`) as never);
    expect(allowed).not.toBeInstanceOf(Response);
    expect(allowed).toMatchObject({ staff: true, order: { orderNo: unpaidNo } });
  });

  it('a staff session idle for 8 hours has no session at all: 401', async () => {
    const idle = await createMember({ scopes: ['staff'] });
    await turnOnTwoStep(idle);
    const db = await getDb();
    await db.update(sessions).set({ lastSeenAt: new Date(Date.now() - STAFF_IDLE_MS - 60_000) }).where(eq(sessions.memberId, idle.id));
    const c = new TestClient();
    c.bearer = idle.token;
    expect((await c.call(orderGetRoute, 'POST', '/api/order-get', { body: { no: unpaidNo } })).status).toBe(401);
  });

  const backOfficePages = ALL_ROUTES.filter((file) => file.startsWith('admin/') && file.endsWith('.astro') && !BACK_OFFICE_WITHOUT_POWERS.has(file));
  it('every back-office page guards itself with requireStaffPage', () => {
    expect(backOfficePages.length).toBeGreaterThan(10);
    const unguarded = backOfficePages.filter((file) => !/requireStaffPage\(Astro, '\w+'\)/.test(readFileSync(join(PAGES, file), 'utf8')));
    expect(unguarded).toEqual([]);
  });

  for (const file of backOfficePages) {
    it(`/${file.replace(/(\/index)?\.astro$/, '')}: sent to set up two-step without it, opened with it`, async () => {
      const permission = /requireStaffPage\(Astro, '(\w+)'\)/.exec(readFileSync(join(PAGES, file), 'utf8'))![1] as Permission;
      const path = `/${file.replace(/(\/index)?\.astro$/, '')}`;
      const refused = await requireStaffPage(astroFor('ownerWithout', path), permission);
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).status).toBe(302);
      expect((refused as Response).headers.get('location')).toBe('/admin/two-step?required=1');
      const opened = await requireStaffPage(astroFor('ownerWith', path), permission);
      expect(opened).toMatchObject({ role: 'owner', member: { id: people.ownerWith.id } });
    });
  }

  /** Values for a back-office route's parameters: real where a route looks things up. */
  function routeParams(file: string): { path: string; params: Record<string, string> } {
    const values: Record<string, string> = { no: unpaidNo, id: shopper.id, code: 'NO-SUCH-CODE', slug: 'no-such-page', action: 'publish', section: 'company' };
    const params: Record<string, string> = {};
    const path = `/${file.replace(/\.ts$/, '')}`.replace(/\[(\w+)\]/g, (_, name: string) => {
      params[name] = values[name] ?? 'x';
      return encodeURIComponent(params[name]);
    });
    return { path, params };
  }

  const backOfficeEndpoints = ALL_ROUTES.filter((file) => isBackOffice(file) && file.endsWith('.ts'));
  for (const file of backOfficeEndpoints) {
    it(`/${file.replace(/\.ts$/, '')}: 403 two_factor_required without two-step, past the guard with it`, async () => {
      const module = (await import(/* @vite-ignore */ join(PAGES, file))) as Record<string, unknown>;
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => typeof module[method] === 'function');
      expect(methods.length, file).toBeGreaterThan(0);
      const { path, params } = routeParams(file);
      for (const method of methods) {
        const send = (who: Who): Promise<CallResult> =>
          client(who).call(module as RouteModule, method, path, {
            params,
            headers: { accept: 'application/json' },
            ...(method === 'GET' ? {} : { rawBody: '', contentType: 'application/x-www-form-urlencoded' }),
          });
        for (const who of ['staffWithout', 'ownerWithout'] as const) {
          const refused = await send(who);
          expect(refused.status, `${who} ${method} ${path}`).toBe(403);
          // Staff may also lack the area's right (403 forbidden); the owner has every right, so two-step is the reason.
          if (who === 'ownerWithout') expect(refused.body.code, `${method} ${path}`).toBe('two_factor_required');
        }
        const passed = await send('ownerWith');
        expect(passed.status, `ownerWith ${method} ${path}: ${JSON.stringify(passed.body)}`).not.toBe(403);
        expect(passed.status).toBeLessThan(500);
        expect(passed.body.code).not.toBe('two_factor_required');
        expect(passed.body.message ?? '').not.toBe('ไม่พบหน้าที่ต้องการ');
      }
    });
  }
});
