import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { addresses } from '../db/schema.ts';
import type { Address } from '../members/member.types.ts';

type AddressRow = typeof addresses.$inferSelect;
export type AddressValues = Omit<Address, 'id' | 'isDefault'>;

export function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    recipientName: row.recipientName,
    phone: row.phone,
    line1: row.line1,
    subdistrict: row.subdistrict,
    district: row.district,
    province: row.province,
    postcode: row.postcode,
    isDefault: row.isDefault,
  };
}

// Every query is scoped by member: another member's address id simply matches nothing.

export async function listForMember(db: DbOrTx, memberId: string): Promise<AddressRow[]> {
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.memberId, memberId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id));
}

export async function countForMember(db: DbOrTx, memberId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(addresses).where(eq(addresses.memberId, memberId));
  return Number(row?.n ?? 0);
}

export async function findForMember(db: DbOrTx, memberId: string, id: string): Promise<AddressRow | null> {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.memberId, memberId), eq(addresses.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertAddress(db: DbOrTx, memberId: string, values: AddressValues, isDefault: boolean): Promise<AddressRow> {
  const [row] = await db.insert(addresses).values({ ...values, memberId, isDefault }).returning();
  if (!row) throw new Error('address insert returned no row');
  return row;
}

export async function updateAddress(db: DbOrTx, memberId: string, id: string, values: AddressValues): Promise<AddressRow | null> {
  const [row] = await db
    .update(addresses)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(addresses.memberId, memberId), eq(addresses.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteAddress(db: DbOrTx, memberId: string, id: string): Promise<AddressRow | null> {
  const [row] = await db
    .delete(addresses)
    .where(and(eq(addresses.memberId, memberId), eq(addresses.id, id)))
    .returning();
  return row ?? null;
}

/** Makes one address the default and clears the flag on the member's others. */
export async function setDefault(db: DbOrTx, memberId: string, id: string): Promise<void> {
  await db.update(addresses).set({ isDefault: false }).where(and(eq(addresses.memberId, memberId), eq(addresses.isDefault, true)));
  await db.update(addresses).set({ isDefault: true, updatedAt: new Date() }).where(and(eq(addresses.memberId, memberId), eq(addresses.id, id)));
}
