import { eq, sql } from 'drizzle-orm';
import { searchKey } from '../../lib/thai-text.ts';
import type { Db } from './database.ts';
import { demoCategories, demoEpoch, demoProduct, type DemoProduct } from './demo-catalog.ts';
import * as schema from './schema.ts';

/**
 * The demo shop's products with variants (issue 30, docs/decisions/205). The generator gives 62 names
 * to two or more products ("ลิปสติกเนื้อแมตต์ สีส้มพีช" is P00159 and P00354). Where the repeated word is a
 * shade (`สี…`) or a size (`ขนาด…`, `ไซซ์…`) and the category knows two or more of them, the group's last
 * product becomes the item with a picker: named by the item alone, its own shade keeping its code, the
 * category's other shades (or sizes) added as `{code}-02`, `-03`…; one product per item. The product count
 * stays the same, so every count the tests and benchmarks know holds.
 */

export interface DemoVariantPlan {
  code: string;
  name: string;
  optionName: 'สี' | 'ขนาด';
  /** The product's own value first (its code keeps it), then the others. */
  values: { code: string; value: string; swatch: string | null; priceSatang: number; stock: number }[];
}

/** Colours of the demo's shade words, for the swatches ("สีส้มพีช" is drawn peach). */
const SHADES: Record<string, string> = {
  ชมพูนู้ด: '#d9a5a0',
  แดงอิฐ: '#a2412f',
  ส้มพีช: '#f4a683',
  โรสวู้ด: '#b5646f',
  น้ำตาลนม: '#a67b5b',
  เบอร์รี่: '#8e2453',
  คอรัล: '#f88379',
  ม่วงพลัม: '#6a2c5a',
  ชมพูพาสเทล: '#f7c6d9',
  ฟ้า: '#8ecae6',
  ครีม: '#f3e5c0',
  ดำ: '#222222',
  ชมพู: '#f4a3c0',
  ทอง: '#d4af37',
  เงิน: '#c0c0c0',
  โรสโกลด์: '#b76e79',
  เบจ: '#d8c3a5',
  เขียวมินต์: '#98e2c6',
  ขาว: '#fafafa',
  เขียวเสจ: '#9caf88',
  คราฟต์: '#c8a27a',
  แดง: '#c62828',
  น้ำตาล: '#8d6e63',
  พาสเทล: '#f6d6e8',
  ทองชมพู: '#e6b8a2',
};

// The demo products the integration and e2e suites name by code stay as they are.
const KEPT = new Set(['P00348', 'P00349', 'P00360']);

function kindOf(word: string): { optionName: 'สี' | 'ขนาด'; value: string } | null {
  if (word.startsWith('สี')) return { optionName: 'สี', value: word.slice(2) };
  if (word.startsWith('ขนาด')) return { optionName: 'ขนาด', value: word.slice(4).trim() || word };
  if (word.startsWith('ไซซ์')) return { optionName: 'ขนาด', value: word.slice(4).trim() };
  return null;
}

/** Which of the first `count` demo products become products with variants, and their variants. */
export function demoVariantPlans(count: number): DemoVariantPlan[] {
  const products: DemoProduct[] = Array.from({ length: Math.min(count, 360) }, (_, index) => demoProduct(index, demoEpoch));
  const byName = new Map<string, DemoProduct[]>();
  for (const product of products) byName.set(product.name, [...(byName.get(product.name) ?? []), product]);
  const plans: DemoVariantPlan[] = [];
  const items = new Set<string>();
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const last = group[group.length - 1] as DemoProduct;
    const category = demoCategories.find((entry) => entry.code === last.categoryCode);
    if (!category || KEPT.has(last.code)) continue;
    const item = category.items.find((name) => last.name.startsWith(`${name} `));
    const own = item ? kindOf(last.name.slice(item.length + 1)) : null;
    if (!item || !own || items.has(`${category.code}:${item}`)) continue;
    const others = category.variants
      .map(kindOf)
      .filter((kind): kind is NonNullable<ReturnType<typeof kindOf>> => kind !== null && kind.optionName === own.optionName && kind.value !== own.value);
    if (others.length === 0) continue;
    items.add(`${category.code}:${item}`);
    const values = [own, ...others].map((kind, index) => ({
      code: index === 0 ? last.code : `${last.code}-${String(index + 1).padStart(2, '0')}`,
      value: kind.value,
      swatch: kind.optionName === 'สี' ? (SHADES[kind.value] ?? null) : null,
      // Shades cost the same but every fourth (a limited shade, 30 baht more); each larger size a little more.
      priceSatang: kind.optionName === 'สี' ? last.priceSatang + (index % 4 === 3 ? 3000 : 0) : last.priceSatang + index * 2000,
      // One shade of three sold out, the others stocked from the product's own figure.
      stock: index === 0 ? last.stock : index % 3 === 2 ? 0 : 5 + ((last.stock + index * 37) % 120),
    }));
    plans.push({ code: last.code, name: item, optionName: own.optionName, values });
  }
  return plans;
}

/** Turns the planned demo products into products with variants (after ensureDemoProducts wrote them). */
export async function seedDemoVariants(db: Db, count: number): Promise<number> {
  const plans = demoVariantPlans(count);
  for (const plan of plans) {
    await db.transaction(async (tx) => {
      const [product] = await tx
        .select({ id: schema.products.id, searchText: schema.products.searchText })
        .from(schema.products)
        .where(eq(schema.products.code, plan.code));
      if (!product) return;
      const [own, ...others] = plan.values;
      if (!own) return;
      await tx
        .update(schema.products)
        .set({
          name: plan.name,
          optionNames: [plan.optionName],
          // Any shade's name finds the product.
          searchText: searchKey(`${product.searchText} ${plan.values.map((entry) => `${plan.optionName}${entry.value}`).join(' ')}`),
        })
        .where(eq(schema.products.id, product.id));
      await tx
        .update(schema.productVariants)
        .set({ option1: own.value, swatch: own.swatch })
        .where(eq(schema.productVariants.productId, product.id));
      await tx.insert(schema.productVariants).values(
        others.map((entry, index) => ({
          productId: product.id,
          code: entry.code,
          option1: entry.value,
          swatch: entry.swatch,
          priceSatang: entry.priceSatang,
          stock: entry.stock,
          sortOrder: index + 1,
        })),
      );
    });
  }
  if (plans.length > 0) await db.execute(sql`analyze product_variants`);
  return plans.length;
}
