import { eq, inArray, sql } from 'drizzle-orm';
import { searchKey } from '../../lib/thai-text.ts';
import type { Db, DbOrTx } from './database.ts';
import { demoCategories, demoEpoch, demoItemOf, demoProduct, type DemoProduct } from './demo-catalog.ts';
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
  values: { code: string; value: string; swatch: string | null; priceSatang: number; stock: number; image: string | null }[];
}

/** A shade's own picture: the product's drawing in the shade's colour, drawn from its address (demo-image.ts). */
function shadePicture(product: DemoProduct, swatch: string | null): string | null {
  const kind = /\/images\/demo\/([a-z]+)-/.exec(product.images[0] ?? '')?.[1];
  return kind && swatch ? `/images/demo/${kind}-shade-${swatch.slice(1)}.svg` : null;
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
    const item = demoItemOf(category, last.name);
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
      image: kind.optionName === 'สี' ? shadePicture(last, SHADES[kind.value] ?? null) : null,
      // Shades cost the same but every fourth (a limited shade, 30 baht more); each larger size a little more.
      priceSatang: kind.optionName === 'สี' ? last.priceSatang + (index % 4 === 3 ? 3000 : 0) : last.priceSatang + index * 2000,
      // One shade of three sold out, the others stocked from the product's own figure.
      stock: index === 0 ? last.stock : index % 3 === 2 ? 0 : 5 + ((last.stock + index * 37) % 120),
    }));
    plans.push({ code: last.code, name: item, optionName: own.optionName, values });
  }
  return plans;
}

/**
 * New names for the demo products whose generated name another product already has (issue 30: no two
 * products share a name). A planned item's name, and the item with each value of its option ("ลิปสติก
 * เนื้อแมตต์ สีส้มพีช"), belong to the product with the picker; any other product named so, and any later
 * product with an earlier one's name, takes the first free name of its category: its own item with
 * another of the category's words, else another item. The first product with a name keeps it.
 */
export function demoRenames(count: number): Map<string, string> {
  const products: DemoProduct[] = Array.from({ length: Math.min(count, 360) }, (_, index) => demoProduct(index, demoEpoch));
  const plans = demoVariantPlans(count);
  const planned = new Set(plans.map((plan) => plan.code));
  const categoryOf = (product: DemoProduct) => demoCategories.find((entry) => entry.code === product.categoryCode);
  const used = new Set<string>();
  for (const plan of plans) {
    const product = products.find((entry) => entry.code === plan.code);
    const category = product ? categoryOf(product) : undefined;
    used.add(plan.name);
    for (const word of category?.variants ?? []) if (kindOf(word)?.optionName === plan.optionName) used.add(`${plan.name} ${word}`);
  }
  const renames = new Map<string, string>();
  for (const product of products) {
    if (planned.has(product.code)) continue;
    if (!used.has(product.name)) {
      used.add(product.name);
      continue;
    }
    const category = categoryOf(product);
    if (!category) continue;
    const item = demoItemOf(category, product.name);
    const items = item ? [item, ...category.items.filter((name) => name !== item)] : category.items;
    const free = items.flatMap((name) => category.variants.map((word) => `${name} ${word}`)).find((name) => !used.has(name));
    if (!free) continue;
    used.add(free);
    renames.set(product.code, free);
  }
  return renames;
}

