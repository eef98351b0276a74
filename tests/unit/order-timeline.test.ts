import { describe, expect, it } from 'vitest';
import { orderTimeline } from '../../src/lib/order-timeline';
import type { OrderStatus, PaymentMethod } from '../../src/lib/orders';

const at = '2026-11-20T03:00:00.000Z';
function order(status: OrderStatus, paymentMethod: PaymentMethod = 'promptpay') {
  const past = (s: OrderStatus[]) => (s.includes(status) ? at : null);
  return {
    status,
    paymentMethod,
    createdAt: at,
    paidAt: past(['paid', 'shipped', 'delivered']),
    shippedAt: past(['shipped', 'delivered']),
    deliveredAt: past(['delivered']),
  };
}
const states = (status: OrderStatus, method?: PaymentMethod) => orderTimeline(order(status, method), () => 'เวลา').map((step) => step.state);

describe('order timeline (issue 29)', () => {
  it('marks the step the order waits on as current, in words as well as state', () => {
    const steps = orderTimeline(order('payment_review'), () => 'เวลา');
    expect(steps.map((step) => step.state)).toEqual(['done', 'current', 'upcoming', 'upcoming']);
    expect(steps[1]).toMatchObject({ label: 'รอตรวจสอบสลิป', stateText: 'ขั้นตอนปัจจุบัน' });
    expect(steps[0]!.stateText).toBe('เสร็จแล้ว · เวลา');
    expect(steps[2]!.stateText).toBe('ขั้นตอนถัดไป');
  });

  it('walks through the life of an order', () => {
    expect(states('pending_payment')).toEqual(['done', 'current', 'upcoming', 'upcoming']);
    expect(states('paid')).toEqual(['done', 'done', 'current', 'upcoming']);
    expect(states('shipped')).toEqual(['done', 'done', 'done', 'current']);
    expect(states('delivered')).toEqual(['done', 'done', 'done', 'done']);
    expect(orderTimeline(order('shipped'), () => '').map((step) => step.label)).toEqual(['สั่งซื้อแล้ว', 'ชำระเงินแล้ว', 'จัดส่งแล้ว', 'รอรับสินค้า']);
  });

  it('has cash on delivery past its payment step from the start', () => {
    expect(states('paid', 'cod')).toEqual(['done', 'done', 'current', 'upcoming']);
    expect(orderTimeline(order('paid', 'cod'), () => '')[1]!.label).toBe('ยืนยันคำสั่งซื้อ (เก็บเงินปลายทาง)');
  });
});
