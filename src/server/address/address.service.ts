import type { z } from 'zod';
import type { addressSchema } from '../../lib/account-schemas.ts';
import { getDb } from '../db/client.ts';
import { AppError, notFound } from '../http/errors.ts';
import type { Address } from '../members/member.types.ts';
import {
  countForMember,
  deleteAddress,
  findForMember,
  insertAddress,
  listForMember,
  setDefault,
  toAddress,
  updateAddress,
  type AddressValues,
} from './address.repo.ts';
import { matchPlace } from './thai-address.ts';

export const MAX_ADDRESSES = 20;
type AddressInput = z.output<typeof addressSchema>;

const addressNotFound = () => notFound('address_not_found', 'ไม่พบที่อยู่นี้');

/** Refuses a subdistrict/district/province/postcode set that does not exist together; stores the canonical names. */
function checkedValues(input: AddressInput): AddressValues {
  const place = matchPlace(input);
  if (!place) {
    const message = 'ตำบล/แขวง อำเภอ/เขต จังหวัด และรหัสไปรษณีย์ไม่ตรงกัน กรุณาเลือกจากรายการที่แนะนำ';
    throw new AppError(400, 'address_mismatch', message, { subdistrict: message });
  }
  return { recipientName: input.recipientName, phone: input.phone, line1: input.line1, ...place };
}

export async function listAddresses(memberId: string): Promise<Address[]> {
  return (await listForMember(await getDb(), memberId)).map(toAddress);
}

export async function getAddress(memberId: string, id: string): Promise<Address> {
  const row = await findForMember(await getDb(), memberId, id);
  if (!row) throw addressNotFound();
  return toAddress(row);
}

export async function addAddress(memberId: string, input: AddressInput): Promise<Address> {
  const values = checkedValues(input);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const existing = await countForMember(tx, memberId);
    if (existing >= MAX_ADDRESSES) throw new AppError(400, 'address_limit', `บันทึกที่อยู่ได้ไม่เกิน ${MAX_ADDRESSES} รายการ`);
    // The first address is the default without asking.
    const makeDefault = existing === 0 || input.isDefault;
    const row = await insertAddress(tx, memberId, values, false);
    if (makeDefault) await setDefault(tx, memberId, row.id);
    return { ...toAddress(row), isDefault: makeDefault };
  });
}

export async function editAddress(memberId: string, id: string, input: AddressInput): Promise<Address> {
  const values = checkedValues(input);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await updateAddress(tx, memberId, id, values);
    if (!row) throw addressNotFound();
    if (input.isDefault && !row.isDefault) {
      await setDefault(tx, memberId, id);
      return { ...toAddress(row), isDefault: true };
    }
    return toAddress(row);
  });
}

export async function removeAddress(memberId: string, id: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const removed = await deleteAddress(tx, memberId, id);
    if (!removed) throw addressNotFound();
    if (removed.isDefault) {
      // Keep one default while any address is left.
      const [next] = await listForMember(tx, memberId);
      if (next) await setDefault(tx, memberId, next.id);
    }
  });
}

export async function makeDefault(memberId: string, id: string): Promise<Address> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await findForMember(tx, memberId, id);
    if (!row) throw addressNotFound();
    await setDefault(tx, memberId, id);
    return { ...toAddress(row), isDefault: true };
  });
}
