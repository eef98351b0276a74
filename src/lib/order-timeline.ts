import { statusLabels, type OrderStatus, type PaymentMethod } from './orders.ts';

/**
 * issue 29: the steps of an order's timeline on /order/delivery, each done, current or still to come,
 * told apart by words as well as colour (a screen reader and a colour-blind shopper read the state).
 * Pure: the page draws it, the unit test checks it.
 */
export type StepState = 'done' | 'current' | 'upcoming';

export interface TimelineStep {
  label: string;
  state: StepState;
  /** When the step was done (done steps only). */
  at: string | null;
  /** The words under the label: the time, "ขั้นตอนปัจจุบัน" or "ขั้นตอนถัดไป". */
  stateText: string;
}

export const stepStateWords: Record<StepState, string> = {
  done: 'เสร็จแล้ว',
  current: 'ขั้นตอนปัจจุบัน',
  upcoming: 'ขั้นตอนถัดไป',
};

interface TimelineOrder {
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
}

const RANK: Record<OrderStatus, number> = {
  pending_payment: 1,
  payment_review: 1,
  paid: 2,
  shipped: 3,
  delivered: 4,
  cancelled: -1,
  expired: -1,
};

/** The four steps of a live order (cancelled and expired orders show no timeline). */
export function orderTimeline(order: TimelineOrder, formatAt: (iso: string) => string): TimelineStep[] {
  const cod = order.paymentMethod === 'cod';
  // Cash on delivery skips paying first: its second step is done as the order is placed.
  const reached = cod ? Math.max(RANK[order.status], 2) : RANK[order.status];
  const payLabel = cod
    ? 'ยืนยันคำสั่งซื้อ (เก็บเงินปลายทาง)'
    : order.status === 'payment_review'
      ? 'รอตรวจสอบสลิป'
      : order.status === 'pending_payment'
        ? statusLabels.pending_payment
        : 'ชำระเงินแล้ว';
  const raw: { label: string; at: string | null }[] = [
    { label: 'สั่งซื้อแล้ว', at: order.createdAt },
    { label: payLabel, at: cod ? order.createdAt : order.paidAt },
    { label: reached >= 3 ? 'จัดส่งแล้ว' : statusLabels.paid, at: order.shippedAt },
    { label: reached >= 4 ? 'ได้รับสินค้าแล้ว' : 'รอรับสินค้า', at: order.deliveredAt },
  ];
  return raw.map((step, index) => {
    // Step n (0-based) is done once the order reached rank n + 1; the first step not done is current.
    const state: StepState = index < reached ? 'done' : index === reached ? 'current' : 'upcoming';
    const at = state === 'done' ? step.at : null;
    return {
      label: step.label,
      state,
      at,
      stateText: state === 'done' ? (at ? `${stepStateWords.done} · ${formatAt(at)}` : stepStateWords.done) : stepStateWords[state],
    };
  });
}
