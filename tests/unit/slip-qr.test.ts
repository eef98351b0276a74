import { describe, expect, it } from 'vitest';
import { slipVerify, trueMoneySlipVerify } from 'promptparse/generate';
import { parseSlipPayload, readSlipQr } from '../../src/server/payments/slip-qr';
import { validThaiTaxId, taxInvoiceRequestSchema } from '../../src/lib/documents';
import { bankLabel } from '../../src/lib/thai-banks';
import { newSlipRef, phonePhoto, slipPayload, slipPicture } from '../fixtures/slips';

describe('slip-verify payloads', () => {
  it('reads the bank and the reference of a slip-verify QR', () => {
    const payload = slipVerify({ sendingBank: '014', transRef: '2026112312345678SCB01' });
    expect(parseSlipPayload(payload)).toEqual({ status: 'verified', bank: '014', reference: '2026112312345678SCB01', warning: null, payload: null });
    expect(bankLabel('014')).toBe('ธนาคารไทยพาณิชย์ (SCB)');
  });

  it('accepts the short checksum some bank apps write, and warns on a wrong one', () => {
    const payload = slipVerify({ sendingBank: '004', transRef: '0123456789APM0001' });
    // A reference whose CRC starts with 0: the bank app writes it as three characters.
    let n = 0;
    let leadingZero = '';
    while (!leadingZero) {
      const candidate = slipVerify({ sendingBank: '004', transRef: `0123456789APM${String(n++).padStart(4, '0')}` });
      if (/9104 ?0[0-9A-F]{3}$/.test(candidate)) leadingZero = candidate;
    }
    const short = leadingZero.replace(/9104(0)([0-9A-F]{3})$/, '9104$2');
    expect(short.length).toBe(leadingZero.length - 1);
    expect(parseSlipPayload(short).status).toBe('verified');
    const broken = `${payload.slice(0, -4)}${payload.endsWith('FFFF') ? '0000' : 'FFFF'}`;
    const reading = parseSlipPayload(broken);
    expect(reading).toMatchObject({ status: 'warning', bank: '004', reference: '0123456789APM0001' });
    expect(reading.warning).toContain('CRC');
  });

  it('reads TrueMoney wallet slips', () => {
    const payload = trueMoneySlipVerify({ eventType: 'P2P', transactionId: 'TX1234567890', date: '23112026' });
    expect(parseSlipPayload(payload)).toMatchObject({ status: 'verified', bank: 'TRUEMONEY', reference: 'TX1234567890' });
  });

  it('warns when the QR is something else, keeping its text for staff', () => {
    const reading = parseSlipPayload('https://example.com/not-a-slip');
    expect(reading).toMatchObject({ status: 'warning', bank: null, reference: null, payload: 'https://example.com/not-a-slip' });
  });
});

describe('reading slip pictures', () => {
  it.each([
    [0, 720],
    [-8, 520],
    [23, 480],
    [90, 600],
    [180, 640],
  ])('finds the QR in a photo turned %i° and %i px wide', async (angle, width) => {
    const ref = newSlipRef();
    const photo = await phonePhoto(await slipPicture(slipPayload(ref)), { angle, width });
    expect(await readSlipQr(photo)).toMatchObject({ status: 'verified', bank: ref.sendingBank, reference: ref.transRef });
  });

  it('says no_qr for a slip without a QR and for bytes that are no picture', async () => {
    expect((await readSlipQr(await slipPicture(null))).status).toBe('no_qr');
    expect((await readSlipQr(new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x01]))).status).toBe('no_qr');
  });
});

describe('tax ids and branches', () => {
  it('checks the 13-digit tax id by its check digit', () => {
    expect(validThaiTaxId('0105558000006')).toBe(true);
    expect(validThaiTaxId('0105566123456')).toBe(true);
    expect(validThaiTaxId('0105558000007')).toBe(false);
    expect(validThaiTaxId('010555800000')).toBe(false);
  });

  it('stores head office as 00000 and pads branch numbers', () => {
    const base = { name: 'บริษัท ทดสอบ จำกัด', address: '1 ถนนสีลม กรุงเทพมหานคร 10500', tax_id: '0105558-000006' };
    expect(taxInvoiceRequestSchema.parse({ ...base, branch_type: 'head_office' })).toMatchObject({ branch: '00000', taxId: '0105558000006' });
    expect(taxInvoiceRequestSchema.parse({ ...base, branch_type: 'branch', branch_no: '12' })).toMatchObject({ branch: '00012' });
    expect(taxInvoiceRequestSchema.safeParse({ ...base, branch_type: 'branch', branch_no: '0' }).success).toBe(false);
  });
});
