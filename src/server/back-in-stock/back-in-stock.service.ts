import { getDb } from '../db/client.ts';
import { env } from '../env.ts';
import { AppError, notFound } from '../http/errors.ts';
import { newToken } from '../auth/tokens.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { consume, LIMITS } from '../security/rate-limit.ts';
import { BACK_IN_STOCK } from '../../lib/back-in-stock.ts';
import { variantDisplayName, variantOptions } from '../../lib/variants.ts';
import * as repo from './back-in-stock.repo.ts';

/**
 * Back in stock (docs/decisions/220). A shopper asks to hear when a sold-out variant is back: a member in
 * one click (confirmed at once, mailed at their account's address), a visitor by e-mail after a double
 * opt-in. The restock mail itself is written by the database (drizzle/0020), whichever path writes the
 * stock; a request mailed once is fulfilled. Shopper actions, so no audit rows; the restock's is the trigger's.
 */

export interface BackInStockState {
  variant: string;
  subscribed: boolean;
  message: string;
}

/** What a confirm or cancel link names, for its page. */
export interface RequestView {
  variantCode: string;
  productCode: string;
  name: string;
  link: string;
  confirmed: boolean;
  waiting: boolean;
  inStock: boolean;
}

const variantNotFound = () => notFound('variant_not_found', BACK_IN_STOCK.notFound);
const inStock = () => new AppError(409, 'variant_in_stock', BACK_IN_STOCK.inStock);

export function productLink(productCode: string, variantCode: string): string {
  const path = `/product/${encodeURIComponent(productCode)}${variantCode === productCode ? '' : `?variant=${encodeURIComponent(variantCode)}`}`;
  return new URL(path, env().PUBLIC_SITE_URL).href;
}

export const confirmLink = (token: string) => new URL(`/back-in-stock/confirm?token=${encodeURIComponent(token)}`, env().PUBLIC_SITE_URL).href;
export const cancelLink = (token: string) => new URL(`/back-in-stock/cancel?token=${encodeURIComponent(token)}`, env().PUBLIC_SITE_URL).href;

export function nameOf(variant: repo.RequestVariant): string {
  return variantDisplayName(variant.productName, variantOptions(variant.optionNames, variant.values));
}

/** A member asks: waiting at once. Asking again while waiting says so; after a restock's mail, waits anew. */
export async function subscribeMember(memberId: string, variantCode: string): Promise<BackInStockState & { already: boolean }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const variant = await repo.lockVariantOnSale(tx, variantCode);
    if (!variant) throw variantNotFound();
    if (variant.stock > 0) throw inStock();
    const existing = await repo.findOfMember(tx, variant.id, memberId);
    if (existing && existing.notifiedAt === null) return { variant: variant.code, subscribed: true, already: true, message: BACK_IN_STOCK.already };
    if (existing) await repo.renew(tx, existing.id, { token: newToken(), confirmedAt: new Date() });
    else await repo.insert(tx, { variantId: variant.id, memberId, token: newToken(), confirmedAt: new Date() });
    return { variant: variant.code, subscribed: true, already: false, message: BACK_IN_STOCK.subscribed };
  });
}

/** Whether the member waits for the variant (the product page asks after a member picks a sold-out one). */
export async function memberSubscription(memberId: string, variantCode: string): Promise<BackInStockState> {
  const db = await getDb();
  const variant = await repo.findVariant(db, variantCode);
  if (!variant) throw variantNotFound();
  const existing = await repo.findOfMember(db, variant.id, memberId);
  const subscribed = existing !== null && existing.notifiedAt === null;
  return { variant: variant.code, subscribed, message: subscribed ? BACK_IN_STOCK.already : '' };
}

/** The member no longer waits; cancelling what is not there is fine. */
export async function cancelMember(memberId: string, variantCode: string): Promise<BackInStockState> {
  const db = await getDb();
  const variant = await repo.findVariant(db, variantCode);
  if (!variant) throw variantNotFound();
  await repo.removeOfMember(db, variant.id, memberId);
  return { variant: variant.code, subscribed: false, message: BACK_IN_STOCK.cancelled };
}

