import { env } from '../env.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { button, colours, logoAttachment, paragraph, renderLayout } from '../mail/templates.ts';
import { formatThaiDateTime } from '../../lib/thai-text.ts';
import type { CompanyInfo } from '../../lib/types.ts';

export interface TwoStepLockMail {
  name: string;
  ip: string;
  lockedUntil: string;
  failures: number;
}

/**
 * The mail to an account whose second step was shut after too many wrong codes: someone who got past
 * the password was guessing, so its owner should change the password now rather than wait.
 */
export async function renderTwoStepLockMail(payload: TwoStepLockMail, company: CompanyInfo): Promise<Omit<MailMessage, 'to'>> {
  const site = env().PUBLIC_SITE_URL.replace(/\/$/, '');
  const until = formatThaiDateTime(payload.lockedUntil);
  const what = `มีการใส่รหัสยืนยันตัวตนสองขั้นตอนของบัญชีคุณผิด ${payload.failures} ครั้ง (ครั้งล่าสุดจากที่อยู่ IP ${payload.ip}) ระบบจึงระงับการยืนยันสองขั้นตอนของบัญชีนี้ไว้ถึง ${until}`;
  const advice = 'ผู้ที่ใส่รหัสต้องรู้รหัสผ่านของคุณแล้ว หากไม่ใช่คุณ กรุณาเปลี่ยนรหัสผ่านทันทีและแจ้งเจ้าของร้าน';
  const passwordLink = `${site}/user/account/password`;
  const text = [`สวัสดีคุณ${payload.name}`, '', what, '', advice, '', `เปลี่ยนรหัสผ่าน: ${passwordLink}`].join('\n');
  const html = await renderLayout({
    title: 'ระงับการยืนยันตัวตนสองขั้นตอนชั่วคราว',
    preheader: 'มีการใส่รหัสยืนยันผิดหลายครั้ง',
    company,
    site,
    body: [
      paragraph(`สวัสดีคุณ${payload.name}`),
      paragraph(what),
      paragraph(advice),
      button('เปลี่ยนรหัสผ่าน', passwordLink),
      paragraph('หากเป็นคุณเองที่ใส่รหัสผิด รอจนถึงเวลาข้างต้นแล้วใช้รหัสล่าสุดจากแอป หรือรหัสกู้คืน', `font-size="14px" color="${colours.muted}"`),
    ].join('\n'),
  });
  return { subject: 'ระงับการยืนยันตัวตนสองขั้นตอนของบัญชีคุณชั่วคราว', text, html, attachments: [logoAttachment()] };
}

/** The mail to a team member whose two-step sign-in the owner cleared: set it up again, or speak up. */
export async function renderTwoStepResetMail(payload: { name: string; by: string }, company: CompanyInfo): Promise<Omit<MailMessage, 'to'>> {
  const site = env().PUBLIC_SITE_URL.replace(/\/$/, '');
  const what = `เจ้าของร้าน (${payload.by}) ได้ล้างการยืนยันตัวตนสองขั้นตอนของบัญชีคุณ รหัสกู้คืนเดิมใช้ไม่ได้แล้ว และทุกอุปกรณ์ถูกออกจากระบบ`;
  const next = 'เข้าสู่ระบบด้วยรหัสผ่านแล้วตั้งค่าแอปยืนยันตัวตนใหม่ที่หน้าหลังร้าน';
  const advice = 'หากคุณไม่ได้ขอให้ล้าง กรุณาแจ้งเจ้าของร้านทันที';
  const setupLink = `${site}/admin/two-step`;
  const text = [`สวัสดีคุณ${payload.name}`, '', what, '', next, setupLink, '', advice].join('\n');
  const html = await renderLayout({
    title: 'ล้างการยืนยันตัวตนสองขั้นตอนแล้ว',
    preheader: 'ตั้งค่าแอปยืนยันตัวตนใหม่อีกครั้ง',
    company,
    site,
    body: [
      paragraph(`สวัสดีคุณ${payload.name}`),
      paragraph(what),
      paragraph(next),
      button('ตั้งค่าการยืนยันสองขั้นตอน', setupLink),
      paragraph(advice, `font-size="14px" color="${colours.muted}"`),
    ].join('\n'),
  });
  return { subject: 'การยืนยันตัวตนสองขั้นตอนของบัญชีคุณถูกล้างแล้ว', text, html, attachments: [logoAttachment()] };
}
