import { describe, expect, it } from 'vitest';
import { nextStatus, returnsStock, tabOf, trackingLink, type ActorType, type OrderAction, type OrderStatus, type PaymentMethod } from '../../src/lib/orders';
import { sniffImage } from '../../src/server/orders/slip-storage';

type Row = [OrderStatus, PaymentMethod, OrderAction, ActorType, OrderStatus | null];

// The status machine of docs/design.md section 8, one row per question "may this actor do this now?".
const table: Row[] = [
  ['pending_payment', 'promptpay', 'upload_slip', 'member', 'payment_review'],
  ['payment_review', 'promptpay', 'upload_slip', 'member', 'payment_review'],
  ['paid', 'promptpay', 'upload_slip', 'member', null],
  ['paid', 'cod', 'upload_slip', 'member', null],
  ['pending_payment', 'cod', 'upload_slip', 'member', null],
  ['pending_payment', 'promptpay', 'upload_slip', 'staff', null],
  ['pending_payment', 'bank_transfer', 'confirm_payment', 'staff', 'paid'],
  ['payment_review', 'promptpay', 'confirm_payment', 'staff', 'paid'],
  ['payment_review', 'promptpay', 'confirm_payment', 'member', null],
  ['paid', 'promptpay', 'confirm_payment', 'staff', null],
  ['payment_review', 'promptpay', 'reject_slip', 'staff', 'pending_payment'],
  ['pending_payment', 'promptpay', 'reject_slip', 'staff', null],
  ['payment_review', 'promptpay', 'reject_slip', 'member', null],
  ['paid', 'promptpay', 'ship', 'staff', 'shipped'],
  ['paid', 'cod', 'ship', 'staff', 'shipped'],
  ['payment_review', 'promptpay', 'ship', 'staff', null],
  ['paid', 'promptpay', 'ship', 'member', null],
  ['shipped', 'promptpay', 'deliver', 'staff', 'delivered'],
  ['paid', 'promptpay', 'deliver', 'staff', null],
  ['shipped', 'promptpay', 'deliver', 'member', null],
  ['pending_payment', 'promptpay', 'cancel', 'member', 'cancelled'],
  ['payment_review', 'promptpay', 'cancel', 'member', 'cancelled'],
  ['paid', 'promptpay', 'cancel', 'member', null],
  ['paid', 'cod', 'cancel', 'member', 'cancelled'],
  ['paid', 'promptpay', 'cancel', 'staff', 'cancelled'],
  ['shipped', 'promptpay', 'cancel', 'staff', null],
  ['shipped', 'cod', 'cancel', 'member', null],
  ['delivered', 'promptpay', 'cancel', 'staff', null],
  ['cancelled', 'promptpay', 'cancel', 'staff', null],
  ['expired', 'promptpay', 'cancel', 'member', null],
  ['pending_payment', 'promptpay', 'expire', 'system', 'expired'],
  ['pending_payment', 'promptpay', 'expire', 'staff', 'expired'],
  ['payment_review', 'promptpay', 'expire', 'system', null],
  ['paid', 'cod', 'expire', 'system', null],
  ['pending_payment', 'promptpay', 'expire', 'member', null],
  ['pending_payment', 'promptpay', 'cancel', 'system', null],
];

describe('order status machine', () => {
  it.each(table)('%s (%s): %s by %s → %s', (status, paymentMethod, action, actor, expected) => {
    expect(nextStatus({ status, paymentMethod }, action, actor)).toBe(expected);
  });

  it('gives stock back only when leaving a live status for cancelled or expired', () => {
    expect(returnsStock('pending_payment', 'cancelled')).toBe(true);
    expect(returnsStock('paid', 'cancelled')).toBe(true);
    expect(returnsStock('pending_payment', 'expired')).toBe(true);
    expect(returnsStock('cancelled', 'cancelled')).toBe(false);
    expect(returnsStock('paid', 'shipped')).toBe(false);
  });

  it('files each status under one My Purchase tab', () => {
    expect(tabOf('pending_payment')).toBe('to-pay');
    expect(tabOf('payment_review')).toBe('to-pay');
    expect(tabOf('paid')).toBe('to-ship');
    expect(tabOf('shipped')).toBe('to-receive');
    expect(tabOf('delivered')).toBe('completed');
    expect(tabOf('cancelled')).toBe('cancelled');
    expect(tabOf('expired')).toBe('cancelled');
  });

  it('builds carrier tracking links', () => {
    expect(trackingLink('https://track.example/?n={tracking}', 'EF 123')).toBe('https://track.example/?n=EF%20123');
    expect(trackingLink(null, 'X')).toBeNull();
    expect(trackingLink('https://t/{tracking}', null)).toBeNull();
  });
});

describe('slip sniffing', () => {
  it('recognises JPEG, PNG and WebP by their bytes only', () => {
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe('jpg');
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))?.ext).toBe('png');
    expect(sniffImage(new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))?.ext).toBe('webp');
    expect(sniffImage(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50]))).toBeNull();
  });
});
