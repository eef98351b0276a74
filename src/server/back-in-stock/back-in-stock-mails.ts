import { getDb } from '../db/client.ts';
import { env } from '../env.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { button, colours, logoAttachment, paragraph, renderLayout } from '../mail/templates.ts';
import { variantLabel, variantOptions } from '../../lib/variants.ts';
import type { CompanyInfo } from '../../lib/types.ts';
import * as repo from './back-in-stock.repo.ts';
import { cancelLink, confirmLink, nameOf, productLink } from './back-in-stock.service.ts';

/**
 * The two back-in-stock mails (docs/decisions/220), rendered when sent from the variant as it is then:
 * the visitor's confirmation (double opt-in) and the restock notice. Null: the variant is gone.
 */
type Rendered = Omit<MailMessage, 'to'>;

const site = () => env().PUBLIC_SITE_URL.replace(/\/$/, '');

export async function renderBackInStockMail(kind: 'back_in_stock' | 'back_in_stock_confirm', payload: { variantCode: string; token: string }, company: CompanyInfo): Promise<Rendered | null> {
  const variant = await repo.findVariant(await getDb(), payload.variantCode);
  if (!variant) return null;
  return kind === 'back_in_stock' ? restockMail(variant, payload.token, company) : confirmMail(variant, payload.token, company);
}

async function restockMail(variant: repo.RequestVariant, token: string, company: CompanyInfo): Promise<Rendered> {
  const name = nameOf(variant);
  const label = variantLabel(variantOptions(variant.optionNames, variant.values));
  const link = productLink(variant.productCode, variant.code);
  const cancel = cancelLink(token);
  const text = [
    `${name} ที่คุณขอให้แจ้งเตือน กลับมามีจำหน่ายแล้ว`,
    '',
    'สั่งซื้อได้ที่:',
    link,
    '',
    'จำนวนมีจำกัด สินค้าอาจหมดอีกครั้งได้ อีเมลนี้ส่งครั้งเดียวสำหรับคำขอนี้',
    `ไม่ต้องการรับการแจ้งเตือนนี้: ${cancel}`,
  ].join('\n');
  const html = await renderLayout({
    title: 'สินค้าที่คุณรอกลับมาแล้ว',
    preheader: `${name} มีสินค้าแล้ว`,
    company,
    site: site(),
    body: [
      paragraph(`${name} ที่คุณขอให้แจ้งเตือน กลับมามีจำหน่ายแล้ว`),
      button('ดูสินค้าและสั่งซื้อ', link),
      paragraph('จำนวนมีจำกัด สินค้าอาจหมดอีกครั้งได้ อีเมลนี้ส่งครั้งเดียวสำหรับคำขอนี้', `font-size="14px" color="${colours.muted}"`),
      `<mj-text font-size="14px" color="${colours.muted}"><a href="${escapeAttribute(cancel)}" style="color:${colours.muted}">ยกเลิกการแจ้งเตือน</a></mj-text>`,
    ].join('\n'),
  });
  const subject = `สินค้าที่คุณรอกลับมาแล้ว: ${variant.productName}${label ? ` ${label}` : ''}`;
  return { subject, text, html, attachments: [logoAttachment()], headers: { 'List-Unsubscribe': `<${cancel}>` } };
}

async function confirmMail(variant: repo.RequestVariant, token: string, company: CompanyInfo): Promise<Rendered> {
  const name = nameOf(variant);
  const confirm = confirmLink(token);
  const text = [
    `มีคำขอให้แจ้งเตือนทางอีเมลนี้เมื่อ ${name} กลับมามีจำหน่าย`,
    '',
    'กดลิงก์นี้เพื่อยืนยัน:',
    confirm,
    '',
    'หากคุณไม่ได้ขอ ไม่ต้องทำอะไร เราจะไม่ส่งอีเมลแจ้งเตือนให้',
  ].join('\n');
  const html = await renderLayout({
    title: 'ยืนยันการแจ้งเตือนเมื่อมีสินค้า',
    preheader: `ยืนยันเพื่อรับอีเมลเมื่อ ${name} มีสินค้า`,
    company,
    site: site(),
    body: [
      paragraph(`มีคำขอให้แจ้งเตือนทางอีเมลนี้เมื่อ ${name} กลับมามีจำหน่าย กดปุ่มด้านล่างเพื่อยืนยัน`),
      button('ยืนยันการแจ้งเตือน', confirm),
      paragraph('หากคุณไม่ได้ขอ ไม่ต้องทำอะไร เราจะไม่ส่งอีเมลแจ้งเตือนให้', `font-size="14px" color="${colours.muted}"`),
    ].join('\n'),
  });
  return { subject: `ยืนยันการแจ้งเตือนเมื่อมีสินค้า: ${name}`, text, html, attachments: [logoAttachment()] };
}

function escapeAttribute(url: string): string {
  return url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
