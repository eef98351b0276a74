import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { members } from '../db/schema.ts';
import type { MemberProfile } from './member.types.ts';

type MemberRow = typeof members.$inferSelect;

export function toProfile(row: MemberRow): MemberProfile {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    birthday: row.birthday ?? null,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findById(db: DbOrTx, id: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row ?? null;
}

export async function findByEmail(db: DbOrTx, email: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(sql`lower(${members.email}) = ${email.toLowerCase()}`).limit(1);
  return row ?? null;
}

export async function findByPhone(db: DbOrTx, phone: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(eq(members.phone, phone)).limit(1);
  return row ?? null;
}

export async function phoneUsedByOther(db: DbOrTx, phone: string, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.phone, phone), ne(members.id, memberId)))
    .limit(1);
  return Boolean(row);
}

export async function insertMember(
  db: DbOrTx,
  values: { firstName: string; lastName: string; email: string; phone: string; passwordHash: string },
): Promise<MemberRow> {
  const [row] = await db.insert(members).values(values).returning();
  if (!row) throw new Error('member insert returned no row');
  return row;
}

export async function updateProfile(
  db: DbOrTx,
  id: string,
  values: { firstName: string; lastName: string; phone: string; birthday: string | null },
): Promise<MemberRow | null> {
  const [row] = await db
    .update(members)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(members.id, id))
    .returning();
  return row ?? null;
}

export async function updatePasswordHash(db: DbOrTx, id: string, passwordHash: string): Promise<void> {
  await db.update(members).set({ passwordHash, updatedAt: new Date() }).where(eq(members.id, id));
}
