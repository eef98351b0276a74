import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { brands, categories, productPriceTiers, products, productVariants } from '../db/schema.ts';
import { groupTiersByProduct, sortTiers } from '../../lib/pricing.ts';
import { CSV_COLUMNS, exportCells, type ExportRow } from './csv-columns.ts';
import { ownTiersOfVariants } from './variant-tiers.service.ts';

/**
 * The whole catalog as CSV, one row per variant (issue 30, csv-columns.ts), streamed: products are read in keyset pages of EXPORT_PAGE and written as
 * they come, so 100,000 products never sit in memory at once. UTF-8 with a BOM, which is how Excel
 * recognises Thai text in a CSV.
 */
const EXPORT_PAGE = 1000;

async function* exportRows(): AsyncGenerator<string[]> {
  const db = await getDb();
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: products.id,
        code: products.code,
        name: products.name,
        nameEn: products.nameEn,
        categoryCode: categories.code,
        brandCode: brands.code,
        priceSatang: products.priceSatang,
        stock: products.stock,
        unit: products.unit,
        active: products.active,
        recommended: products.recommended,
        description: products.description,
        optionNames: products.optionNames,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(brands, eq(brands.id, products.brandId))
      .where(gt(products.id, after))
      .orderBy(asc(products.id))
      .limit(EXPORT_PAGE);
    if (rows.length === 0) return;
    const tierRows = await db
      .select({ productId: productPriceTiers.productId, minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
      .from(productPriceTiers)
      .where(and(inArray(productPriceTiers.productId, rows.map((row) => row.id)), isNull(productPriceTiers.variantId)));
    const tiers = groupTiersByProduct(tierRows);
    const variantRows = await db
      .select({
        id: productVariants.id,
        productId: productVariants.productId,
        code: productVariants.code,
        option1: productVariants.option1,
        option2: productVariants.option2,
        option3: productVariants.option3,
        priceSatang: productVariants.priceSatang,
        stock: productVariants.stock,
        active: productVariants.active,
      })
      .from(productVariants)
      .where(inArray(productVariants.productId, rows.map((row) => row.id)))
      .orderBy(asc(productVariants.productId), asc(productVariants.sortOrder), asc(productVariants.id));
    const ownTiers = await ownTiersOfVariants(db, variantRows.map((variant) => variant.id));
    const variantsOf = new Map<number, typeof variantRows>();
    for (const variant of variantRows) {
      const list = variantsOf.get(variant.productId);
      if (list) list.push(variant);
      else variantsOf.set(variant.productId, [variant]);
    }
    for (const { optionNames, ...row } of rows) {
      const product = { ...row, tiers: sortTiers(tiers.get(row.id) ?? []) };
      const variants = variantsOf.get(row.id) ?? [];
      const only = variants.length === 1 ? variants[0] : undefined;
      if (variants.length === 0 || (only && only.code === row.code && optionNames.length === 0 && only.active && !ownTiers.has(only.id))) {
        // One variant with the product's code and no options: the row it always was, the variant columns empty.
        yield exportCells({ ...product, variant: { code: row.code, optionNames: [], optionValues: [], active: null, ownTiers: [] } });
        continue;
      }
      for (const variant of variants) {
        const exportRow: ExportRow = {
          ...product,
          priceSatang: variant.priceSatang,
          stock: variant.stock,
          variant: {
            code: variant.code,
            optionNames,
            optionValues: [variant.option1, variant.option2, variant.option3],
            active: variant.active,
            ownTiers: ownTiers.get(variant.id) ?? [],
          },
        };
        yield exportCells(exportRow);
      }
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
}

/** A byte stream of the catalog CSV (header first). */
export function catalogCsvStream(): ReadableStream<Uint8Array> {
  const csv = stringify({ bom: true, header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
  const source = Readable.from(exportRows());
  source.on('error', (error) => csv.destroy(error));
  source.pipe(csv);
  return Readable.toWeb(csv) as ReadableStream<Uint8Array>;
}

const NO_OPTIONS = ['', '', '', '', '', ''];

/** The import template: the header and example rows a shop owner can copy (two plain products, one in two sizes). */
export function templateCsv(): Promise<string> {
  return new Promise((resolve, reject) => {
    stringify(
      [
        ['GIFT-001', 'กล่องของขวัญลายดอกไม้', 'Flower gift box', 'gifts', '', '259', '40', 'ชิ้น', '1', '0', '10:230;50:199', 'กล่องของขวัญพร้อมริบบิ้น', ...NO_OPTIONS, 'GIFT-001', '', ''],
        ['PEN-012', 'ปากกาเจลสีพาสเทล แพ็ก 6', '', 'stationery', '', '89', '120', 'แพ็ก', '1', '1', '', '', ...NO_OPTIONS, 'PEN-012', '', ''],
        ['GIFT-002', 'ถุงผ้าของขวัญ', '', 'gifts', '', '59', '30', 'ใบ', '1', '0', '', '', 'ขนาด', 'S', '', '', '', '', 'GIFT-002-S', '1', ''],
        ['GIFT-002', 'ถุงผ้าของขวัญ', '', 'gifts', '', '79', '25', 'ใบ', '1', '0', '', '', 'ขนาด', 'L', '', '', '', '', 'GIFT-002-L', '1', '20:69'],
      ],
      { bom: true, header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' },
      (error, output) => (error ? reject(error) : resolve(output)),
    );
  });
}
