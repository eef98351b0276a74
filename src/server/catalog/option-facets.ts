import { and, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { products, productVariants } from '../db/schema.ts';
import { COUNT_BOUND } from './listing-query.ts';

/**
 * Listing facets by option value (issue 30, docs/decisions/217): "สี: ชมพู", "ขนาด: 50 มล.". A product
 * names up to three options (`products.option_names`) and each of its variants holds a value in the
 * same position (`option1`…`option3`), so "the product's สี" is whichever position it named สี.
 */

/** An option chosen in the listing's URL (`option=สี:ชมพู`): its name and the values any of which will do. */
export interface OptionChoice {
  name: string;
  values: string[];
}

/** The option whose values are grouped into shade families. */
export const SHADE_OPTION = 'สี';

/**
 * Colour words a shade's name is grouped by, the first found in this order winning: "ชมพูนู้ด" is ชมพู,
 * "แดงอิฐ" แดง, "ทองชมพู" ชมพู; a name without any ("เบอร์รี่", "โรสโกลด์") is its own group. น้ำเงิน
 * comes before เงิน, which it contains. The same list, in the same order, is the SQL function
 * `shop_shade_family` (drizzle/0019), which the option keys index is built on: change both together
 * (tests/integration/option-facets.test.ts compares them).
 */
export const SHADE_FAMILIES = ['ชมพู', 'แดง', 'ส้ม', 'ม่วง', 'น้ำตาล', 'นู้ด', 'เบจ', 'ครีม', 'น้ำเงิน', 'ฟ้า', 'เขียว', 'เหลือง', 'ทอง', 'เงิน', 'เทา', 'ดำ', 'ขาว'] as const;

/** A shade's family: `shop_shade_family` (drizzle/0019) in TypeScript. */
export function shadeFamily(value: string): string {
  return SHADE_FAMILIES.find((word) => value.includes(word)) ?? value;
}

/** What a value is listed and chosen as: its shade family for สี, itself for other options. */
export function facetValue(optionName: string, value: string): string {
  return optionName === SHADE_OPTION ? shadeFamily(value) : value;
}

/** `shadeFamily` in SQL (drizzle/0019). */
function shadeFamilySql(value: SQL): SQL {
  return sql`shop_shade_family(${value})`;
}

/** `facetValue` in SQL, for a value column and an option name column. */
function facetValueSql(name: SQL, value: SQL): SQL {
  return sql`(case when ${name} = ${SHADE_OPTION}::text then ${shadeFamilySql(value)} else ${value} end)`;
}

const variantColumns = [productVariants.option1, productVariants.option2, productVariants.option3] as const;

/** A value column against chosen values (for สี, families: `chosenKeys` made them so). */
function optionValueMatches(name: string, column: SQL, values: SQL): SQL {
  return name === SHADE_OPTION ? sql`${shadeFamilySql(column)} = any(${values})` : sql`${column} = any(${values})`;
}

/** The values an option's choice is matched by: for สี their families, so a shade's own name in an old link finds its family. */
function chosenKeys(option: OptionChoice): string[] {
  return [...new Set(option.name === SHADE_OPTION ? option.values.map(shadeFamily) : option.values)];
}

/**
 * Every value a variant can be found by, in any position, and its shade family: the expression the GIN
 * index `product_variants_option_keys_idx` (drizzle/0019) is built on, written exactly as there.
 */
const optionKeys = sql`array[${productVariants.option1}, ${productVariants.option2}, ${productVariants.option3}, shop_shade_family(${productVariants.option1}), shop_shade_family(${productVariants.option2}), shop_shade_family(${productVariants.option3})]`;

/**
 * A product has an active variant with one of the chosen values of the option (in stock or not: sold-out
 * shades stay visible, like sold-out products). One EXISTS per option, so two options are both met by
 * the product, not necessarily by one variant; the probe reads `product_variants_active_options_idx`
 * (product_id, option1, option2, option3) alone. With `candidates`, the products are also those the
 * option keys index finds with any chosen value in any position: a value few products have (or none)
 * is then found from the index, not by probing every product of the listing; the EXISTS checks the
 * value is in the option's own position.
 */
export function optionConditions(options: readonly OptionChoice[], { candidates }: { candidates: boolean }): SQL[] {
  return options.flatMap((option) => {
    const values = sql`array[${sql.join(
      chosenKeys(option).map((value) => sql`${value}::text`),
      sql`, `,
    )}]::text[]`;
    const positions = variantColumns.map(
      (column, index) =>
        sql`(${products.optionNames}[${sql.raw(String(index + 1))}] = ${option.name}::text and ${optionValueMatches(option.name, sql`${column}`, values)})`,
    );
    const exists = sql`exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id} and ${productVariants.active} and (${sql.join(positions, sql` or `)}))`;
    if (!candidates) return [exists];
    return [sql`${products.id} in (select ${productVariants.productId} from ${productVariants} where ${productVariants.active} and ${optionKeys} && ${values})`, exists];
  });
}

/** One option of the facet panel: its values as the shopper chooses them, each with its products here. */
export interface OptionFacet {
  name: string;
  /** Null counts: more than COUNT_BOUND products with options here (see `capped`). */
  values: { value: string; count: number | null }[];
}

export interface OptionFacetRead {
  options: OptionFacet[];
  /** More than COUNT_BOUND products with options were here: values come from the first ones, without counts. */
  capped: boolean;
}

interface OptionRow {
  name: string;
  value: string;
  n: number;
  scoped: number;
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * The option values of the products in scope (a category, a promotion, a search's match), each with how
 * many products have an active variant of it. At most COUNT_BOUND + 1 products with options are read,
 * like every count of the listing: the work is bounded by that, not by the catalog's size.
 */
export async function readOptionFacets(db: DbOrTx, where: SQL | undefined): Promise<OptionFacetRead> {
  const names = sql`s.option_names`;
  const rows = rowsOf<OptionRow>(
    await db.execute(sql`with scoped as (
        select ${products.id} as id, ${products.optionNames} as option_names from ${products}
        where ${and(where, sql`${products.optionNames} <> '{}'::text[]`)} limit ${COUNT_BOUND + 1}
      )
      select o.name, ${facetValueSql(sql`o.name`, sql`o.value`)} as value, count(distinct s.id)::int as n, (select count(*) from scoped)::int as scoped
      from scoped s
      join ${productVariants} v on v.product_id = s.id and v.active
      cross join lateral (values (${names}[1], v.option1), (${names}[2], v.option2), (${names}[3], v.option3)) as o(name, value)
      where o.name is not null and o.value is not null and o.value <> ''
      group by 1, 2`),
  );
  const capped = rows.length > 0 && Number(rows[0]!.scoped) > COUNT_BOUND;
  const byName = new Map<string, { value: string; n: number }[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), { value: row.value, n: Number(row.n) }]);
  const options: OptionFacet[] = [];
  for (const [name, values] of byName) {
    // An option is the category's when two products have it, or it offers two values to choose between.
    if (values.length < 2 && values.every((entry) => entry.n < 2)) continue;
    values.sort((a, b) => b.n - a.n || a.value.localeCompare(b.value, 'th', { numeric: true }));
    options.push({ name, values: values.map((entry) => ({ value: entry.value, count: capped ? null : entry.n })) });
  }
  // The option most products use first (สี before ขนาด in a makeup category).
  const reach = (option: OptionFacet) => Math.max(...option.values.map((entry) => entry.count ?? 0));
  options.sort((a, b) => reach(b) - reach(a) || a.name.localeCompare(b.name, 'th'));
  return { options, capped };
}
