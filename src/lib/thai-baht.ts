/**
 * An amount in Thai words as receipts and cheques write it (Excel's BAHTTEXT rules): "…บาทถ้วน" for whole
 * baht, "…บาท…สตางค์" otherwise. A 1 in the units place after any higher digit is "เอ็ด" (สิบเอ็ด,
 * หนึ่งร้อยเอ็ด, หนึ่งล้านเอ็ด); 2 in the tens is "ยี่สิบ"; 1 in the tens is "สิบ".
 */
const DIGITS = ['ศูนย์', 'หนึ่ง', 'สอง', 'สาม', 'สี่', 'ห้า', 'หก', 'เจ็ด', 'แปด', 'เก้า'] as const;
const PLACES = ['', 'สิบ', 'ร้อย', 'พัน', 'หมื่น', 'แสน'] as const;

/** Words for a whole number > 0; `afterHigher` when digits above this part were already said. */
function integerWords(value: number, afterHigher = false): string {
  if (value >= 1_000_000) {
    const millions = Math.floor(value / 1_000_000);
    const rest = value % 1_000_000;
    return `${integerWords(millions, afterHigher)}ล้าน${rest > 0 ? integerWords(rest, true) : ''}`;
  }
  const digits = String(value).split('').map(Number).reverse();
  let words = '';
  for (let place = digits.length - 1; place >= 0; place--) {
    const digit = digits[place] as number;
    if (digit === 0) continue;
    if (place === 1) words += digit === 1 ? 'สิบ' : digit === 2 ? 'ยี่สิบ' : `${DIGITS[digit]}สิบ`;
    else if (place === 0) words += digit === 1 && (afterHigher || value >= 10) ? 'เอ็ด' : DIGITS[digit];
    else words += `${DIGITS[digit]}${PLACES[place]}`;
  }
  return words;
}

export function bahtText(satang: number): string {
  if (!Number.isSafeInteger(satang)) throw new RangeError('amount must be whole satang');
  const negative = satang < 0;
  const absolute = Math.abs(satang);
  const baht = Math.floor(absolute / 100);
  const cents = absolute % 100;
  let words = '';
  if (baht > 0) words += `${integerWords(baht)}บาท`;
  if (cents > 0) words += `${integerWords(cents)}สตางค์`;
  else words = `${baht > 0 ? words : 'ศูนย์บาท'}ถ้วน`;
  return negative ? `ลบ${words}` : words;
}
