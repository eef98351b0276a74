import { env } from '../env.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { button, colours, logoAttachment, paragraph, renderLayout } from '../mail/templates.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/** The password-reset mail: HTML with the link as a button, and the same words as plain text. */
export async function renderResetMail(payload: { name: string; link: string }, company: CompanyInfo): Promise<Omit<MailMessage, 'to'>> {
  const text = [
    `สวัสดีคุณ${payload.name}`,
    '',
    'เราได้รับคำขอตั้งรหัสผ่านใหม่สำหรับบัญชีของคุณ เปิดลิงก์นี้ภายใน 30 นาทีเพื่อตั้งรหัสผ่านใหม่ (ใช้ได้ครั้งเดียว):',
    '',
    payload.link,
    '',
    'หากคุณไม่ได้ขอ ไม่ต้องทำอะไร รหัสผ่านเดิมยังใช้ได้ตามปกติ',
  ].join('\n');
  const html = await renderLayout({
    title: 'ตั้งรหัสผ่านใหม่',
    preheader: 'ลิงก์ตั้งรหัสผ่านใหม่ ใช้ได้ภายใน 30 นาที',
    company,
    site: env().PUBLIC_SITE_URL.replace(/\/$/, ''),
    body: [
      paragraph(`สวัสดีคุณ${payload.name}`),
      paragraph('เราได้รับคำขอตั้งรหัสผ่านใหม่สำหรับบัญชีของคุณ กดปุ่มด้านล่างภายใน 30 นาทีเพื่อตั้งรหัสผ่านใหม่ (ใช้ได้ครั้งเดียว)'),
      button('ตั้งรหัสผ่านใหม่', payload.link),
      paragraph('หากคุณไม่ได้ขอ ไม่ต้องทำอะไร รหัสผ่านเดิมยังใช้ได้ตามปกติ', `font-size="14px" color="${colours.muted}"`),
    ].join('\n'),
  });
  return { subject: 'ตั้งรหัสผ่านใหม่สำหรับบัญชีของคุณ', text, html, attachments: [logoAttachment()] };
}
