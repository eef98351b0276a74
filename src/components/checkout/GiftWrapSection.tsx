import { containsLink, graphemeCount, GIFT_MESSAGE_MAX, type GiftRequest, type GiftWrapOption } from '../../lib/gift-wrap';
import { formatBaht } from '../../lib/money';
import { pictureAtLeast } from '../../lib/pictures';

/**
 * issue 31 part 6: the checkout's `ห่อของขวัญ` card. No wrapping, one wrapping for the whole order, or one
 * per line (each line charged once, whatever its amount: decision 221); a card message counted as a
 * reader counts (an emoji is one) with no links; and prices left off the packing slip for a gift sent
 * to someone else (the address chosen above is the recipient's). Wrappings with a picture are shown as a
 * row of small pictures with their names and prices above the choice.
 */
export type GiftMode = 'none' | 'order' | 'lines';

export interface GiftChoice {
  mode: GiftMode;
  orderWrap: string;
  lineWraps: Record<string, string>;
  message: string;
  hidePrices: boolean;
}

export const emptyGift: GiftChoice = { mode: 'none', orderWrap: '', lineWraps: {}, message: '', hidePrices: false };

/** The Thai reason a message cannot go on the card, or '' when it can. */
export function giftMessageProblem(message: string): string {
  if (graphemeCount(message.trim()) > GIFT_MESSAGE_MAX) return `ข้อความบนการ์ดยาวได้ไม่เกิน ${GIFT_MESSAGE_MAX} ตัวอักษร`;
  if (containsLink(message)) return 'ข้อความบนการ์ดใส่ลิงก์หรือที่อยู่เว็บไซต์ไม่ได้';
  return '';
}

/** The `gift` of /api/orders; undefined when nothing was asked. `forQuote`: the card's words do not change its price. */
export function giftRequest(choice: GiftChoice, forQuote = false): GiftRequest | undefined {
  const lineWraps = Object.fromEntries(Object.entries(choice.lineWraps).filter(([, code]) => code !== ''));
  const message = choice.message.trim();
  const request: GiftRequest = {
    ...(choice.mode === 'order' && choice.orderWrap ? { wrap_code: choice.orderWrap } : {}),
    ...(choice.mode === 'lines' && Object.keys(lineWraps).length > 0 ? { line_wraps: lineWraps } : {}),
    ...(message ? { message: forQuote ? 'การ์ด' : message } : {}),
    ...(choice.hidePrices ? { hide_prices: true } : {}),
  };
  return Object.keys(request).length > 0 ? request : undefined;
}

interface Props {
  options: GiftWrapOption[];
  cardPriceSatang: number;
  lines: { product_code: string; product_name: string; amount: number }[];
  value: GiftChoice;
  onChange: (value: GiftChoice) => void;
}

