import { formatBaht } from '../../lib/money';
import { deliveryEstimates } from '../../lib/delivery';
import type { DeliveryOption } from '../../lib/types';

interface Props {
  options: DeliveryOption[];
  freeShippingMinSatang: number | null;
  goodsSatang: number;
}

/**
 * issue 29: on the cart page, what each delivery option would cost for these goods and how much more
 * reaches free delivery (the same rule the server prices checkout with; a promotion code may lower
 * the goods at checkout, so it is an estimate).
 */
export default function DeliveryEstimates({ options, freeShippingMinSatang, goodsSatang }: Props) {
  if (options.length === 0) return null;
  const { options: estimates, moreForFreeSatang } = deliveryEstimates(options, freeShippingMinSatang, goodsSatang);
  return (
    <div className="mb-3 delivery-estimates" data-testid="delivery-estimates">
      <h2 className="h6 mb-1">ค่าจัดส่งโดยประมาณ</h2>
      {moreForFreeSatang !== null && (
        <p className="small mb-1 text-success fw-semibold" data-testid="free-delivery-gap">
          ซื้อเพิ่มอีก {formatBaht(moreForFreeSatang)} เพื่อรับสิทธิ์ส่งฟรี
        </p>
      )}
      {freeShippingMinSatang !== null && moreForFreeSatang === null && (
        <p className="small mb-1 text-success fw-semibold" data-testid="free-delivery-gap">
          ยอดซื้อถึง {formatBaht(freeShippingMinSatang)} แล้ว ได้รับสิทธิ์ส่งฟรี
        </p>
      )}
      <ul className="list-unstyled small mb-0">
        {estimates.map((option) => (
          <li key={option.code} className="d-flex justify-content-between gap-2 py-1 border-bottom">
            <span>
              {option.name}
              {option.days && <span className="d-block text-secondary">{option.days}</span>}
            </span>
            <span className="text-nowrap">
              {option.freeByAmount ? (
                <>
                  <s className="text-secondary">{formatBaht(option.listedFeeSatang)}</s> ฟรี
                </>
              ) : option.feeSatang === 0 ? (
                'ฟรี'
              ) : (
                formatBaht(option.feeSatang)
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
