/**
 * Thai bank codes (Bank of Thailand) as they appear in a slip-verify QR's "sending bank" field, with the
 * names staff know them by. Pure data: pages, islands and the server share it.
 */
export const THAI_BANKS: Readonly<Record<string, { short: string; name: string }>> = {
  '002': { short: 'BBL', name: 'ธนาคารกรุงเทพ' },
  '004': { short: 'KBANK', name: 'ธนาคารกสิกรไทย' },
  '006': { short: 'KTB', name: 'ธนาคารกรุงไทย' },
  '011': { short: 'TTB', name: 'ธนาคารทหารไทยธนชาต' },
  '014': { short: 'SCB', name: 'ธนาคารไทยพาณิชย์' },
  '017': { short: 'CITI', name: 'ธนาคารซิตี้แบงก์' },
  '018': { short: 'SMBC', name: 'ธนาคารซูมิโตโม มิตซุย แบงกิ้ง คอร์ปอเรชั่น' },
  '020': { short: 'SCBT', name: 'ธนาคารสแตนดาร์ดชาร์เตอร์ด (ไทย)' },
  '022': { short: 'CIMBT', name: 'ธนาคารซีไอเอ็มบี ไทย' },
  '024': { short: 'UOBT', name: 'ธนาคารยูโอบี' },
  '025': { short: 'BAY', name: 'ธนาคารกรุงศรีอยุธยา' },
  '030': { short: 'GSB', name: 'ธนาคารออมสิน' },
  '031': { short: 'HSBC', name: 'ธนาคารฮ่องกงและเซี่ยงไฮ้แบงกิ้งคอร์ปอเรชั่น' },
  '033': { short: 'GHB', name: 'ธนาคารอาคารสงเคราะห์' },
  '034': { short: 'BAAC', name: 'ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร' },
  '035': { short: 'EXIM', name: 'ธนาคารเพื่อการส่งออกและนำเข้าแห่งประเทศไทย' },
  '052': { short: 'BOC', name: 'ธนาคารแห่งประเทศจีน (ไทย)' },
  '066': { short: 'IBANK', name: 'ธนาคารอิสลามแห่งประเทศไทย' },
  '067': { short: 'TISCO', name: 'ธนาคารทิสโก้' },
  '069': { short: 'KKP', name: 'ธนาคารเกียรตินาคินภัทร' },
  '070': { short: 'ICBCT', name: 'ธนาคารไอซีบีซี (ไทย)' },
  '071': { short: 'TCD', name: 'ธนาคารไทยเครดิต' },
  '073': { short: 'LHFG', name: 'ธนาคารแลนด์ แอนด์ เฮ้าส์' },
  '098': { short: 'SME', name: 'ธนาคารพัฒนาวิสาหกิจขนาดกลางและขนาดย่อมแห่งประเทศไทย' },
  TRUEMONEY: { short: 'TrueMoney', name: 'ทรูมันนี่ วอลเล็ท' },
};

/** "ธนาคารกสิกรไทย (KBANK)" for a known code, null otherwise. */
export function bankName(code: string | null | undefined): string | null {
  if (!code) return null;
  const bank = THAI_BANKS[code];
  return bank ? `${bank.name} (${bank.short})` : null;
}

/** The bank as staff read it: the name when known, else the raw code. */
export function bankLabel(code: string | null | undefined): string {
  if (!code) return '-';
  return bankName(code) ?? `รหัสธนาคาร ${code}`;
}
