/**
 * Back in stock (docs/decisions/220): the words the product page, its script and the endpoints share.
 * Pure words, no zod: the product page's script imports them (schemas: back-in-stock-schemas.ts).
 */
export const BACK_IN_STOCK = {
  button: 'แจ้งเตือนเมื่อมีสินค้า',
  subscribed: 'เราจะแจ้งทางอีเมลเมื่อสินค้ามีอีกครั้ง',
  already: 'คุณขอรับการแจ้งเตือนสินค้านี้ไว้แล้ว เราจะแจ้งทางอีเมลเมื่อสินค้ามีอีกครั้ง',
  cancel: 'ยกเลิกการแจ้งเตือน',
  cancelled: 'ยกเลิกการแจ้งเตือนแล้ว',
  emailLabel: 'อีเมลของคุณ',
  confirmSent: 'เราส่งอีเมลยืนยันไปให้แล้ว กรุณากดลิงก์ในอีเมลเพื่อเริ่มรับการแจ้งเตือน',
  inStock: 'สินค้านี้ยังมีอยู่ สั่งซื้อได้เลย',
  notFound: 'ไม่พบสินค้านี้',
} as const;
