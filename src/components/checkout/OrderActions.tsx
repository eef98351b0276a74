import type { SweetAlertOptions } from 'sweetalert2';
import { useState } from 'react';
import { addToCart } from '../../stores/cart';

interface Line {
  productCode: string;
  productName: string;
  productImage: string | null;
  unitPriceSatang: number;
  amount: number;
}

interface Props {
  orderNo: string;
  canPay: boolean;
  canCancel: boolean;
  /** issue 29: the order's member may say the parcel arrived (ได้รับสินค้าแล้ว). */
  canReceive?: boolean;
  lines: Line[];
  /** Off where the buttons stand beside one question (the order page's "received" notice). */
  buyAgain?: boolean;
  size?: 'sm' | 'md';
}

/** Pay now, cancel (after a confirmation), say it arrived and buy again, for one order. */
export default function OrderActions({ orderNo, canPay, canCancel, canReceive = false, lines, buyAgain: showBuyAgain = true, size = 'sm' }: Props) {
  const [busy, setBusy] = useState(false);
  const button = size === 'sm' ? 'btn btn-sm' : 'btn';
  const no = encodeURIComponent(orderNo);

  /** Asks once, then sends the member's status change and goes to `then`; a refusal is shown in Thai. */
  async function changeStatus(action: 'cancel' | 'receive', question: SweetAlertOptions, then: string, failed: string) {
    const { default: Swal } = await import('sweetalert2');
    const answer = await Swal.fire({ showCancelButton: true, ...question });
    if (!answer.isConfirmed) return;
    setBusy(true);
    try {
      const response = await fetch('/api/order-status-update', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ no: orderNo, action }),
      });
      if (response.ok) {
        window.location.assign(then);
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      await Swal.fire({ title: 'แจ้งเตือน', text: body.message ?? failed, icon: 'error', confirmButtonText: 'ตกลง' });
    } catch {
      await Swal.fire({ title: 'แจ้งเตือน', text: 'เชื่อมต่อไม่สำเร็จ กรุณาลองใหม่', icon: 'error', confirmButtonText: 'ตกลง' });
    }
    setBusy(false);
  }

  const cancel = () =>
    changeStatus(
      'cancel',
      {
        title: 'ยกเลิกคำสั่งซื้อนี้ ?',
        text: `คำสั่งซื้อ ${orderNo} จะถูกยกเลิก คุณจะไม่สามารถย้อนกลับได้ !`,
        icon: 'warning',
        confirmButtonText: 'ยืนยันการยกเลิก',
        cancelButtonText: 'ปิด',
        confirmButtonColor: '#dc3545',
        focusCancel: true,
      },
      `/order/cancel?no=${no}`,
      'ยกเลิกคำสั่งซื้อไม่สำเร็จ',
    );

  const receive = () =>
    changeStatus(
      'receive',
      {
        title: 'ได้รับสินค้าครบแล้วใช่ไหม ?',
        text: `ยืนยันว่าได้รับสินค้าของคำสั่งซื้อ ${orderNo} ครบและเรียบร้อยแล้ว`,
        icon: 'question',
        confirmButtonText: 'ได้รับสินค้าแล้ว',
        cancelButtonText: 'ยังไม่ได้รับ',
        confirmButtonColor: '#1e7b2c',
      },
      `/order/delivery?no=${no}`,
      'ยืนยันการรับสินค้าไม่สำเร็จ',
    );

  function buyAgain() {
    for (const line of lines) {
      addToCart({
        product_code: line.productCode,
        product_name: line.productName,
        product_price: line.unitPriceSatang / 100,
        product_image: line.productImage,
        amount: line.amount,
      });
    }
    window.location.assign('/cart');
  }

  // Receiving, cancelling and buying again are requests a script makes: without one they are not offered (docs/decisions/188).
  return (
    <div className="d-flex flex-wrap gap-2 justify-content-end order-actions">
      {canPay && (
        <a className={`${button} btn-warning`} href={`/order/payment?no=${no}`}>
          ชำระเงิน
        </a>
      )}
      {canReceive && (
        <button type="button" className={`${button} btn-success needs-js`} disabled={busy} onClick={() => void receive()}>
          ได้รับสินค้าแล้ว
        </button>
      )}
      {canCancel && (
        <button type="button" className={`${button} btn-outline-danger needs-js`} disabled={busy} onClick={() => void cancel()}>
          ยกเลิกคำสั่งซื้อ
        </button>
      )}
      {showBuyAgain && (
        <button type="button" className={`${button} btn-outline-success needs-js`} onClick={buyAgain}>
          ซื้ออีกครั้ง
        </button>
      )}
    </div>
  );
}
