import { getDb } from '../db/client.ts';
import { AppError, conflict, notFound } from '../http/errors.ts';
import { verifyPassword } from '../auth/password.ts';
import { clear, ensureBelow, hit, LIMITS } from '../security/rate-limit.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { getCompany } from '../company/company.service.ts';
import { roleOf } from '../admin/role.ts';
import { statusLabels, type OrderStatus } from '../../lib/orders.ts';
import { toAddress } from '../address/address.repo.ts';
import { wishlistOf } from '../wishlist/wishlist.service.ts';
import { listOfMember as backInStockOf } from '../back-in-stock/back-in-stock.repo.ts';
import { savedCartForStaff } from '../member-cart/member-cart.service.ts';
import * as repo from './account-data.repo.ts';
import { lineAccountOf } from '../auth/line-login.repo.ts';
import { reviewsOfMember } from '../reviews/review-read.service.ts';
import { afterReviewsRemoved, removeReviewsOnClose } from '../reviews/review-write.service.ts';

/**
 * issue 29: the member's rights under Thailand's PDPA from /user/account/profile: a copy of their data
 * (JSON, their own only) and closing the account (decision 184). Closing keeps the orders and tax
 * documents the law requires with the person's details removed, ends every session, and is audited.
 */

/** What closed accounts and their orders say in place of a name. */
export const REMOVED_NAME = 'ผู้ใช้ที่ปิดบัญชีแล้ว';
const REMOVED_ADDRESS = { recipientName: REMOVED_NAME, phone: '', line1: '', subdistrict: '', district: '', province: '', postcode: '' };
/** Orders in these statuses are finished: nothing more is owed either way. */
const FINISHED: readonly OrderStatus[] = ['delivered', 'cancelled', 'expired'];

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);
const baht = (satang: number) => satang / 100;

/** Everything the shop holds about the member, in their own words where it has any (docs/design.md section 4). */
export async function exportMemberData(memberId: string, now = new Date()): Promise<Record<string, unknown>> {
  const db = await getDb();
  const member = await repo.memberRow(db, memberId);
  if (!member || member.closedAt) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
  const [company, addressRows, orderRows, quotationRows, sessionRows, signIns, wishlist, line, cart, backInStock, reviews] = await Promise.all([
    getCompany(),
    repo.addressesOf(db, memberId),
    repo.ordersOf(db, memberId),
    repo.quotationsOf(db, memberId),
    repo.sessionsOf(db, memberId),
    repo.signInAddressesOf(db, memberId),
    wishlistOf(memberId),
    lineAccountOf(db, memberId),
    savedCartForStaff(memberId),
    backInStockOf(db, memberId),
    reviewsOfMember(memberId),
  ]);
  const orderIds = orderRows.map((row) => row.id);
  const [lines, events, receiptRows, invoiceRows, quotationLineRows] = await Promise.all([
    repo.linesOf(db, orderIds),
    repo.eventsOf(db, orderIds),
    repo.receiptsOf(db, orderIds),
    repo.taxInvoicesOf(db, orderIds),
    repo.quotationLinesOf(db, quotationRows.map((row) => row.id)),
  ]);
  return {
    about: `ข้อมูลส่วนบุคคลของคุณที่ ${company.name} เก็บไว้ ณ วันที่ส่งออก จำนวนเงินเป็นบาท เวลาเป็น ISO 8601 (UTC) ดูนโยบายความเป็นส่วนตัวที่ /privacy`,
    exportedAt: now.toISOString(),
    shop: { name: company.name, email: company.email, phone: company.phone },
    profile: {
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      phone: member.phone,
      birthday: member.birthday,
      createdAt: iso(member.createdAt),
      updatedAt: iso(member.updatedAt),
    },
    lineAccount: line ? { displayName: line.displayName, linkedAt: iso(line.linkedAt) } : null,
    addresses: addressRows.map((row) => ({ ...toAddress(row), createdAt: iso(row.createdAt) })),
    wishlist: wishlist.map((item) => ({ code: item.code, name: item.name, addedAt: item.added_at })),
    backInStock: backInStock.map((row) => ({ code: row.code, askedAt: iso(row.createdAt), mailedAt: row.notifiedAt ? iso(row.notifiedAt) : null })),
    reviews: reviews.map((review) => ({
      productCode: review.product_code,
      productName: review.product_name,
      variant: review.variant,
      rating: review.rating,
      body: review.body,
      photos: review.photos.map((photo) => photo.url),
      status: review.status,
      hiddenReason: review.hidden_reason,
      shopAnswer: review.answer,
      createdAt: review.created_at,
    })),
    savedCart: cart.map((line) => ({ code: line.code, name: line.name, quantity: line.quantity, updatedAt: line.updatedAt.toISOString() })),
    orders: orderRows.map((row) => {
      const invoice = invoiceRows.find((entry) => entry.orderId === row.id);
      return {
        orderNo: row.orderNo,
        status: statusLabels[row.status],
        paymentMethod: row.paymentMethod,
        delivery: row.deliveryName,
        address: row.address,
        note: row.note,
        subtotal: baht(row.subtotalSatang),
        discount: baht(row.discountSatang),
        shippingFee: baht(row.shippingFeeSatang),
        total: baht(row.totalSatang),
        promotionCode: row.promotionCode,
        carrier: row.carrier,
        trackingNo: row.trackingNo,
        slipSent: row.slipPath !== null,
        createdAt: iso(row.createdAt),
        paidAt: iso(row.paidAt),
        shippedAt: iso(row.shippedAt),
        deliveredAt: iso(row.deliveredAt),
        cancelledAt: iso(row.cancelledAt),
        lines: lines
          .filter((line) => line.orderId === row.id)
          .map((line) => ({ productCode: line.productCode, productName: line.productName, unitPrice: baht(line.unitPriceSatang), amount: line.amount, lineTotal: baht(line.lineTotalSatang) })),
        history: events
          .filter((event) => event.orderId === row.id)
          .map((event) => ({ status: statusLabels[event.toStatus], by: event.actorType, note: event.note, at: iso(event.createdAt) })),
        receiptNo: receiptRows.find((entry) => entry.orderId === row.id)?.receiptNo ?? null,
        taxInvoice: invoice
          ? { invoiceNo: invoice.invoiceNo, buyerName: invoice.buyerName, buyerAddress: invoice.buyerAddress, buyerTaxId: invoice.buyerTaxId, buyerBranch: invoice.buyerBranch, requestedAt: iso(invoice.requestedAt) }
          : null,
      };
    }),
    quotations: quotationRows.map((row) => ({
      quotationNo: row.quotationNo,
      buyerName: row.buyerName,
      buyerCompany: row.buyerCompany,
      buyerAddress: row.buyerAddress,
      buyerTaxId: row.buyerTaxId,
      buyerPhone: row.buyerPhone,
      total: baht(row.totalSatang),
      validUntil: iso(row.validUntil),
      createdAt: iso(row.createdAt),
      lines: quotationLineRows.filter((line) => line.quotationId === row.id).map((line) => ({ productCode: line.productCode, productName: line.productName, amount: line.amount })),
    })),
    signIns: {
      sessions: sessionRows.map((row) => ({ createdAt: iso(row.createdAt), lastSeenAt: iso(row.lastSeenAt), expiresAt: iso(row.expiresAt), userAgent: row.userAgent, ip: row.ip })),
      addresses: signIns.map((row) => ({ ip: row.ip, lastSignedInAt: iso(row.lastSignedInAt) })),
    },
  };
}

