import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as disableRoute from '../../src/pages/admin/members/[id]/disable';
import { getDb } from '../../src/server/db/client';
import { auditLog, memberBlocks } from '../../src/server/db/schema';
import { setMemberDisabled } from '../../src/server/admin/members-admin.service';
import { adminCallers, CALLERS, form, type AdminCallers, type Caller } from '../fixtures/admin';
import { createMember } from '../fixtures/orders';

/** Issue 32: only the owner changes a team member's disabled state, both ways. */

let callers: AdminCallers;

beforeAll(async () => {
  callers = await adminCallers();
});

const json = { accept: 'application/json' };

async function disabledByOwner(scopes: string[]): Promise<string> {
  const target = await createMember({ scopes });
  const owner = callers.members.owner;
  await setMemberDisabled({ id: owner.id, email: owner.email, role: 'owner', via: 'web' }, target.id, true, 'เจ้าของร้านระงับ');
  return target.id;
}

async function isDisabled(memberId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db.select().from(memberBlocks).where(eq(memberBlocks.memberId, memberId));
  return rows.length > 0;
}

async function auditRows(memberId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, memberId));
  return rows.map((row) => row.action);
}

describe('POST /admin/members/{id}/disable on a team account the owner disabled', () => {
  const expected: Record<Caller, number> = { anonymous: 404, member: 404, editor: 403, staff: 403, owner: 200 };
  for (const caller of CALLERS) {
    for (const teamRole of ['staff', 'editor', 'owner']) {
      it(`enable a disabled ${teamRole} as ${caller}: ${expected[caller]}`, async () => {
        const target = await disabledByOwner([teamRole]);
        const enabled = await callers.clients[caller].call(disableRoute, 'POST', `/admin/members/${target}/disable`, {
          ...form({ disabled: 'false' }),
          headers: json,
          params: { id: target },
        });
        expect(enabled.status, JSON.stringify(enabled.body)).toBe(expected[caller]);
        expect(await isDisabled(target)).toBe(caller !== 'owner');
        expect((await auditRows(target)).includes('member.enable')).toBe(caller === 'owner');
        if (caller === 'staff') {
          expect(enabled.body.code).toBe('forbidden');
          expect(enabled.body.message).toBe('เฉพาะเจ้าของร้านเท่านั้นที่เปิดใช้งานบัญชีของทีมงานอีกครั้งได้');
        }
      });
    }
  }

  it('staff still disable and enable a plain customer; a team account only the owner disables', async () => {
    const customer = await createMember();
    const staff = callers.clients.staff;
    const off = await staff.call(disableRoute, 'POST', `/admin/members/${customer.id}/disable`, { ...form({ disabled: 'true', reason: 'ไม่รับของ' }), headers: json, params: { id: customer.id } });
    expect(off.status).toBe(200);
    expect(await isDisabled(customer.id)).toBe(true);
    const on = await staff.call(disableRoute, 'POST', `/admin/members/${customer.id}/disable`, { ...form({ disabled: 'false' }), headers: json, params: { id: customer.id } });
    expect(on.status).toBe(200);
    expect(await isDisabled(customer.id)).toBe(false);

    const colleague = await createMember({ scopes: ['staff'] });
    const refused = await staff.call(disableRoute, 'POST', `/admin/members/${colleague.id}/disable`, { ...form({ disabled: 'true', reason: 'x' }), headers: json, params: { id: colleague.id } });
    expect(refused.status).toBe(403);
    expect(await isDisabled(colleague.id)).toBe(false);
  });
});
