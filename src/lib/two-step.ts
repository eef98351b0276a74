/**
 * What the two-step set-up page shows, kept pure so it is tested without a browser.
 */

/** `JBSW Y3DP EHPK 3PXP`: a base32 key in groups of four, as people type it into an app (apps ignore the spaces). */
export function keyInGroupsOfFour(secret: string): string {
  return (secret.replace(/\s/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The recovery codes as a text file to keep: who they are for, when they were made, one code a line. */
export function recoveryCodesFile(codes: readonly string[], account: string, madeAt: string): string {
  return [
    'รหัสกู้คืนสำหรับการยืนยันตัวตนสองขั้นตอน (หลังร้าน)',
    `บัญชี: ${account}`,
    `สร้างเมื่อ: ${madeAt}`,
    'แต่ละรหัสใช้ได้ครั้งเดียว ใช้แทนรหัสจากแอปเมื่อโทรศัพท์หาย เก็บไฟล์นี้ไว้ในที่ปลอดภัย',
    '',
    ...codes,
    '',
  ].join('\r\n');
}

/** A link that downloads the file without a round trip: the codes are never stored where a server could send them again. */
export function recoveryCodesHref(file: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(file)}`;
}
