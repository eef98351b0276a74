import { asc, eq } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { company } from '../db/schema.ts';
import { badRequest, notFound, tooManyRequests } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { findById } from '../members/member.repo.ts';
import { verifyPassword } from '../auth/password.ts';
import { count as countHits, hit, LIMITS, RATE_LIMIT_MESSAGE } from '../security/rate-limit.ts';
import type { CompanySettings, DeliverySettings, GiftSettings, PaymentSettings, PickupSettings, ReviewSettings } from '../../lib/settings-schemas.ts';
import { unknownCarrierCodes } from '../../lib/carriers.ts';

/**
 * The shop settings of /admin/settings: the company record, payment and delivery. Each save is one
 * transaction with its audit row (only the fields that changed, before and after), then the cached
 * pages and the kept company record are dropped so the shop shows the change on the next load.
 */
export type CompanyRow = typeof company.$inferSelect;

async function companyRow(db: DbOrTx, forUpdate = false): Promise<CompanyRow> {
  const query = db.select().from(company).orderBy(asc(company.id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('company_missing', 'ยังไม่มีข้อมูลร้าน');
  return row;
}

export async function settingsForAdmin(): Promise<CompanyRow> {
  return companyRow(await getDb());
}

function changed(before: CompanyRow, values: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const diff = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const [key, value] of Object.entries(values)) {
    const old = before[key as keyof CompanyRow];
    if (JSON.stringify(old) !== JSON.stringify(value)) {
      diff.before[key] = old;
      diff.after[key] = value;
    }
  }
  return diff;
}

async function save(actor: AuditActor, action: string, values: Partial<CompanyRow>): Promise<CompanyRow> {
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    const row = await companyRow(tx, true);
    const diff = changed(row, values);
    if (Object.keys(diff.after).length === 0) return row;
    const [next] = await tx.update(company).set({ ...values, updatedAt: new Date() }).where(eq(company.id, row.id)).returning();
    await recordAudit(tx, actor, { action, entityType: 'settings', entityId: row.code, ...diff });
    return next as CompanyRow;
  });
  await invalidateCatalog({ content: true });
  return updated;
}

export function updateCompanySettings(actor: AuditActor, input: CompanySettings): Promise<CompanyRow> {
  return save(actor, 'settings.update_company', input);
}

/**
 * Delivery options name a carrier from the known list (issue 32, screen 8); a code saved before the list
 * existed is still accepted, anything else is a forged or stale form and is refused in Thai.
 */
export async function updateDeliverySettings(actor: AuditActor, input: DeliverySettings): Promise<CompanyRow> {
  const saved = (await companyRow(await getDb(), false)).deliveryOptions.map((option) => option.code);
  const unknown = unknownCarrierCodes(
    input.deliveryOptions.map((option) => option.code),
    saved,
  );
  if (unknown.length > 0) throw badRequest('carrier_unknown', `กรุณาเลือกขนส่งจากรายการ (ไม่รู้จัก "${unknown[0]}")`, { code: 'กรุณาเลือกขนส่งจากรายการ' });
  return save(actor, 'settings.update_delivery', input);
}

/**
 * Payment changes decide where customers' money goes, so they ask for the owner's password again
 * (docs/design.md section 10); failures count toward the same limit as a wrong current password.
 */
export async function updatePaymentSettings(actor: AuditActor, memberId: string, password: string, input: PaymentSettings): Promise<CompanyRow> {
  if ((await countHits(LIMITS.passwordChangeFail, memberId)) >= LIMITS.passwordChangeFail.max) throw tooManyRequests(RATE_LIMIT_MESSAGE);
  const member = await findById(await getDb(), memberId);
  if (!member || !password || !(await verifyPassword(member.passwordHash, password))) {
    await hit(LIMITS.passwordChangeFail, memberId);
    throw badRequest('password_wrong', 'รหัสผ่านไม่ถูกต้อง การตั้งค่าการชำระเงินยังไม่ถูกบันทึก', { password: 'รหัสผ่านไม่ถูกต้อง' });
  }
  return save(actor, 'settings.update_payment', input);
}

/** issue 29: the store pickup place and hours, and the days until a shipped order counts as received. */
export function updatePickupSettings(actor: AuditActor, input: PickupSettings): Promise<CompanyRow> {
  return save(actor, 'settings.update_pickup', input);
}

/** issue 31 part 6: the wrapping options and the message card's price (decision 221). */
export function updateGiftSettings(actor: AuditActor, input: GiftSettings): Promise<CompanyRow> {
  return save(actor, 'settings.update_gift', input);
}

/** issue 31 part 3: reviews wait for approval or publish at once; the invite mail after delivery (decision 226). */
export function updateReviewSettings(actor: AuditActor, input: ReviewSettings): Promise<CompanyRow> {
  return save(actor, 'settings.update_reviews', input);
}
