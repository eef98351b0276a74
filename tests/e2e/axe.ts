import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * The serious and critical violations of the WCAG 2.1 A and AA rules on the page as it is now (design
 * section 9). Legacy mode: by default AxeBuilder gathers each frame's partial results and opens a blank
 * page of its own to combine them, which cost more than the check itself (2.3 s against 1.2 s a page on
 * the 2-core CI machine); the shop's pages have no frames, so one run in the page checks all of it
 * (docs/decisions/219).
 */
export async function seriousAxeViolations(page: Page): Promise<Violation[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).setLegacyMode(true).analyze();
  return results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
