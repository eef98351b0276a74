import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { company, members, orders } from '../db/schema.ts';
import { env } from '../env.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { button, colours, logoAttachment, paragraph, renderLayout } from '../mail/templates.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/**
 * issue 31 part 3: after delivery, one mail asks the member to review what they bought (docs/decisions/226).
 * Queued inside the transaction that makes the order `delivered`, whichever path does it (staff, the
 * member's "ได้รับสินค้าแล้ว", the automatic sweep: all go through applyStatusChange), so the mail and the
 * delivery commit together. The order's `review_invite_queued_at` is stamped by the same statement that
 * decides to queue: the order row is locked by then, so two instances or a repeated move queue nothing
 * more. Off when the shop's `company.review_invites` is off; never to a closed account.
 */
export const REVIEW_INVITE_KIND = 'review_invite';

/** Where the member writes the reviews: My Purchase, on the tab of finished orders, each line with its review button. */
export const reviewInviteLink = () => `${site()}/user/purchase?tab=completed`;

const site = () => env().PUBLIC_SITE_URL.replace(/\/$/, '');

/** Queues the invite of a delivered order unless it was queued before or the shop turned invites off. True when queued. */
export async function queueReviewInvite(tx: Tx, orderId: string, now: Date): Promise<boolean> {
  const [stamped] = await tx
    .update(orders)
    .set({ reviewInviteQueuedAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, 'delivered'),
        isNull(orders.reviewInviteQueuedAt),
        sql`coalesce((select ${company.reviewInvites} from ${company} order by ${company.id} limit 1), false)`,
        sql`exists (select 1 from ${members} where ${members.id} = ${orders.memberId} and ${members.closedAt} is null)`,
      ),
    )
    .returning({ orderNo: orders.orderNo, memberId: orders.memberId });
  if (!stamped) return false;
  const [member] = await tx.select({ email: members.email }).from(members).where(eq(members.id, stamped.memberId)).limit(1);
  if (!member?.email) return false;
  await enqueueMail(tx, { kind: REVIEW_INVITE_KIND, to: member.email, payload: { orderNo: stamped.orderNo } });
  return true;
}

/** The plain-text alternative. */
export function reviewInviteText(order: OrderView): string {
  return [
    `สวัสดีคุณ${order.address.recipientName}`,
    '',
    `คำสั่งซื้อ ${order.orderNo} ถึงมือคุณแล้ว ขอบคุณที่สั่งซื้อกับเรา`,
    'ช่วยเล่าให้ลูกค้าคนอื่นฟังหน่อยว่าสินค้าเป็นอย่างไร ให้คะแนนและเขียนรีวิวได้ที่หน้าการสั่งซื้อของฉัน:',
    reviewInviteLink(),
    '',
    ...order.lines.map((line) => `- ${line.productName}`),
    '',
    'รีวิวของคุณช่วยให้ร้านปรับปรุงสินค้าและบริการให้ดีขึ้น',
  ].join('\n');
}

/** The invite, rendered when sent from the order as it is then. */
export async function renderReviewInviteMail(order: OrderView, shop: CompanyInfo): Promise<Omit<MailMessage, 'to'>> {
  const link = reviewInviteLink();
  const lines = order.lines
    .map((line) => `<tr style="border-bottom:1px solid ${colours.line}"><td style="padding:8px 0">${escapeHtml(line.productName)}<br /><span style="color:${colours.muted};font-size:13px">${escapeHtml(line.productCode)}</span></td></tr>`)
    .join('');
  const html = await renderLayout({
    title: 'สินค้าถึงมือคุณแล้ว รีวิวให้เราหน่อยนะ',
    preheader: `ให้คะแนนสินค้าในคำสั่งซื้อ ${order.orderNo}`,
    company: shop,
    site: site(),
    body: [
      paragraph(`สวัสดีคุณ${order.address.recipientName}`),
      paragraph(`คำสั่งซื้อ ${order.orderNo} ถึงมือคุณแล้ว ขอบคุณที่สั่งซื้อกับเรา ช่วยเล่าให้ลูกค้าคนอื่นฟังหน่อยว่าสินค้าเป็นอย่างไร`),
      `<mj-text font-size="15px" color="${colours.muted}">เลขที่คำสั่งซื้อ <strong style="color:${colours.text}">${escapeHtml(order.orderNo)}</strong></mj-text>`,
      `<mj-table>${lines}</mj-table>`,
      button('ให้คะแนนและเขียนรีวิว', link),
      paragraph('รีวิวของคุณช่วยให้ร้านปรับปรุงสินค้าและบริการให้ดีขึ้น', `font-size="14px" color="${colours.muted}"`),
    ].join('\n'),
  });
  return { subject: `รีวิวสินค้าจากคำสั่งซื้อ ${order.orderNo}`, text: reviewInviteText(order), html, attachments: [logoAttachment()] };
}
