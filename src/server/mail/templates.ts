import type { CompanyInfo } from '../../lib/types.ts';
import type { MailAttachment } from './mailer.ts';
import { LOGO_PNG_BASE64 } from './logo.ts';
import { escapeHtml } from '../../lib/html.ts';

/**
 * The frame every shop mail shares, written in MJML (responsive tables that Gmail, Outlook and phone
 * clients render alike). Text goes in escaped; nothing here can carry a script.
 */
export const colours = {
  yellow: '#ffd000',
  green: '#39b54a',
  /** Darker green for text and buttons with white text (contrast ≥ 4.5:1). */
  greenDark: '#1e7b2c',
  text: '#212529',
  muted: '#495057',
  line: '#dee2e6',
  soft: '#fff8d6',
};

export const FONT = "Kanit, 'Noto Sans Thai', 'Leelawadee UI', Tahoma, Arial, sans-serif";

/** Only http(s) links go into an href. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : '#';
  } catch {
    return '#';
  }
}

export const logoAttachment = (): MailAttachment => ({
  filename: 'logo.png',
  content: Buffer.from(LOGO_PNG_BASE64, 'base64'),
  contentType: 'image/png',
  cid: 'shop-logo',
});

export function button(label: string, href: string): string {
  return `<mj-button href="${escapeHtml(safeUrl(href))}" background-color="${colours.greenDark}" color="#ffffff" font-size="16px" border-radius="6px" inner-padding="12px 28px">${escapeHtml(label)}</mj-button>`;
}

export function paragraph(text: string, attributes = ''): string {
  return `<mj-text ${attributes}>${escapeHtml(text)}</mj-text>`;
}

/** Renders a full mail: header with the logo, the body sections, the shop's contact footer. */
export async function renderLayout(options: { title: string; preheader: string; company: CompanyInfo; site: string; body: string }): Promise<string> {
  const { company, site } = options;
  const contact = [company.phone && `โทร ${company.phone}`, company.email, company.lineId && `LINE ${company.lineId}`].filter(Boolean).join(' · ');
  const source = `<mjml lang="th">
  <mj-head>
    <mj-title>${escapeHtml(options.title)}</mj-title>
    <mj-preview>${escapeHtml(options.preheader)}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text color="${colours.text}" font-size="16px" line-height="1.6" />
      <mj-table color="${colours.text}" font-size="15px" line-height="1.5" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f4f4" width="600px">
    <mj-section background-color="${colours.yellow}" padding="16px 20px">
      <mj-group>
        <mj-column width="20%" vertical-align="middle">
          <mj-image src="cid:shop-logo" alt="${escapeHtml(company.name)}" width="56px" height="56px" href="${escapeHtml(safeUrl(site))}" padding="0" align="left" />
        </mj-column>
        <mj-column width="80%" vertical-align="middle">
          <mj-text font-size="22px" font-weight="600" color="${colours.text}" padding="0">${escapeHtml(company.name)}</mj-text>
        </mj-column>
      </mj-group>
    </mj-section>
    <mj-section background-color="#ffffff" padding="8px 12px 16px" border-bottom="4px solid ${colours.green}">
      <mj-column>
        <mj-text font-size="22px" font-weight="600" color="${colours.greenDark}">${escapeHtml(options.title)}</mj-text>
        ${options.body}
      </mj-column>
    </mj-section>
    <mj-section padding="12px 20px">
      <mj-column>
        <mj-text font-size="13px" color="${colours.muted}" align="center">${escapeHtml(company.name)}<br />${escapeHtml(company.address)}<br />${escapeHtml(contact)}</mj-text>
        <mj-text font-size="13px" color="${colours.muted}" align="center"><a href="${escapeHtml(safeUrl(site))}" style="color:${colours.greenDark}">${escapeHtml(site.replace(/^https?:\/\//, ''))}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  // Imported on the first mail, not with this module: MJML and what it brings (cheerio, juice, js-beautify,
  // cssnano…) took a third of a second and more of every server start and every test file that imports
  // the mail worker, most of which never render a mail (docs/decisions/231).
  const { default: mjml2html } = await import('mjml');
  const result = await mjml2html(source, { validationLevel: 'strict', minify: false });
  return result.html;
}
