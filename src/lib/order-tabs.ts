/** The My Purchase tabs (docs/design.md section 5) and the order statuses each one shows. */
export const ORDER_TABS = [
  { key: 'all', label: 'ทั้งหมด', statuses: [] },
  { key: 'to-pay', label: 'ที่ต้องชำระ', statuses: ['pending_payment', 'payment_review'] },
  { key: 'to-ship', label: 'ที่ต้องจัดส่ง', statuses: ['paid'] },
  { key: 'to-receive', label: 'ที่ต้องได้รับ', statuses: ['shipped'] },
  { key: 'completed', label: 'สำเร็จแล้ว', statuses: ['delivered'] },
  { key: 'cancelled', label: 'ยกเลิกแล้ว', statuses: ['cancelled', 'expired'] },
] as const;

export type OrderTab = (typeof ORDER_TABS)[number];
export type OrderTabKey = OrderTab['key'];

export function orderTab(key: string | null | undefined): OrderTab {
  return ORDER_TABS.find((tab) => tab.key === key) ?? ORDER_TABS[0];
}
