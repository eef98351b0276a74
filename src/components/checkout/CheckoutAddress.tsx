import type { AddressView } from '../../lib/orders';

export interface AddressOption extends AddressView {
  id: string;
  isDefault: boolean;
}

interface Props {
  addresses: AddressOption[];
  addressId: string;
  onChoose: (id: string) => void;
  /** issue 29: "รับเองที่หน้าร้าน" is chosen: no delivery address, the shop's pickup place instead. */
  pickup: boolean;
  pickupPlace: { address: string; hours: string };
}

/** Opens the address form at once and comes back to checkout after saving (issue 29). */
export const NEW_ADDRESS_HREF = '/user/account/address?new=1&next=%2Forder';

function addressText(address: AddressView): string {
  return `${address.line1} ${address.subdistrict} ${address.district} ${address.province} ${address.postcode}`;
}

/** The checkout's first card: the delivery address, or where and when to collect a store-pickup order. */
export default function CheckoutAddress({ addresses, addressId, onChoose, pickup, pickupPlace }: Props) {
  if (pickup) {
    return (
      <section className="card" aria-labelledby="checkout-pickup" data-testid="pickup-place">
        <div className="card-body">
          <h2 className="h5 card-title" id="checkout-pickup">
            รับสินค้าที่หน้าร้าน
          </h2>
          <p className="mb-1">{pickupPlace.address || 'ร้านจะแจ้งที่อยู่สำหรับรับสินค้าทางอีเมล'}</p>
          {pickupPlace.hours && <p className="mb-1 small">เวลาเปิดให้รับสินค้า: {pickupPlace.hours}</p>}
          <p className="small text-secondary mb-0">ไม่ต้องใช้ที่อยู่จัดส่ง กรุณานำเลขที่คำสั่งซื้อมาแสดงเมื่อรับสินค้า ร้านจะแจ้งทางอีเมลเมื่อสินค้าพร้อมให้รับ</p>
        </div>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="checkout-address">
      <div className="card-body">
        <h2 className="h5 card-title" id="checkout-address">
          ที่อยู่จัดส่ง
        </h2>
        {addresses.length === 0 ? (
          <div className="alert alert-warning mb-0">
            ยังไม่มีที่อยู่จัดส่ง{' '}
            <a href={NEW_ADDRESS_HREF} className="alert-link">
              เพิ่มที่อยู่ใหม่
            </a>
          </div>
        ) : (
          <div className="d-grid gap-2" role="radiogroup" aria-label="ที่อยู่จัดส่ง">
            {addresses.map((address) => (
              <label key={address.id} className="form-check border rounded p-2 ps-5 mb-0">
                <input
                  className="form-check-input"
                  type="radio"
                  name="address"
                  value={address.id}
                  checked={addressId === address.id}
                  onChange={() => onChoose(address.id)}
                />
                <span className="fw-semibold">{address.recipientName}</span> <span className="text-secondary">{address.phone}</span>
                {address.isDefault && <span className="badge text-bg-success ms-2">ค่าเริ่มต้น</span>}
                <span className="d-block small">{addressText(address)}</span>
              </label>
            ))}
            <a className="small" href={NEW_ADDRESS_HREF}>
              + เพิ่มที่อยู่ใหม่
            </a>
          </div>
        )}
      </div>
    </section>
  );
}
