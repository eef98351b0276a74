import type { CompanyInfo } from '../../lib/types.ts';
import { escapeHtml } from '../../lib/html.ts';

/** The company values a content page may use, by placeholder name. */
export function companyValues(company: CompanyInfo): Record<string, string> {
  return {
    name: company.name,
    nameEn: company.nameEn,
    phone: company.phone,
    phoneTel: company.phone.replace(/[^0-9+]/g, ''),
    lineId: company.lineId,
    email: company.email,
    address: company.address,
    mapUrl: company.mapUrl,
    facebookUrl: company.facebookUrl,
    openingHours: company.openingHours,
    tagline: company.tagline,
  };
}

/**
 * Fills `{{key}}` placeholders in rendered Markdown HTML with escaped company values. Markdown
 * percent-encodes braces inside link targets, so `%7B%7Bkey%7D%7D` is filled too (URL-encoded).
 * An unknown placeholder is left visible so an editor notices the typo.
 */
export function fillCompanyHtml(html: string, company: CompanyInfo): string {
  const values = companyValues(company);
  return html
    .replace(/%7B%7B(\w+)%7D%7D/gi, (whole, key: string) => (key in values ? encodeURI(values[key] as string) : whole))
    .replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? escapeHtml(values[key] as string) : whole));
}

/** For plain text (titles, descriptions from the front matter). */
export function fillCompanyText(text: string, company: CompanyInfo): string {
  const values = companyValues(company);
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