/**
 * Closes the member's own account after their password: refused while an order is still on its way
 * (its money or parcel is still owed) and for a member who holds a back-office role (the owner removes
 * the role first). One transaction: personal details removed, the rows the law keeps kept, every session
 * ended, and the audit row.
 */
export async function closeAccount(memberId: string, password: string, meta: { ip: string }, now = new Date()): Promise<{ orders: number }> {
  await ensureBelow(LIMITS.passwordChangeFail, memberId);
  const db = await getDb();
  const member = await repo.memberRow(db, memberId);
  if (!member || member.closedAt) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
  if (!password || !(await verifyPassword(member.passwordHash, password))) {
    await hit(LIMITS.passwordChangeFail, memberId);
    throw new AppError(400, 'wrong_password', 'รหัสผ่านไม่ถูกต้อง บัญชียังไม่ถูกปิด', { password: 'รหัสผ่านไม่ถูกต้อง' });
  }
  await clear(LIMITS.passwordChangeFail, memberId);
  // Reads the role only to refuse: closing grants nothing.
  if (roleOf(member) !== null) {
    throw conflict('account_has_role', 'บัญชีนี้เป็นบัญชีทีมงานของร้าน ปิดเองไม่ได้ กรุณาให้เจ้าของร้านถอดสิทธิ์ทีมงานก่อน');
  }
  const closed = await db.transaction(async (tx) => {
    const locked = await repo.memberRow(tx, memberId, true);
    if (!locked || locked.closedAt) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
    const open = await repo.openOrderNumbers(tx, memberId, FINISHED);
    if (open.length > 0) {
      throw conflict(
        'orders_open',
        `ยังปิดบัญชีไม่ได้ เพราะมีคำสั่งซื้อที่ยังไม่เสร็จสิ้น (${open.slice(0, 5).join(', ')}${open.length > 5 ? ' …' : ''}) กรุณารอให้ได้รับสินค้าหรือยกเลิกคำสั่งซื้อก่อน`,
      );
    }
    const kept = await repo.eraseMember(tx, memberId, REMOVED_ADDRESS, REMOVED_NAME, now);
    // Their reviews are their words and pictures, not the shop's records: they go (docs/decisions/224).
    const reviews = await removeReviewsOnClose(tx, memberId);
    await recordAudit(
      tx,
      { id: memberId, email: REMOVED_NAME, role: 'member', via: 'web', ip: meta.ip },
      {
        action: 'member.close_account',
        entityType: 'member',
        entityId: memberId,
        after: { closedAt: now.toISOString(), ordersKept: kept.orders, quotationsKept: kept.quotations, reviewsRemoved: reviews.count },
        note: 'สมาชิกปิดบัญชีเอง: ลบข้อมูลส่วนบุคคลแล้ว เก็บคำสั่งซื้อและเอกสารภาษีตามที่กฎหมายกำหนด',
      },
    );
    return { orders: kept.orders, reviews };
  });
  await afterReviewsRemoved(closed.reviews);
  return { orders: closed.orders };
}
