import { describe, expect, it } from 'vitest';
import { cookieIsSecure } from '../../src/server/auth/cookies';
import { bearerToken, loginPathFor } from '../../src/server/auth/guard';
import { originAllowed } from '../../src/server/security/origin';

const site = new URL('http://127.0.0.1:4321/api/user/profile');
const request = (method: string, headers: Record<string, string>) => new Request(site, { method, headers });
const cookie = { cookie: 'theme=x; shop_session=abc' };
const json = { 'content-type': 'application/json' };

describe('originAllowed', () => {
  it.each([
    ['GET from anywhere', 'GET', { origin: 'https://evil.example', ...cookie }, true],
    ['same-origin POST with the cookie', 'POST', { origin: 'http://127.0.0.1:4321', ...cookie }, true],
    ['cross-origin POST with the cookie', 'POST', { origin: 'https://evil.example', ...cookie }, false],
    ['cross-origin PUT with the cookie', 'PUT', { origin: 'https://evil.example', ...cookie }, false],
    ['cross-origin DELETE with the cookie', 'DELETE', { origin: 'http://127.0.0.1:9999', ...cookie }, false],
    ['cross-origin POST without a cookie (login CSRF)', 'POST', { origin: 'https://evil.example' }, false],
    ['opaque origin', 'POST', { origin: 'null', ...cookie }, false],
    ['no Origin, cross-site fetch metadata', 'POST', { 'sec-fetch-site': 'cross-site', ...cookie }, false],
    ['no Origin, same-site fetch metadata', 'POST', { 'sec-fetch-site': 'same-site', ...cookie }, false],
    ['no Origin, same-origin fetch metadata (JSON)', 'POST', { 'sec-fetch-site': 'same-origin', ...json, ...cookie }, true],
    ['no Origin and no metadata (server-side JSON client)', 'POST', { ...json, ...cookie }, true],
    ['no Origin, JSON, no cookie', 'POST', { ...json }, true],
    ['form post without Origin (Astro checkOrigin rule)', 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, false],
    ['multipart post from another origin', 'POST', { origin: 'https://evil.example', 'content-type': 'multipart/form-data; boundary=x' }, false],
    ['text/plain post without Origin', 'POST', { 'content-type': 'text/plain', ...cookie }, false],
    ['body-less DELETE without Origin', 'DELETE', { ...cookie }, false],
    ['same-origin form post', 'POST', { origin: 'http://127.0.0.1:4321', 'content-type': 'application/x-www-form-urlencoded' }, true],
    ['Bearer client from another origin', 'POST', { origin: 'https://app.example', authorization: 'Bearer abc' }, true],
  ])('%s → %s', (_name, method, headers, allowed) => {
    expect(originAllowed(request(method, headers), site)).toBe(allowed);
  });
});

describe('session helpers', () => {
  it('marks the cookie Secure over https', () => {
    expect(cookieIsSecure(new URL('https://shop.example/login'))).toBe(true);
    expect(cookieIsSecure(new URL('http://127.0.0.1:4321/login'))).toBe(false);
  });

  it('reads Bearer tokens only in the standard form', () => {
    expect(bearerToken(new Request(site, { headers: { authorization: 'Bearer abc_DEF-1' } }))).toBe('abc_DEF-1');
    expect(bearerToken(new Request(site, { headers: { authorization: 'bearer   xyz' } }))).toBe('xyz');
    expect(bearerToken(new Request(site, { headers: { authorization: 'Basic abc' } }))).toBeNull();
    expect(bearerToken(new Request(site))).toBeNull();
  });

  it('remembers the wanted page in the login path', () => {
    expect(loginPathFor(new URL('http://127.0.0.1/user/purchase?tab=to-pay'))).toBe('/login?next=%2Fuser%2Fpurchase%3Ftab%3Dto-pay');
    expect(loginPathFor(new URL('http://127.0.0.1/'))).toBe('/login');
  });
});