/**
 * A visitor asks with an e-mail: a confirmation mail goes out (through the outbox) unless the address
 * already waits for the variant. The answer is the same either way, so it tells nobody who waits for what.
 */
export async function requestByEmail(email: string, variantCode: string, ip: string): Promise<BackInStockState> {
  await consume(LIMITS.backInStockPerIp, ip);
  await consume(LIMITS.backInStockPerEmail, email);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const variant = await repo.lockVariantOnSale(tx, variantCode);
    if (!variant) throw variantNotFound();
    if (variant.stock > 0) throw inStock();
    const existing = await repo.findOfEmail(tx, variant.id, email);
    const answer = { variant: variant.code, subscribed: false, message: BACK_IN_STOCK.confirmSent };
    if (existing && existing.confirmedAt !== null && existing.notifiedAt === null) return answer;
    const token = newToken();
    if (existing) await repo.renew(tx, existing.id, { token, confirmedAt: null });
    else await repo.insert(tx, { variantId: variant.id, email, token });
    await enqueueMail(tx, { kind: 'back_in_stock_confirm', to: email, payload: { variantCode: variant.code, token } });
    return answer;
  });
}

async function viewOf(row: repo.RequestRow | null): Promise<RequestView | null> {
  if (!row) return null;
  const found = await repo.findVariantById(await getDb(), row.variantId);
  if (!found) return null;
  return {
    variantCode: found.code,
    productCode: found.productCode,
    name: nameOf(found),
    link: productLink(found.productCode, found.code),
    confirmed: row.confirmedAt !== null,
    waiting: row.confirmedAt !== null && row.notifiedAt === null,
    inStock: found.stock > 0,
  };
}

const looksLikeRequestToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** What a link's token names (the confirm and cancel pages show it before their button is pressed). */
export async function requestOfToken(token: string): Promise<RequestView | null> {
  if (!looksLikeRequestToken(token)) return null;
  return viewOf(await repo.findByToken(await getDb(), token));
}

/** The visitor pressed the confirm button. Confirmed while in stock already: done, the page says buy now. */
export async function confirmByToken(token: string): Promise<RequestView | null> {
  if (!looksLikeRequestToken(token)) return null;
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const confirmed = await repo.confirm(tx, token);
    if (!confirmed) return null;
    const variant = await repo.findVariantById(tx, confirmed.variantId, true);
    if (variant && variant.stock > 0 && confirmed.notifiedAt === null) {
      await repo.markNotified(tx, confirmed.id);
      return { ...confirmed, notifiedAt: new Date() };
    }
    return confirmed;
  });
  return viewOf(row);
}

/** The cancel link of a confirmation or restock mail: the request is deleted. */
export async function cancelByToken(token: string): Promise<RequestView | null> {
  if (!looksLikeRequestToken(token)) return null;
  const db = await getDb();
  const row = await repo.findByToken(db, token);
  if (!row) return null;
  const view = await viewOf(row);
  await repo.removeById(db, row.id);
  return view && { ...view, waiting: false };
}

/** Confirmed requests not yet mailed, per variant id (the back office's product page). */
export async function waitingCounts(variantIds: readonly number[]): Promise<Map<number, number>> {
  return repo.waitingPerVariant(await getDb(), variantIds);
}

export interface MostWaited {
  variantCode: string;
  productCode: string;
  name: string;
  waiting: number;
}

/** The dashboard's "ลูกค้ารอสินค้า": the variants most customers wait for. */
export async function mostWaitedVariants(limit = 5): Promise<MostWaited[]> {
  const rows = await repo.mostWaited(await getDb(), limit);
  return rows.map((row) => ({ variantCode: row.code, productCode: row.productCode, name: nameOf(row), waiting: row.waiting }));
}
