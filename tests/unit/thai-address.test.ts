import { describe, expect, it } from 'vitest';
import { allPlaces, cleanPlaceName, matchPlace, searchPlaces } from '../../src/server/address/thai-address';

describe('Thai address data', () => {
  it('decodes the whole country', () => {
    const places = allPlaces();
    expect(places.length).toBeGreaterThan(7000);
    expect(new Set(places.map((place) => place.province)).size).toBe(77);
    expect(places.every((place) => /^\d{5}$/.test(place.postcode))).toBe(true);
  });

  it.each([
    [{ subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' }],
    [{ subdistrict: 'สุเทพ', district: 'เมืองเชียงใหม่', province: 'เชียงใหม่', postcode: '50200' }],
    [{ subdistrict: 'ป่าตอง', district: 'กะทู้', province: 'ภูเก็ต', postcode: '83150' }],
  ])('accepts parts that belong together: %o', (place) => {
    expect(matchPlace(place)).toEqual(place);
  });

  it.each([
    ['wrong district', { subdistrict: 'ลุมพินี', district: 'บางรัก', province: 'กรุงเทพมหานคร', postcode: '10330' }],
    ['wrong postcode', { subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '50200' }],
    ['wrong province', { subdistrict: 'สุเทพ', district: 'เมืองเชียงใหม่', province: 'ลำพูน', postcode: '50200' }],
    ['made up', { subdistrict: 'ไม่มีจริง', district: 'ไม่มี', province: 'ไม่มี', postcode: '99999' }],
  ])('refuses %s', (_name, place) => {
    expect(matchPlace(place)).toBeNull();
  });

  it('understands the prefixes people type and Bangkok short names', () => {
    expect(cleanPlaceName('  ต.สุเทพ ')).toBe('สุเทพ');
    expect(matchPlace({ subdistrict: 'แขวงลุมพินี', district: 'เขตปทุมวัน', province: 'กทม.', postcode: '10330' })).toEqual({
      subdistrict: 'ลุมพินี',
      district: 'ปทุมวัน',
      province: 'กรุงเทพมหานคร',
      postcode: '10330',
    });
  });

  it('suggests by postcode and by name, best matches first', () => {
    const byPostcode = searchPlaces('10330');
    expect(byPostcode.length).toBeGreaterThanOrEqual(4);
    expect(byPostcode.every((place) => place.postcode === '10330')).toBe(true);
    expect(byPostcode.map((place) => place.subdistrict)).toContain('ลุมพินี');
    const byName = searchPlaces('สุเทพ');
    expect(byName[0]).toMatchObject({ subdistrict: 'สุเทพ', province: 'เชียงใหม่' });
    expect(searchPlaces('')).toEqual([]);
    expect(searchPlaces('1', 5)).toHaveLength(5);
  });
});