/** Turns the planned demo products into products with variants (after ensureDemoProducts wrote them). */
export async function seedDemoVariants(db: Db, count: number): Promise<number> {
  const plans = demoVariantPlans(count);
  for (const plan of plans) {
    await db.transaction(async (tx) => {
      const [product] = await tx
        .select({ id: schema.products.id, name: schema.products.name, description: schema.products.description, searchText: schema.products.searchText })
        .from(schema.products)
        .where(eq(schema.products.code, plan.code));
      if (!product) return;
      const [own, ...others] = plan.values;
      if (!own) return;
      // The product shows its own shade's picture first (the peach lipstick is drawn peach).
      if (own.image) {
        await tx.execute(sql`update ${schema.productImages} set url = ${own.image}, width = 480, height = 480
          where product_id = ${product.id} and sort_order = (select min(sort_order) from ${schema.productImages} where product_id = ${product.id})`);
      }
      await tx
        .update(schema.products)
        .set({
          ...(own.image ? { image: own.image } : {}),
          name: plan.name,
          // The description opened with the one shade's name ("ลิปสติกเนื้อแมตต์ สีส้มพีช จากแบรนด์ …"):
          // it names the product now, as every shade shares it.
          description: product.description.startsWith(product.name) ? `${plan.name}${product.description.slice(product.name.length)}` : product.description,
          optionNames: [plan.optionName],
          // Any shade's name or code finds the product (the words searchTextFor adds for variants).
          searchText: searchKey(`${product.searchText} ${planSearchWords(plan)}`),
        })
        .where(eq(schema.products.id, product.id));
      await tx
        .update(schema.productVariants)
        .set({ option1: own.value, swatch: own.swatch, image: own.image })
        .where(eq(schema.productVariants.productId, product.id));
      await tx.insert(schema.productVariants).values(
        others.map((entry, index) => ({
          productId: product.id,
          code: entry.code,
          option1: entry.value,
          swatch: entry.swatch,
          image: entry.image,
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

/**
 * A product named with a shade ("… สีส้มพีช") shows a drawing in that shade first (the shared demo
 * pictures are drawn in random colours): the address of that drawing, or null for other names.
 */
export function shadePictureForName(product: DemoProduct): string | null {
  const shade = Object.keys(SHADES)
    .filter((value) => product.name.endsWith(` สี${value}`))
    .sort((a, b) => b.length - a.length)[0];
  return shade ? shadePicture(product, SHADES[shade] ?? null) : null;
}

/** The first product of the scale catalog past the demo's own 360. */
export const SCALE_FROM = 360;
const SHADE_LIST = Object.entries(SHADES);

/**
 * Variants of the scale catalog (`npm run db:seed -- --products 100000`, issue 30): past the demo's 360,
 * every third product comes in 2 to 12 shades, so listings, search and checkout are measured over
 * variants as a real shop has them. Pure: the same index always gives the same plan.
 */
export function scaleVariantPlan(product: DemoProduct, index: number): DemoVariantPlan | null {
  if (index < SCALE_FROM || index % 3 !== 0) return null;
  const count = 2 + ((index * 7) % 11);
  const values = Array.from({ length: count }, (_, position) => {
    const [value, swatch] = SHADE_LIST[(index + position) % SHADE_LIST.length] as [string, string];
    return {
      code: position === 0 ? product.code : `${product.code}-${String(position + 1).padStart(2, '0')}`,
      value,
      swatch,
      image: shadePicture(product, swatch),
      priceSatang: product.priceSatang + (position % 4 === 3 ? 3000 : 0),
      stock: position === 0 ? product.stock : position % 3 === 2 ? 0 : 5 + ((product.stock + position * 37) % 120),
    };
  });
  return { code: product.code, name: product.name, optionName: 'สี', values };
}

/** The words a product's variants add to its search text (as searchTextFor adds them). */
export function planSearchWords(plan: DemoVariantPlan): string {
  return plan.values.map((entry) => `${entry.code} ${entry.value} ${plan.optionName}${entry.value}`).join(' ');
}

/**
 * Writes plans on products just inserted (each born with its one variant by the products trigger): the
 * option name, the first value on that variant, the other values as new variants, in three statements.
 */
export async function applyVariantPlans(tx: DbOrTx, plans: readonly DemoVariantPlan[], idByCode: ReadonlyMap<string, number>): Promise<void> {
  const placed = plans.flatMap((plan) => {
    const id = idByCode.get(plan.code);
    return id === undefined || plan.values.length < 2 ? [] : [{ id, plan }];
  });
  if (placed.length === 0) return;
  await tx
    .update(schema.products)
    .set({ optionNames: sql`array[${placed[0]!.plan.optionName}]::text[]` })
    .where(inArray(schema.products.id, placed.map((entry) => entry.id)));
  const owns = sql.join(
    placed.map(({ id, plan }) => sql`(${id}::int, ${plan.values[0]!.value}::text, ${plan.values[0]!.swatch}::text, ${plan.values[0]!.image}::text)`),
    sql`, `,
  );
  await tx.execute(
    sql`update ${schema.productVariants} v set option1 = x.value, swatch = x.swatch, image = x.image from (values ${owns}) as x(id, value, swatch, image) where v.product_id = x.id`,
  );
  await tx.insert(schema.productVariants).values(
    placed.flatMap(({ id, plan }) =>
      plan.values.slice(1).map((entry, index) => ({
        productId: id,
        code: entry.code,
        option1: entry.value,
        swatch: entry.swatch,
        image: entry.image,
        priceSatang: entry.priceSatang,
        stock: entry.stock,
        sortOrder: index + 1,
      })),
    ),
  );
}
