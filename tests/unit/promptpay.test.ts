import { describe, expect, it } from 'vitest';
import { parse, checksum } from 'promptparse';
import { promptPayPayload, qrSvg } from '../../src/server/orders/promptpay';

/** Decoded by promptparse, an independent EMVCo parser, not by the library that built the payload. */
describe('PromptPay payload', () => {
  it('carries the shop phone id and the exact amount with a valid CRC', () => {
    const payload = promptPayPayload('081-234-5678', 123_456);
    const qr = parse(payload);
    expect(qr).not.toBeNull();
    expect(qr!.validate('63')).toBe(true);
    expect(qr!.getTagValue('00')).toBe('01');
    expect(qr!.getTagValue('01')).toBe('12'); // dynamic: one payment of one amount
    expect(qr!.getTagValue('29', '00')).toBe('A000000677010111');
    expect(qr!.getTagValue('29', '01')).toBe('0066812345678');
    expect(qr!.getTagValue('53')).toBe('764');
    expect(qr!.getTagValue('58')).toBe('TH');
    expect(qr!.getTagValue('54')).toBe('1234.56');
    const crc = payload.slice(-4);
    expect(checksum(payload.slice(0, -4), true)).toBe(crc.toUpperCase());
  });

  it('uses the tax id tag for a 13-digit id and keeps satang exact', () => {
    const qr = parse(promptPayPayload('0105566123456', 5));
    expect(qr!.validate('63')).toBe(true);
    expect(qr!.getTagValue('29', '02')).toBe('0105566123456');
    expect(qr!.getTagValue('54')).toBe('0.05');
    expect(parse(promptPayPayload('0812345678', 9_999_999))!.getTagValue('54')).toBe('99999.99');
  });

  it('refuses a bad id or amount rather than drawing a wrong QR', () => {
    expect(() => promptPayPayload('12345', 100)).toThrow();
    expect(() => promptPayPayload('0812345678', 0)).toThrow();
    expect(() => promptPayPayload('0812345678', 10.5)).toThrow();
  });

  it('draws the payload as an SVG', async () => {
    const svg = await qrSvg(promptPayPayload('0812345678', 100));
    expect(svg).toMatch(/^<svg[^>]+viewBox/);
    expect(svg).toContain('<path');
  });
});
