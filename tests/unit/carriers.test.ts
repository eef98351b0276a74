import { describe, expect, it } from 'vitest';
import { KNOWN_CARRIERS, knownCarrier, unknownCarrierCodes, withCarrierDefaults } from '../../src/lib/carriers';
import { deliveryOptionSchema } from '../../src/lib/settings-schemas';

/** Issue 32, screen 8: delivery options are chosen from known carriers rather than typed ids. */
describe('known carriers', () => {
  it('every carrier code passes the delivery option schema, once', () => {
    expect(new Set(KNOWN_CARRIERS.map((carrier) => carrier.code)).size).toBe(KNOWN_CARRIERS.length);
    for (const carrier of KNOWN_CARRIERS) {
      const parsed = deliveryOptionSchema.safeParse({ code: carrier.code, name: carrier.name, feeSatang: '0', days: '', trackingUrl: carrier.trackingUrl ?? '' });
      expect(parsed.success, carrier.code).toBe(true);
    }
  });

  it("a chosen carrier fills in its name and tracking link where they were left empty, and keeps what was typed", () => {
    expect(withCarrierDefaults({ code: 'kerry', name: '', trackingUrl: '' })).toEqual({ code: 'kerry', name: 'Kerry Express', trackingUrl: knownCarrier('kerry')!.trackingUrl });
    expect(withCarrierDefaults({ code: 'kerry', name: 'ส่งด่วน Kerry', trackingUrl: '' }).name).toBe('ส่งด่วน Kerry');
    expect(withCarrierDefaults({ code: 'dhl-x', name: '', trackingUrl: '' })).toEqual({ code: 'dhl-x', name: '', trackingUrl: '' });
  });

  it('codes outside the list are refused unless the shop saved them before the list existed', () => {
    expect(unknownCarrierCodes(['ems', 'courier-9'], [])).toEqual(['courier-9']);
    expect(unknownCarrierCodes(['ems', 'courier-9'], ['courier-9'])).toEqual([]);
  });

  it('a row left without a carrier is refused in Thai', () => {
    const parsed = deliveryOptionSchema.safeParse({ code: '', name: 'ส่งเอง', feeSatang: '10', days: '', trackingUrl: '' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('กรุณาเลือกขนส่งจากรายการ');
  });
});
