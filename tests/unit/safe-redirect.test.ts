import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../../src/lib/safe-redirect';

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
    ['too long', `/${'a'.repeat(3000)}`],
  ];
  it.each(home)('sends %s home', (_name, input) => {
    expect(safeNextPath(input)).toBe('/');
  });
});
