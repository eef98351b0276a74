import { describe, expect, it } from 'vitest';
import { safeAdminPath, safeLocalPath, safeNextPath } from '../../src/lib/safe-redirect';

describe('safeNextPath', () => {
  const kept: Array<[string, string]> = [
    ['/user/purchase', '/user/purchase'],
    ['/user/purchase?tab=to-pay', '/user/purchase?tab=to-pay'],
    ['/order', '/order'],
    ['/order/payment?no=SO-0001#qr', '/order/payment?no=SO-0001#qr'],
    ['/product/category/gifts', '/product/category/gifts'],
    ['/search/%E0%B8%A5%E0%B8%B4%E0%B8%9B', '/search/%E0%B8%A5%E0%B8%B4%E0%B8%9B'],
    ['/a/../user/account/profile', '/user/account/profile'],
  ];
  it.each(kept)('keeps the local path %s', (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  const home: Array<[string, string | null | undefined]> = [
    ['missing', null],
    ['undefined', undefined],
    ['empty', ''],
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/user'],
    ['triple slash', '///evil.example'],
    ['backslash host', '/\\evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['backslash later', '/user\\..\\..\\evil'],
    ['absolute https', 'https://evil.example/'],
    ['absolute http', 'http://127.0.0.1:4321/user'],
    ['scheme without slashes', 'https:evil.example'],
    ['javascript', 'javascript:alert(1)'],
    ['javascript upper case', 'JaVaScRiPt:alert(1)'],
    ['data url', 'data:text/html,<script>alert(1)</script>'],
    ['relative without slash', 'user/purchase'],
    ['encoded slashes', '%2F%2Fevil.example'],
    ['encoded slash after slash', '/%2Fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['double-encoded slashes', '%252F%252Fevil.example'],
    ['double-encoded after slash', '/%252F%252Fevil.example'],
    ['encoded javascript', 'javascript%3Aalert(1)'],
    ['tab inside', '/\t/evil.example'],
    ['newline inside', '/\n/evil.example'],
    ['encoded tab', '/%09/evil.example'],
    ['leading space', ' //evil.example'],
    ['bad escape', '/%E0%A4%A'],
    ['login loop', '/login?next=/user'],
    ['register', '/register'],
    ['logout', '/logout'],
    ['a LINE sign-in again', '/auth/line/login?next=/cart'],
    ['too long', `/${'a'.repeat(3000)}`],
  ];
  it.each(home)('sends %s home', (_name, input) => {
    expect(safeNextPath(input)).toBe('/');
  });
});

describe('safeLocalPath', () => {
  it('keeps a local path and gives the fallback for anything that could leave the shop', () => {
    expect(safeLocalPath('/user/purchase?tab=to-pay#top', null)).toBe('/user/purchase?tab=to-pay#top');
    expect(safeLocalPath('/login', null)).toBe('/login');
    for (const foreign of ['//evil.com', '/\\evil.com', 'https://evil.com', '%2F%2Fevil.com', '/%252F%252Fevil.com', 'javascript:alert(1)', '', null, 42]) {
      expect(safeLocalPath(foreign, null), String(foreign)).toBeNull();
    }
  });
});

describe('safeAdminPath', () => {
  const FALLBACK = '/admin/orders';
  const kept: Array<[string, string]> = [
    ['/admin', '/admin'],
    ['/admin/settings#payment', '/admin/settings#payment'],
    ['/admin/orders?tab=to-ship&page=2', '/admin/orders?tab=to-ship&page=2'],
    ['/admin/products/%E0%B8%81', '/admin/products/%E0%B8%81'],
    ['/admin?x=1', '/admin?x=1'],
  ];
  it.each(kept)('keeps the back-office path %s', (input, expected) => {
    expect(safeAdminPath(input, FALLBACK)).toBe(expected);
  });

  const refused: Array<[string, unknown]> = [
    ['protocol-relative', '//evil.com'],
    ['protocol-relative to admin', '//evil.com/admin'],
    ['backslash host', '/\\evil.com'],
    ['backslash inside admin', '/admin\\..\\x'],
    ['absolute https', 'https://evil.com'],
    ['absolute to our admin', 'https://evil.com/admin'],
    ['dot segments out of admin', '/admin/../x'],
    ['dot segments staying in admin', '/admin/orders/../settings'],
    ['single dot segment', '/admin/./x'],
    ['encoded dot segments', '/admin/%2e%2e/x'],
    ['double-encoded dot segments', '/admin/%252e%252e/x'],
    ['encoded slashes and dots', '/admin%2F..%2Fx'],
    ['encoded protocol-relative', '/%2F%2Fevil.com'],
    ['double-encoded protocol-relative', '%252F%252Fevil.com'],
    ['encoded backslash', '/admin/%5C%5Cevil.com'],
    ['tab', '/admin\t/x'],
    ['newline', '/admin\n//evil.com'],
    ['javascript', 'javascript:alert(1)'],
    ['a storefront page', '/user/purchase'],
    ['a look-alike prefix', '/administrator'],
    ['relative', 'admin/orders'],
    ['empty', ''],
    ['not text', ['/admin']],
    ['too long', `/admin/${'a'.repeat(3000)}`],
  ];
  it.each(refused)('refuses %s', (_name, input) => {
    expect(safeAdminPath(input, FALLBACK)).toBe(FALLBACK);
  });
});
