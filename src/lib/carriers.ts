/**
 * The delivery services a Thai shop picks from in /admin/settings (issue 32, screen 8): the owner chooses
 * a carrier from this list instead of typing an id, and its name and tracking link fill themselves in
 * when left empty. A code saved before this list existed stays accepted until the owner changes it.
 * Pure: the settings page, its endpoint and the server share it.
 */
export interface KnownCarrier {
  code: string;
  name: string;
  /** The carrier's public tracking page, `{tracking}` where the number goes; null when there is none. */
  trackingUrl: string | null;
}

export const KNOWN_CARRIERS: readonly KnownCarrier[] = [
  { code: 'ems', name: 'ไปรษณีย์ไทย EMS', trackingUrl: 'https://track.thailandpost.co.th/?trackNumber={tracking}' },
  { code: 'thaipost', name: 'ไปรษณีย์ไทย ลงทะเบียน', trackingUrl: 'https://track.thailandpost.co.th/?trackNumber={tracking}' },
  { code: 'kerry', name: 'Kerry Express', trackingUrl: 'https://th.kex-express.com/th/track/?track={tracking}' },
  { code: 'flash', name: 'Flash Express', trackingUrl: 'https://www.flashexpress.co.th/fle/tracking?se={tracking}' },
  { code: 'jt', name: 'J&T Express', trackingUrl: null },
  { code: 'best', name: 'BEST Express', trackingUrl: null },
  { code: 'ninjavan', name: 'Ninja Van', trackingUrl: null },
  { code: 'scg', name: 'SCG Express', trackingUrl: null },
  { code: 'lalamove', name: 'Lalamove (ส่งด่วนในเมือง)', trackingUrl: null },
  { code: 'shop', name: 'ร้านจัดส่งเอง', trackingUrl: null },
  { code: 'pickup', name: 'รับเองที่หน้าร้าน', trackingUrl: null },
];

/** The choice in a delivery row's carrier list that removes the row when the form is saved. */
export const REMOVE_DELIVERY = '-';

export function knownCarrier(code: string): KnownCarrier | undefined {
  return KNOWN_CARRIERS.find((carrier) => carrier.code === code.trim().toLowerCase());
}

/** A row as typed, with the chosen carrier's name and tracking link where the owner left them empty. */
export function withCarrierDefaults<T extends { code: string; name: string; trackingUrl: string }>(row: T): T {
  const carrier = knownCarrier(row.code);
  if (!carrier) return row;
  return { ...row, name: row.name.trim() === '' ? carrier.name : row.name, trackingUrl: row.trackingUrl.trim() === '' ? (carrier.trackingUrl ?? '') : row.trackingUrl };
}

/** Codes not in the list and not saved before: what the endpoint refuses (a forged or stale form). */
export function unknownCarrierCodes(codes: readonly string[], saved: readonly string[]): string[] {
  return codes.filter((code) => !knownCarrier(code) && !saved.includes(code));
}
