/**
 * Migration 0017 (docs/decisions/205) on a shop that has sold: every product becomes one variant with
 * its code, price, stock and picture; tiers, order lines, quotation lines and stock history point at it;
 * nothing is lost. Then the triggers that keep the product's aggregates. On PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL names a server (a database of this file's own, dropped at the end).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Raw {
  run(text: string): Promise<void>;
  rows<T>(text: string): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

const drizzleDir = path.resolve('drizzle');

/** The migrations folder as it was before 0017. */
function foldersBefore0017(): string {
  const dir = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), 'shop-mig-0016-'));
  cpSync(drizzleDir, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < 17);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function openRaw(): Promise<Raw> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const base = new URL(url);
    const name = `${decodeURIComponent(base.pathname.slice(1))}_v0017`;
    const server = postgres(Object.assign(new URL(base), { pathname: '/postgres' }).href, { max: 1, onnotice: () => {} });
    await server.unsafe(`drop database if exists "${name}" with (force)`);
    await server.unsafe(`create database "${name}"`);
    const sql = postgres(Object.assign(new URL(base), { pathname: `/${name}` }).href, { max: 1, onnotice: () => {} });
    return {
      run: async (text) => void (await sql.unsafe(text)),
      rows: async <T,>(text: string) => (await sql.unsafe(text)) as unknown as T[],
      migrate: (folder) => migrate(drizzle(sql), { migrationsFolder: folder }),
      close: async () => {
        await sql.end({ timeout: 5 });
        await server.unsafe(`drop database if exists "${name}" with (force)`);
        await server.end({ timeout: 5 });
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create({ extensions: { pg_trgm } });
  return {
    run: async (text) => void (await client.exec(text)),
    rows: async <T,>(text: string) => (await client.query<T>(text)).rows,
    migrate: (folder) => migrate(drizzle(client), { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

/** A small shop at schema 0016: 300 products (some with tiers and pictures), 40 orders, history, a quotation. */
const SHOP_0016 = `
INSERT INTO categories (code, name) VALUES ('makeup', 'เครื่องสำอาง');
INSERT INTO products (code, name, category_id, price_satang, stock, image, created_at)
SELECT 'M' || lpad(g::text, 5, '0'), 'สินค้าทดสอบ ' || g, (SELECT id FROM categories), 1000 + g * 10, g % 7,
       CASE WHEN g % 3 = 0 THEN '/media/p' || g || '.webp' END, now() - g * interval '1 hour'
FROM generate_series(1, 300) g;
INSERT INTO product_price_tiers (product_id, min_quantity, price_satang) SELECT id, 10, price_satang - 100 FROM products WHERE id % 4 = 0;
INSERT INTO product_price_tiers (product_id, min_quantity, price_satang) SELECT id, 50, price_satang - 200 FROM products WHERE id % 8 = 0;
INSERT INTO members (first_name, last_name, email, phone, password_hash) VALUES ('ทดสอบ', 'ย้ายข้อมูล', 'migrate@example.test', '0812345678', 'x');
INSERT INTO orders (order_no, member_id, status, payment_method, delivery_code, delivery_name, shipping_fee_satang, subtotal_satang, total_satang, vat_satang, address, idempotency_key)
SELECT 'YL' || lpad(g::text, 5, '0'), (SELECT id FROM members), 'paid', 'promptpay', 'ems', 'EMS', 0, 0, 0, 0, '{}'::jsonb, 'key-' || g
FROM generate_series(1, 40) g;
INSERT INTO order_lines (order_id, product_id, product_code, product_name, product_image, unit_price_satang, amount, line_total_satang)
SELECT o.id, p.id, p.code, p.name, p.image, p.price_satang, 2, p.price_satang * 2
FROM orders o JOIN products p ON p.id BETWEEN substr(o.order_no, 3)::int * 5 AND substr(o.order_no, 3)::int * 5 + 2;
INSERT INTO stock_movements (product_id, delta, stock_after, kind, order_no)
SELECT l.product_id, -l.amount, p.stock, 'order', o.order_no FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN products p ON p.id = l.product_id;
INSERT INTO quotations (quotation_no, member_id, buyer_name, delivery_code, delivery_name, shipping_fee_satang, subtotal_satang, total_satang, vat_satang, valid_until)
VALUES ('QT0001', (SELECT id FROM members), 'บริษัท ทดสอบ', 'ems', 'EMS', 0, 0, 0, 0, now() + interval '7 days');
INSERT INTO quotation_lines (quotation_id, product_id, product_code, product_name, unit_price_satang, amount, line_total_satang)
SELECT (SELECT id FROM quotations), id, code, name, price_satang, 1, price_satang FROM products WHERE id <= 3;
`;

interface Totals {
  products: number;
  stock: number;
  price: number;
  tiers: number;
  wholesale: number;
  lines: number;
  line_totals: number;
  movements: number;
  quotation_lines: number;
}

const TOTALS = `SELECT
  (SELECT count(*) FROM products)::int AS products,
  (SELECT sum(stock) FROM products)::int AS stock,
  (SELECT sum(price_satang) FROM products)::int AS price,
  (SELECT count(*) FROM product_price_tiers)::int AS tiers,
  (SELECT coalesce(sum(wholesale_from_satang), 0) FROM products)::int AS wholesale,
  (SELECT count(*) FROM order_lines)::int AS lines,
  (SELECT sum(line_total_satang) FROM order_lines)::int AS line_totals,
  (SELECT count(*) FROM stock_movements)::int AS movements,
  (SELECT count(*) FROM quotation_lines)::int AS quotation_lines`;

describe('migration 0017: products to variants', () => {
  let db: Raw;
  let before: Totals;

  beforeAll(async () => {
    db = await openRaw();
    await db.migrate(foldersBefore0017());
    await db.run(SHOP_0016);
    [before] = (await db.rows<Totals>(TOTALS)) as [Totals];
    await db.migrate(drizzleDir);
  });

  afterAll(async () => {
    await db?.close();
  });

  it('gives every product one variant with its code, price and stock, and loses nothing', async () => {
    expect(before.products).toBe(300);
    expect(before.lines).toBeGreaterThan(100);
    const [after] = await db.rows<Totals>(TOTALS);
    expect(after).toEqual(before);
    const [variants] = await db.rows<{ total: number; matching: number; own_picture: number; options: number }>(`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE v.code = p.code AND v.price_satang = p.price_satang AND v.stock = p.stock AND v.active)::int AS matching,
             count(v.image)::int AS own_picture,
             count(v.option1)::int AS options
      FROM product_variants v JOIN products p ON p.id = v.product_id`);
    expect(variants).toEqual({ total: 300, matching: 300, own_picture: 0, options: 0 });
    const [orphans] = await db.rows<{ tiers: number; lines: number; movements: number; quotation_lines: number }>(`
      SELECT (SELECT count(*) FROM product_price_tiers WHERE variant_id IS NOT NULL)::int AS tiers,
             (SELECT count(*) FROM order_lines l LEFT JOIN product_variants v ON v.id = l.variant_id
               WHERE v.id IS NULL OR v.product_id <> l.product_id OR v.code <> l.product_code)::int AS lines,
             (SELECT count(*) FROM stock_movements m LEFT JOIN product_variants v ON v.id = m.variant_id
               WHERE v.id IS NULL OR v.product_id <> m.product_id)::int AS movements,
             (SELECT count(*) FROM quotation_lines q LEFT JOIN product_variants v ON v.id = q.variant_id
               WHERE v.id IS NULL OR v.product_id <> q.product_id)::int AS quotation_lines`);
    // The tiers stay the product's (they apply to its one variant); every line and movement names its variant.
    expect(orphans).toEqual({ tiers: 0, lines: 0, movements: 0, quotation_lines: 0 });
  });

  it('keeps a product born afterwards, and its written stock, price and code, in its one variant', async () => {
    await db.run(`INSERT INTO products (code, name, category_id, price_satang, stock) VALUES ('NEW01', 'สินค้าใหม่', (SELECT id FROM categories), 5000, 12)`);
    const [born] = await db.rows<{ code: string; price_satang: number; stock: number }>(
      `SELECT v.code, v.price_satang, v.stock FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.code = 'NEW01'`,
    );
    expect(born).toEqual({ code: 'NEW01', price_satang: 5000, stock: 12 });
    await db.run(`UPDATE products SET stock = 4, price_satang = 4500, code = 'NEW02' WHERE code = 'NEW01'`);
    const variants = await db.rows<{ code: string; price_satang: number; stock: number }>(
      `SELECT v.code, v.price_satang, v.stock FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.code = 'NEW02'`,
    );
    expect(variants).toEqual([{ code: 'NEW02', price_satang: 4500, stock: 4 }]);
  });

  it("keeps a product's price as its lowest active variant's and its stock as the active variants' sum", async () => {
    const product = `(SELECT id FROM products WHERE code = 'M00010')`;
    await db.run(`UPDATE products SET option_names = '{สี}' WHERE code = 'M00010'`);
    await db.run(`UPDATE product_variants SET option1 = 'แดง', stock = 5, price_satang = 9000 WHERE code = 'M00010'`);
    await db.run(`INSERT INTO product_variants (product_id, code, option1, price_satang, stock, sort_order) VALUES
      (${product}, 'M00010-PK', 'ชมพู', 8000, 3, 1), (${product}, 'M00010-OR', 'ส้ม', 7000, 0, 2)`);
    const aggregate = async () =>
      (await db.rows<{ price_satang: number; stock: number }>(`SELECT price_satang, stock FROM products WHERE code = 'M00010'`))[0];
    expect(await aggregate()).toEqual({ price_satang: 7000, stock: 8 });
    // An order takes one shade; a shade taken off sale leaves the price and the stock.
    await db.run(`UPDATE product_variants SET stock = stock - 2 WHERE code = 'M00010-PK'`);
    expect(await aggregate()).toEqual({ price_satang: 7000, stock: 6 });
    await db.run(`UPDATE product_variants SET active = false WHERE code = 'M00010-OR'`);
    await db.run(`UPDATE product_variants SET active = false WHERE code = 'M00010'`);
    expect(await aggregate()).toEqual({ price_satang: 8000, stock: 1 });
    await db.run(`DELETE FROM product_variants WHERE code = 'M00010-PK'`);
    expect(await aggregate()).toEqual({ price_satang: 7000, stock: 0 });
    // A product of several variants has its stock written on its variants, never on itself.
    await expect(db.run(`UPDATE products SET stock = 50 WHERE code = 'M00010'`)).rejects.toThrow(/variants/);
    // A code is the shop's: no variant takes another product's code.
    await expect(db.run(`INSERT INTO product_variants (product_id, code, price_satang) VALUES (${product}, 'M00011', 100)`)).rejects.toThrow();
  });
});
