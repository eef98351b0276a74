import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, orderTabs, statusGroupLabel, statusLabels } from '../../src/lib/orders';
import { adminOrderTabs } from '../../src/lib/admin-orders';

/**
 * Issue 32, screen 10: one Thai name per order status everywhere. `statusLabels` in src/lib/orders.ts is
 * the one table; these tests fail when a tab, badge, flash, mail or CSV message spells a status itself.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const source = join(root, 'src');

// Earlier wordings of the statuses, found across the shop before issue 32 (badges, tabs, the dashboard).
const FORMER = ['รอตรวจสอบการชำระเงิน', 'เตรียมจัดส่ง', 'จัดส่งสำเร็จ', 'ยกเลิก/หมดอายุ', 'รอชำระ', 'สำเร็จ', 'ที่ต้องจัดส่ง', 'รอการจัดส่ง'];
const NAMES = new Set([...Object.values(statusLabels), ...FORMER]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|tsx|astro|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Quoted strings and markup text whose whole content is a status name. */
function statusWordsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(['"`])([^'"`\n]{1,40}?)\1/g)) if (NAMES.has(match[2]!.trim())) found.push(match[2]!.trim());
  for (const match of text.matchAll(/>([^<>{}\n]{1,40})</g)) if (NAMES.has(match[1]!.trim())) found.push(match[1]!.trim());
  return found;
}

describe('order status words', () => {
  it('every status has one name, and no two statuses share one', () => {
    expect(Object.keys(statusLabels).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(new Set(Object.values(statusLabels)).size).toBe(ORDER_STATUSES.length);
  });

  it('a back-office tab of one status is named by it; a tab of several joins their names', () => {
    for (const tab of adminOrderTabs) {
      if (tab.key === 'all') continue;
      expect(tab.label).toBe(tab.statuses.length === 1 ? statusLabels[tab.statuses[0]!] : statusGroupLabel(tab.statuses));
    }
  });

  it("the shopper's My Purchase tabs keep Shopee's group names, and none of them is another status's name", () => {
    // Decision 191: the tabs name what the shopper waits for, grouping statuses (docs/design.md section 5).
    for (const tab of orderTabs) {
      const other = ORDER_STATUSES.filter((status) => !tab.statuses.includes(status)).map((status) => statusLabels[status]);
      expect(other).not.toContain(tab.label);
    }
  });

  it('no file under src spells a status name itself: every one reads statusLabels', () => {
    const offenders: string[] = [];
    for (const path of files(source)) {
      const name = relative(root, path);
      if (name === join('src', 'lib', 'orders.ts')) continue;
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/^\s*(\*|\/\/)/.test(line)) return;
        for (const word of statusWordsIn(line)) offenders.push(`${name}:${index + 1} "${word}"`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('the check finds a status spelled by hand (it is not vacuous)', () => {
    expect(statusWordsIn(`const label = 'รอตรวจสลิป';`)).toEqual(['รอตรวจสลิป']);
    expect(statusWordsIn('<span class="badge">เตรียมจัดส่ง</span>')).toEqual(['เตรียมจัดส่ง']);
    expect(statusWordsIn(`message: \`สถานะ "\${statusLabels.paid}"\``)).toEqual([]);
  });
});
