import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as login from '../../src/pages/api/auth/login';
import * as logout from '../../src/pages/api/auth/logout';
import * as me from '../../src/pages/api/auth/me';
import * as getMemberAddress from '../../src/pages/api/get-member-address';
import * as memberInsert from '../../src/pages/api/member-insert';
import * as addressById from '../../src/pages/api/user/addresses/[id]';
import * as addressDefault from '../../src/pages/api/user/addresses/[id]/default';
import * as addressList from '../../src/pages/api/user/addresses/index';
import * as user from '../../src/pages/api/user/index';
import * as profile from '../../src/pages/api/user/profile';
import * as logoutPage from '../../src/pages/logout';
import { database } from '../../src/server/db/client';
import { TestClient, newMemberInput } from '../fixtures/api-client';

interface Member {
  client: TestClient;
  bearer: TestClient;
  input: ReturnType<typeof newMemberInput>;
  id: string;
}
interface AddressOut {
  id: string;
  recipientName: string;
  line1: string;
  isDefault: boolean;
}

const lumphini = { subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' };
const suthep = { subdistrict: 'สุเทพ', district: 'เมืองเชียงใหม่', province: 'เชียงใหม่', postcode: '50200' };

async function member(ip: string, overrides: Record<string, unknown> = {}): Promise<Member> {
  const client = new TestClient(ip);
  const input = newMemberInput(overrides);
  const response = await client.call(memberInsert, 'POST', '/api/member-insert/', { body: input });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const bearer = new TestClient(ip);
  bearer.bearer = response.body.token as string;
  return { client, bearer, input, id: (response.body.data as { user: { id: string } }).user.id };
}

async function addAddress(who: TestClient, extra: Record<string, unknown> = {}) {
  const response = await who.call<AddressOut>(addressList, 'POST', '/api/user/addresses', {
    body: { recipientName: 'ผู้รับ ทดสอบ', phone: '0812345678', line1: '99/1 ซอยสุขใจ', ...lumphini, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as AddressOut;
}

let a: Member;
let b: Member;
let bAddress: AddressOut;

beforeAll(async () => {
  a = await member('203.0.113.1');
  b = await member('203.0.113.2');
  bAddress = await addAddress(b.client, { recipientName: 'บี เจ้าของ', line1: 'บ้านของบี' });
});

describe('members cannot reach each other', () => {
  it('/api/user and /api/auth/me answer only the caller', async () => {
    for (const who of [a.client, a.bearer]) {
      const response = await who.call(user, 'GET', '/api/user', { headers: { 'x-member-id': b.id } });
      expect(response.status).toBe(200);
      expect((response.body.data as { id: string }).id).toBe(a.id);
      expect(JSON.stringify(response.body)).not.toContain(b.input.email);
      expect(JSON.stringify(response.body)).not.toContain('passwordHash');
    }
    expect((await new TestClient().call(user, 'GET', '/api/user')).status).toBe(401);
    const withFake = new TestClient();
    withFake.bearer = 'x'.repeat(43);
    expect((await withFake.call(me, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it("A cannot read, change, delete or promote B's address by id, by guessing, or with A's Bearer token", async () => {
    for (const who of [a.client, a.bearer]) {
      const params = { id: bAddress.id };
      const path = `/api/user/addresses/${bAddress.id}`;
      expect((await who.call(addressById, 'GET', path, { params })).status).toBe(404);
      const put = await who.call(addressById, 'PUT', path, { params, body: { recipientName: 'ถูกแก้', phone: '0812345678', line1: 'x', ...lumphini } });
      expect(put.status).toBe(404);
      expect((await who.call(addressById, 'DELETE', path, { params })).status).toBe(404);
      expect((await who.call(addressDefault, 'POST', `${path}/default`, { params })).status).toBe(404);
      for (const guess of [randomUUID(), '1', "1' OR '1'='1", '../../etc/passwd']) {
        expect((await who.call(addressById, 'GET', `/api/user/addresses/${encodeURIComponent(guess)}`, { params: { id: guess } })).status).toBe(404);
      }
      const listed = await who.call(getMemberAddress, 'POST', '/api/get-member-address/', { body: { memberId: b.id, member_id: b.id } });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(bAddress.id);
    }
    const still = await b.client.call(addressById, 'GET', `/api/user/addresses/${bAddress.id}`, { params: { id: bAddress.id } });
    expect(still.status).toBe(200);
    expect((still.body.data as AddressOut).recipientName).toBe('บี เจ้าของ');
  });

  it("A's profile update never touches B, whatever ids the body carries", async () => {
    const response = await a.bearer.call(profile, 'PUT', '/api/user/profile', {
      body: { id: b.id, memberId: b.id, email: b.input.email, firstName: 'เอ', lastName: 'แก้ไขแล้ว', phone: a.input.phone, birthday: '1990-05-01' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: a.id, email: a.input.email, firstName: 'เอ', birthday: '1990-05-01' });
    const bNow = await b.client.call(user, 'GET', '/api/user');
    expect(bNow.body.data).toMatchObject({ firstName: b.input.firstName, email: b.input.email });
    const takePhone = await a.client.call(profile, 'PUT', '/api/user/profile', { body: { firstName: 'เอ', lastName: 'x', phone: b.input.phone } });
    expect(takePhone.status).toBe(409);
  });

  it('an address whose parts do not belong together is refused; canonical names are stored', async () => {
    const mismatch = await a.client.call(addressList, 'POST', '/api/user/addresses', {
      body: { recipientName: 'ผิด', phone: '0812345678', line1: '1', ...lumphini, postcode: '50200' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe('address_mismatch');
    const prefixed = await addAddress(a.client, { subdistrict: 'แขวงลุมพินี', district: 'เขตปทุมวัน', province: 'กรุงเทพฯ' });
    expect(prefixed).toMatchObject(lumphini);
  });
});

describe('address book', () => {
  it('keeps exactly one default: the first address, then the chosen one, then the next when it is deleted', async () => {
    const c = await member('203.0.113.3');
    const first = await addAddress(c.client);
    expect(first.isDefault).toBe(true);
    const second = await addAddress(c.client, suthep);
    expect(second.isDefault).toBe(false);
    const promoted = await c.client.call(addressDefault, 'POST', `/api/user/addresses/${second.id}/default`, { params: { id: second.id } });
    expect(promoted.status).toBe(200);
    let list = (await c.client.call(addressList, 'GET', '/api/user/addresses')).body.data as AddressOut[];
    expect(list.map((x) => [x.id, x.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    const edited = await c.client.call(addressById, 'PUT', `/api/user/addresses/${first.id}`, {
      params: { id: first.id },
      body: { recipientName: 'ชื่อใหม่', phone: '02-123-4567', line1: 'ที่ใหม่', ...lumphini },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ recipientName: 'ชื่อใหม่', phone: '021234567' });
    expect((await c.client.call(addressById, 'DELETE', `/api/user/addresses/${second.id}`, { params: { id: second.id } })).status).toBe(200);
    list = (await c.client.call(getMemberAddress, 'POST', '/api/get-member-address/')).body.data as AddressOut[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: first.id, isDefault: true });
  });
});

describe('sessions, limits and origins', () => {
  it('logout ends the session on the server: the old token gets 401', async () => {
    const d = await member('203.0.113.4');
    expect((await d.bearer.call(me, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await d.client.call(logout, 'POST', '/api/auth/logout')).status).toBe(200);
    expect((await d.bearer.call(me, 'GET', '/api/auth/me')).status).toBe(401);
    expect((await d.bearer.call(addressList, 'GET', '/api/user/addresses')).status).toBe(401);
  });

  it('a session ended elsewhere: /api/auth/me answers 401 and drops the session hint, so the next page is painted as a visitor\'s (decision 187)', async () => {
    const f = await member('203.0.113.8');
    expect(f.client.jar.get('shop_member')).toBe('1');
    const me1 = await f.client.call(me, 'GET', '/api/auth/me');
    expect(me1.status).toBe(200);
    expect(me1.cookies.size).toBe(0);
    // Logged out with the token from another client: this browser still holds both cookies.
    expect((await f.bearer.call(logout, 'POST', '/api/auth/logout')).status).toBe(200);
    expect(f.client.jar.get('shop_member')).toBe('1');
    const ended = await f.client.call(me, 'GET', '/api/auth/me');
    expect(ended.status).toBe(401);
    expect(ended.cookies.get('shop_member')).toMatchObject({ deleted: true });
    expect(f.client.jar.has('shop_member')).toBe(false);
    expect(f.client.jar.has('shop_session')).toBe(false);
    // A visitor without the hint is told 401 and nothing is written.
    expect((await new TestClient().call(me, 'GET', '/api/auth/me')).cookies.size).toBe(0);
  });

  it('one address guessing one account is stopped after 5 failures, with Retry-After; others are not', async () => {
    const e = await member('203.0.113.5');
    const attacker = new TestClient('203.0.113.66');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await attacker.call(login, 'POST', '/api/auth/login', { body: { login: e.input.email, password: `guess-${i}-wrong` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await attacker.call(login, 'POST', '/api/auth/login', { body: { login: e.input.email, password: e.input.password } });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/บ่อยเกินไป/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    // The member, and anyone else, from another address is not affected.
    const right = await new TestClient('203.0.113.67').call(login, 'POST', '/api/auth/login', { body: { login: e.input.email, password: e.input.password } });
    expect(right.status).toBe(200);
  });

  it('100 failures for a member from other addresses do not lock the member out of their own address', async () => {
    const a = await member('203.0.113.9');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 100; i++) {
      const stranger = new TestClient(`198.18.${Math.floor(i / 5)}.${(i % 5) + 1}`);
      const status = (await stranger.call(login, 'POST', '/api/auth/login', { body: { login: a.input.email, password: `guess-${i}` } })).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // The first 30 were checked; after that the account refuses addresses it never signed in from.
    expect(Object.fromEntries(statuses)).toEqual({ 401: 30, 429: 70 });
    const fromNewPlace = await new TestClient('198.18.200.1').call(login, 'POST', '/api/auth/login', { body: { login: a.input.email, password: a.input.password } });
    expect(fromNewPlace.status).toBe(429);
    expect(fromNewPlace.headers.get('retry-after')).toMatch(/^\d+$/);
    const fromHome = await new TestClient('203.0.113.9').call(login, 'POST', '/api/auth/login', { body: { login: a.input.email, password: a.input.password } });
    expect(fromHome.status).toBe(200);
    // A wrong password from home is still just a wrong password.
    const typo = await new TestClient('203.0.113.9').call(login, 'POST', '/api/auth/login', { body: { login: a.input.email, password: 'typo' } });
    expect(typo.status).toBe(401);
  });

  it('100 failed logins from one address are slowed: 429 with Retry-After after 50; other addresses are not', async () => {
    const one = new TestClient('203.0.113.88');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 100; i++) {
      const answer = await one.call(login, 'POST', '/api/auth/login', { body: { login: `hammer${i % 7}@example.com`, password: `guess-${i}` } });
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get('retry-after');
    }
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(50);
    expect(statuses.slice(50)).toEqual(Array(50).fill(429));
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const other = await new TestClient('203.0.113.89').call(login, 'POST', '/api/auth/login', { body: { login: 'hammer1@example.com', password: 'x' } });
    expect(other.status).toBe(401);
  });

  it('failed logins are also limited per address across accounts', async () => {
    const sprayer = new TestClient('203.0.113.77');
    let status = 0;
    let attempts = 0;
    while (status !== 429 && attempts < 60) {
      attempts += 1;
      status = (await sprayer.call(login, 'POST', '/api/auth/login', { body: { login: `spray${attempts}@example.com`, password: 'Summer2024!' } })).status;
    }
    expect(status).toBe(429);
    expect(attempts).toBe(51);
  });

  it('a cross-origin state change riding on the cookie is refused (JSON and form posts)', async () => {
    const f = await member('203.0.113.8');
    const json = await f.client.call(profile, 'PUT', '/api/user/profile', {
      origin: 'https://evil.example',
      body: { firstName: 'แฮก', lastName: 'แฮก', phone: f.input.phone },
    });
    expect(json.status).toBe(403);
    expect(json.body.code).toBe('cross_origin');
    const form = await f.client.call(logoutPage, 'POST', '/logout', { origin: 'https://evil.example', rawBody: '', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(403);
    const noOriginCrossSite = await f.client.call(addressList, 'POST', '/api/user/addresses', {
      origin: null,
      headers: { 'sec-fetch-site': 'cross-site' },
      body: { recipientName: 'x', phone: '0812345678', line1: 'x', ...lumphini },
    });
    expect(noOriginCrossSite.status).toBe(403);
    expect((await f.client.call(user, 'GET', '/api/user')).body.data).toMatchObject({ firstName: f.input.firstName });
    expect((await f.client.call(me, 'GET', '/api/auth/me')).status).toBe(200);
    // A Bearer client carries its credential itself: no ambient authority to forge.
    const app = await f.bearer.call(profile, 'PUT', '/api/user/profile', { origin: 'https://app.example', body: { firstName: 'แอป', lastName: 'ทดสอบ', phone: f.input.phone } });
    expect(app.status).toBe(200);
  });

  it('stores SQL and script fragments in every field as plain text', async () => {
    const sqlish = "Robert'); DROP TABLE members;--";
    const script = '<script>alert("x")</script>';
    const g = await member('203.0.113.9', { firstName: sqlish, lastName: script });
    const saved = await addAddress(g.client, { recipientName: script, line1: `${sqlish} ${script} ' OR 1=1 --` });
    const list = (await g.client.call(getMemberAddress, 'POST', '/api/get-member-address/')).body.data as AddressOut[];
    expect(list[0]).toMatchObject({ id: saved.id, recipientName: script, line1: `${sqlish} ${script} ' OR 1=1 --` });
    const self = (await g.client.call(user, 'GET', '/api/user')).body.data;
    expect(self).toMatchObject({ firstName: sqlish, lastName: script });
    const db = await database();
    const [count] = await db.rows<{ n: number }>(sql`select count(*)::int as n from members`);
    expect(count!.n).toBeGreaterThan(1);
    const injectedLogin = await new TestClient('203.0.113.10').call(login, 'POST', '/api/auth/login', { body: { login: "' OR '1'='1' --@x", password: "' OR '1'='1" } });
    expect(injectedLogin.status).toBe(401);
  });
});
