import { env } from '../env.ts';
import { sendMail } from '../mail/mailer.ts';
import { formatBahtExact } from '../../lib/money.ts';
import { paymentMethodLabels, type OrderView } from '../../lib/orders.ts';

export type OrderMailKind = 'placed' | 'paid' | 'shipped' | 'cancelled';

const subjects: Record<OrderMailKind, (no: string) => string> = {
  placed: (no) => `ได้รับคำสั่งซื้อ ${no} แล้ว`,
  paid: (no) => `ยืนยันการชำระเงินคำสั่งซื้อ ${no}`,
  shipped: (no) => `คำสั่งซื้อ ${no} จัดส่งแล้ว`,
  cancelled: (no) => `คำสั่งซื้อ ${no} ถูกยกเลิก`,
};

/** Plain-text order mails (placed, payment confirmed, shipped with tracking, cancelled or expired). */
export function orderMailText(order: OrderView, kind: OrderMailKind): string {
  const site = env().PUBLIC_SITE_URL.replace(/\/$/, '');
  const lines = order.lines.map((line) => `- ${line.productName} × ${line.amount} = ${formatBahtExact(line.lineTotalSatang)}`);
  const head: Record<OrderMailKind, string[]> = {
    placed:
      order.paymentMethod === 'cod'
        ? ['ขอบคุณสำหรับคำสั่งซื้อ เราจะจัดส่งสินค้าโดยเร็วและเก็บเงินเมื่อสินค้าถึงมือคุณ']
        : ['ขอบคุณสำหรับคำสั่งซื้อ กรุณาชำระเงินและแนบสลิปภายในเวลาที่กำหนด', `ชำระเงิน: ${site}/order/payment?no=${order.orderNo}`],
    paid: ['เราได้รับการชำระเงินแล้ว และกำลังเตรียมจัดส่งสินค้า'],
    shipped: [
      `สินค้าของคุณจัดส่งแล้วทาง ${order.carrier ?? order.deliveryName}`,
      ...(order.trackingNo ? [`เลขพัสดุ: ${order.trackingNo}`] : []),
      ...(order.trackingUrl ? [`ติดตามพัสดุ: ${order.trackingUrl}`] : []),
    ],
    cancelled: [order.status === 'expired' ? 'คำสั่งซื้อนี้หมดเวลาชำระเงินและถูกยกเลิกแล้ว' : 'คำสั่งซื้อนี้ถูกยกเลิกแล้ว'],
  };
  return [
    `เลขที่คำสั่งซื้อ: ${order.orderNo}`,
    ...head[kind],
    '',
    ...lines,
    `ค่าจัดส่ง: ${formatBahtExact(order.shippingFeeSatang)}`,
    ...(order.discountSatang > 0 ? [`ส่วนลด: -${formatBahtExact(order.discountSatang)}`] : []),
    `ยอดรวม: ${formatBahtExact(order.totalSatang)} (รวมภาษีมูลค่าเพิ่ม ${formatBahtExact(order.vatSatang)})`,
    `วิธีชำระเงิน: ${paymentMethodLabels[order.paymentMethod]}`,
    '',
    `ดูสถานะคำสั่งซื้อ: ${site}/order/delivery?no=${order.orderNo}`,
  ].join('\n');
}

export async function sendOrderMail(order: OrderView, to: string, kind: OrderMailKind): Promise<void> {
  await sendMail({ to, subject: subjects[kind](order.orderNo), text: orderMailText(order, kind) });
}
