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
    autoDeliverDays: String(company.autoDeliverDays),
  };
}

/**
 * The value of a placeholder the company record has, or undefined. Own keys only: `{{constructor}}`
 * or `{{__proto__}}` would otherwise reach Object.prototype and print JavaScript internals.
 */
function placeholderValue(values: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(values, key) ? values[key] : undefined;
}

/**
 * Fills `{{key}}` placeholders in rendered Markdown HTML with escaped company values. Markdown
 * percent-encodes braces inside link targets, so `%7B%7Bkey%7D%7D` is filled too (URL-encoded).
 * An unknown placeholder is left visible so an editor notices the typo.
 */
export function fillCompanyHtml(html: string, company: CompanyInfo): string {
  const values = companyValues(company);
  return html
    .replace(/%7B%7B(\w+)%7D%7D/gi, (whole, key: string) => {
      const value = placeholderValue(values, key);
      return value === undefined ? whole : encodeURI(value);
    })
    .replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
      const value = placeholderValue(values, key);
      return value === undefined ? whole : escapeHtml(value);
    });
}

/** For plain text (titles, descriptions from the front matter). */
export function fillCompanyText(text: string, company: CompanyInfo): string {
  const values = companyValues(company);
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => placeholderValue(values, key) ?? whole);
}