export default function GiftWrapSection({ options, cardPriceSatang, lines, value, onChange }: Props) {
  const set = (patch: Partial<GiftChoice>) => onChange({ ...value, ...patch });
  const count = graphemeCount(value.message.trim());
  const problem = giftMessageProblem(value.message);
  const optionLabel = (option: GiftWrapOption) => `${option.name} (${formatBaht(option.priceSatang)})`;
  const modes: { mode: GiftMode; label: string }[] = [
    { mode: 'none', label: 'ไม่ห่อ' },
    { mode: 'order', label: 'ห่อรวมทั้งคำสั่งซื้อ' },
    { mode: 'lines', label: 'ห่อแยกแต่ละรายการ (คิดราคาต่อรายการ)' },
  ];
  return (
    <section className="card" aria-labelledby="checkout-gift" data-testid="gift-section">
      <div className="card-body">
        <h2 className="h5 card-title" id="checkout-gift">
          ห่อของขวัญ
        </h2>
        {options.length > 0 && (
          <fieldset className="mb-3">
            <legend className="form-label small mb-1">การห่อ</legend>
            {options.some((option) => option.picture) && (
              <ul className="list-unstyled d-flex flex-wrap gap-3 mb-2" data-testid="gift-wrap-pictures">
                {options.map((option) => (
                  <li key={option.code} className="d-flex align-items-center gap-2 small">
                    {option.picture && <img src={pictureAtLeast(option.picture, 96)} alt={option.name} width={48} height={48} loading="lazy" decoding="async" className="rounded border object-fit-cover flex-shrink-0" />}
                    <span>
                      {option.name}
                      <span className="d-block text-secondary">{formatBaht(option.priceSatang)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <div className="d-flex flex-wrap gap-3">
              {modes.map(({ mode, label }) => (
                <div className="form-check" key={mode}>
                  <input className="form-check-input" type="radio" name="gift-mode" id={`gift-mode-${mode}`} checked={value.mode === mode} onChange={() => set({ mode, orderWrap: mode === 'order' ? value.orderWrap || (options[0]?.code ?? '') : value.orderWrap })} />
                  <label className="form-check-label" htmlFor={`gift-mode-${mode}`}>
                    {label}
                  </label>
                </div>
              ))}
            </div>
            {value.mode === 'order' && (
              <div className="mt-2">
                <label className="form-label small mb-1" htmlFor="gift-order-wrap">
                  แบบห่อ
                </label>
                <select id="gift-order-wrap" className="form-select" value={value.orderWrap} onChange={(event) => set({ orderWrap: event.target.value })}>
                  {options.map((option) => (
                    <option key={option.code} value={option.code}>
                      {optionLabel(option)}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {value.mode === 'lines' && (
              <ul className="list-unstyled mt-2 mb-0 d-grid gap-2">
                {lines.map((line, index) => (
                  <li key={line.product_code}>
                    <label className="form-label small mb-1" htmlFor={`gift-line-${index}`}>
                      {line.product_name} × {line.amount}
                    </label>
                    <select
                      id={`gift-line-${index}`}
                      className="form-select form-select-sm"
                      value={value.lineWraps[line.product_code] ?? ''}
                      onChange={(event) => set({ lineWraps: { ...value.lineWraps, [line.product_code]: event.target.value } })}
                    >
                      <option value="">ไม่ห่อ</option>
                      {options.map((option) => (
                        <option key={option.code} value={option.code}>
                          {optionLabel(option)}
                        </option>
                      ))}
                    </select>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
        )}
        <label className="form-label small mb-1" htmlFor="gift-message">
          ข้อความบนการ์ด
        </label>
        <textarea
          id="gift-message"
          className={`form-control${problem ? ' is-invalid' : ''}`}
          rows={3}
          value={value.message}
          onChange={(event) => set({ message: event.target.value })}
          aria-describedby="gift-message-help"
          placeholder="เช่น สุขสันต์วันเกิดนะ 🎂"
        />
        <div id="gift-message-help" className={`small mt-1 d-flex justify-content-between gap-2 ${problem ? 'text-danger' : 'text-secondary'}`}>
          <span role={problem ? 'alert' : undefined}>{problem || (cardPriceSatang === 0 ? 'การ์ดข้อความฟรี เว้นว่างถ้าไม่ต้องการการ์ด' : `การ์ดข้อความ ${formatBaht(cardPriceSatang)} เว้นว่างถ้าไม่ต้องการการ์ด`)}</span>
          <span className="text-nowrap">
            {count}/{GIFT_MESSAGE_MAX}
          </span>
        </div>
        <div className="form-check mt-2 mb-0">
          <input className="form-check-input" type="checkbox" id="gift-hide-prices" checked={value.hidePrices} onChange={(event) => set({ hidePrices: event.target.checked })} />
          <label className="form-check-label" htmlFor="gift-hide-prices">
            ซ่อนราคาในใบแพ็คสินค้า
          </label>
          <div className="small text-secondary">ส่งเป็นของขวัญให้คนอื่น: เลือกที่อยู่ของผู้รับด้านบน ใบแพ็คสินค้าในกล่องจะไม่มีราคา</div>
        </div>
      </div>
    </section>
  );
}
