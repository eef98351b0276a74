import { describe, expect, it } from 'vitest';
import { callGet, enc } from '../fixtures/api-context';
import { SEED_PRODUCTS } from '../fixtures/database';
import * as productList from '../../src/pages/api/product';
import * as productRandom from '../../src/pages/api/product-random';
import * as productOne from '../../src/pages/api/product/[code]';
import * as productPage from '../../src/pages/api/product/page/[params]';
import * as includeById from '../../src/pages/api/product-include/[id]';
import * as includeByCode from '../../src/pages/api/product-include-bycode/[code]';
import * as includeByName from '../../src/pages/api/product-include-name/[name]';
import * as productCount from '../../src/pages/api/product-count/[params]';
import * as categoryList from '../../src/pages/api/category';
import * as categoryParams from '../../src/pages/api/category/[params]';
import * as categoryName from '../../src/pages/api/category-name/[name]';
import * as productBrand from '../../src/pages/api/product-brand';
import * as productSearch from '../../src/pages/api/product-search/[params]';
import * as subImages from '../../src/pages/api/product-sub-img/[code]';
import * as company from '../../src/pages/api/get-company';
import * as recruitment from '../../src/pages/api/get-recruitment';
import * as gallery from '../../src/pages/api/get-gallery';
import * as galleryList from '../../src/pages/api/get-gallery-list/[code]';
import * as promotion from '../../src/pages/api/get-promotion';
import * as promotionByCode from '../../src/pages/api/get-promotionbycode/[code]';
import * as promotionActive from '../../src/pages/api/get-promotionactive';
import * as suggest from '../../src/pages/api/search-suggest';

type Product = { product_code: string; product_name: string; product_price: number; brand_code: string | null; category_code: string; stock: number };
type Paged = { data: Product[]; total: number; page: number; pageSize: number };
type Failure = { message: string; code: string };

const thai = /[\u0E00-\u0E7F]/;

function expectBadRequest(result: { status: number; body: unknown }, code?: string) {
  expect(result.status).toBe(400);
  const body = result.body as Failure;
  expect(body.message).toMatch(thai);
  if (code) expect(body.code).toBe(code);
}

describe('product lists', () => {
  it('GET /api/product pages the catalog with total, page and pageSize', async () => {
    const first = await callGet<Paged>(productList, '/api/product');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(SEED_PRODUCTS);
    expect(first.body.pageSize).toBe(24);
    expect(first.body.data).toHaveLength(24);
    expect(first.cacheTags).toContain('catalog');
    const second = await callGet<Paged>(productList, '/api/product?page=2');
    expect(second.body.page).toBe(2);
    expect(second.body.data[0]?.product_code).not.toBe(first.body.data[0]?.product_code);
  });

  it('sorts by price both ways and filters by price in baht', async () => {
    const cheap = await callGet<Paged>(productList, '/api/product?sort=price_asc&min=100&max=200');
    const prices = cheap.body.data.map((p) => p.product_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices.every((price) => price >= 100 && price <= 200)).toBe(true);
    const dear = await callGet<Paged>(productList, '/api/product?sort=price_desc');
    const dearPrices = dear.body.data.map((p) => p.product_price);
    expect(dearPrices).toEqual([...dearPrices].sort((a, b) => b - a));
  });

  it('rejects malformed query parameters with 400 and a Thai message', async () => {
    expectBadRequest(await callGet(productList, '/api/product?page=-1'), 'invalid_page');
    expectBadRequest(await callGet(productList, '/api/product?min=abc'), 'invalid_price');
    expectBadRequest(await callGet(productList, '/api/product?min=500&max=100'), 'invalid_price_range');
    expectBadRequest(await callGet(productList, '/api/product?sort=cheapest'), 'invalid_sort');
    expectBadRequest(await callGet(productList, `/api/product?q=${'ก'.repeat(101)}`), 'keyword_too_long');
  });

  it('GET /api/product-random answers recommended products in stock, never cached', async () => {
    const result = await callGet<{ data: Product[] }>(productRandom, '/api/product-random?limit=5');
    expect(result.status).toBe(200);
    expect(result.body.data.length).toBeGreaterThan(0);
    expect(result.body.data.length).toBeLessThanOrEqual(5);
    expect(result.body.data.every((p) => p.stock > 0)).toBe(true);
    expect(result.cacheTags).toEqual([]);
    expectBadRequest(await callGet(productRandom, '/api/product-random?limit=0'));
    expectBadRequest(await callGet(productRandom, '/api/product-random?limit=abc'));
  });
});

describe('comma-separated paths', () => {
  it('GET /api/product/page/{page},{min},{max},{brand} filters; empty, 0 and all mean no filter', async () => {
    const filtered = await callGet<Paged>(productPage, '/api/product/page/1,100,300,moji');
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBeGreaterThan(0);
    expect(filtered.body.data.every((p) => p.brand_code === 'moji' && p.product_price >= 100 && p.product_price <= 300)).toBe(true);
    for (const path of ['/api/product/page/1,0,0,all', '/api/product/page/1,,,', '/api/product/page/0,all,all,0', '/api/product/page/all']) {
      const all = await callGet<Paged>(productPage, path);
      expect(all.status, path).toBe(200);
      expect(all.body.total, path).toBe(SEED_PRODUCTS);
      expect(all.body.page, path).toBe(1);
    }
    const several = await callGet<Paged>(productPage, '/api/product/page/1,0,0,moji|glow-lab');
    expect(new Set(several.body.data.map((p) => p.brand_code))).toEqual(new Set(['moji', 'glow-lab']));
  });

  it('answers 400 for a negative page, a non-numeric price, min above max and too many parts', async () => {
    expectBadRequest(await callGet(productPage, '/api/product/page/-1,0,0,all'), 'invalid_page');
    expectBadRequest(await callGet(productPage, '/api/product/page/1.5,0,0,all'), 'invalid_page');
    expectBadRequest(await callGet(productPage, '/api/product/page/1,abc,0,all'), 'invalid_price');
    expectBadRequest(await callGet(productPage, '/api/product/page/1,0,-5,all'), 'invalid_price');
    expectBadRequest(await callGet(productPage, '/api/product/page/1,500,100,all'), 'invalid_price_range');
    expectBadRequest(await callGet(productPage, '/api/product/page/1,0,0,<script>'), 'invalid_brand');
    expectBadRequest(await callGet(productPage, '/api/product/page/1,0,0,all,extra'), 'invalid_parameters');
  });

  it('GET /api/product-count/{category},{keyword},{min},{max},{brand} answers { count }', async () => {
    const all = await callGet<{ data: { count: number } }>(productCount, '/api/product-count/all,,0,0,all');
    expect(all.body.data.count).toBe(SEED_PRODUCTS);
    const makeup = await callGet<{ data: { count: number } }>(productCount, '/api/product-count/makeup,,0,0,all');
    const lip = await callGet<{ data: { count: number } }>(productCount, `/api/product-count/makeup,${enc('ลิป')},0,0,all`);
    expect(makeup.body.data.count).toBeGreaterThan(lip.body.data.count);
    expect(lip.body.data.count).toBeGreaterThan(0);
    expect((await callGet(productCount, '/api/product-count/nope,,0,0,all')).status).toBe(404);
    expectBadRequest(await callGet(productCount, `/api/product-count/all,${'a'.repeat(101)},0,0,all`), 'keyword_too_long');
  });

  it('GET /api/product-search/{page},{keyword},{min},{max},{brand} ranks and pages search results', async () => {
    const result = await callGet<Paged>(productSearch, `/api/product-search/1,${enc('ลิป')},0,0,all`);
    expect(result.status).toBe(200);
    expect(result.body.total).toBeGreaterThan(0);
    expect(result.body.data[0]?.product_name.startsWith('ลิป')).toBe(true);
    const withComma = await callGet<Paged>(productSearch, `/api/product-search/1,${enc('ลิป,สติก')},0,0,all`);
    expect(withComma.status).toBe(200);
    expectBadRequest(await callGet(productSearch, `/api/product-search/-2,${enc('ลิป')},0,0,all`), 'invalid_page');
    expectBadRequest(await callGet(productSearch, `/api/product-search/1,${enc('ลิป')},x,0,all`), 'invalid_price');
    expectBadRequest(await callGet(productSearch, `/api/product-search/1,${enc('ก'.repeat(101))},0,0,all`), 'keyword_too_long');
    expectBadRequest(await callGet(productSearch, `/api/product-search/1,${enc('ลิป')},900,100,all`), 'invalid_price_range');
  });
});

describe('one product', () => {
  it('GET /api/product/{code} answers the product with tiers in baht, 404 when unknown', async () => {
    const result = await callGet<{ data: Product & { price_tiers: { min_quantity: number; unit_price: number }[]; images: unknown[] } }>(productOne, '/api/product/P00001', { code: 'P00001' });
    expect(result.status).toBe(200);
    expect(result.body.data.product_code).toBe('P00001');
    expect(typeof result.body.data.product_price).toBe('number');
    expect(result.cacheTags).toContain('product:p00001');
    const missing = await callGet<Failure>(productOne, '/api/product/NOPE', { code: 'NOPE' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('product_not_found');
    expect(missing.body.message).toMatch(thai);
  });

  it('GET /api/product-include/{id}, -bycode/{code} and -name/{name} include category, brand, images and tiers', async () => {
    const byId = await callGet<{ data: { product_code: string; product_name: string; category: { category_code: string }; images: unknown[]; price_tiers: unknown[] } }>(includeById, '/api/product-include/2', { id: '2' });
    expect(byId.status).toBe(200);
    expect(byId.body.data.category.category_code).toBeTruthy();
    expect(byId.body.data.images.length).toBeGreaterThan(0);
    const byCode = await callGet<typeof byId.body>(includeByCode, `/api/product-include-bycode/${byId.body.data.product_code}`, { code: byId.body.data.product_code.toLowerCase() });
    expect(byCode.body.data.product_name).toBe(byId.body.data.product_name);
    const byName = await callGet<typeof byId.body>(includeByName, '/api/product-include-name/x', { name: ` ${byId.body.data.product_name}\u200B ` });
    expect(byName.status).toBe(200);
    expect(byName.body.data.product_code).toBe(byId.body.data.product_code);
    expectBadRequest(await callGet(includeById, '/api/product-include/abc', { id: 'abc' }), 'invalid_id');
    expectBadRequest(await callGet(includeById, '/api/product-include/-1', { id: '-1' }), 'invalid_id');
    expect((await callGet(includeById, '/api/product-include/999999', { id: '999999' })).status).toBe(404);
    expect((await callGet(includeByCode, '/api/product-include-bycode/NOPE', { code: 'NOPE' })).status).toBe(404);
    expect((await callGet(includeByName, '/api/product-include-name/x', { name: 'ไม่มีสินค้านี้' })).status).toBe(404);
  });

  it('a product with tiers lists them cheapest last', async () => {
    const found = await callGet<Paged>(productList, '/api/product?category=party-favours');
    const code = found.body.data[0]?.product_code as string;
    const detail = await callGet<{ data: { product_price: number; price_tiers: { min_quantity: number; unit_price: number }[] } }>(productOne, `/api/product/${code}`, { code });
    const tiers = detail.body.data.price_tiers;
    expect(tiers.length).toBeGreaterThan(0);
    expect(tiers.map((t) => t.min_quantity)).toEqual([...tiers.map((t) => t.min_quantity)].sort((a, b) => a - b));
    expect(tiers.every((t) => t.unit_price < detail.body.data.product_price)).toBe(true);
  });

  it('GET /api/product-sub-img/{code} answers the images after the main one', async () => {
    const detail = await callGet<{ data: { images: { url: string }[] } }>(productOne, '/api/product/P00001', { code: 'P00001' });
    const sub = await callGet<{ data: { url: string }[] }>(subImages, '/api/product-sub-img/P00001', { code: 'P00001' });
    expect(sub.status).toBe(200);
    expect(sub.body.data.map((i) => i.url)).toEqual(detail.body.data.images.slice(1).map((i) => i.url));
    expect((await callGet(subImages, '/api/product-sub-img/NOPE', { code: 'NOPE' })).status).toBe(404);
  });
});

describe('categories and brands', () => {
  it('GET /api/category lists active categories with counts', async () => {
    const result = await callGet<{ data: { category_code: string; product_count: number }[] }>(categoryList, '/api/category');
    expect(result.body.data.length).toBe(13);
    expect(result.body.data.reduce((sum, c) => sum + c.product_count, 0)).toBe(SEED_PRODUCTS);
  });

  it('GET /api/category/{code} answers one category; {page},{code},{min},{max},{brand} a page of it', async () => {
    const one = await callGet<{ data: { category_code: string; category_name: string } }>(categoryParams, '/api/category/makeup');
    expect(one.body.data.category_name).toBe('เครื่องสำอาง');
    expect((await callGet(categoryParams, '/api/category/nope')).status).toBe(404);
    const page = await callGet<Paged>(categoryParams, '/api/category/1,makeup,0,0,all');
    expect(page.body.total).toBeGreaterThan(0);
    expect(page.body.data.every((p) => p.category_code === 'makeup')).toBe(true);
    const page2 = await callGet<Paged>(categoryParams, '/api/category/2,makeup,0,0,all');
    expect(page2.body.page).toBe(2);
    expect((await callGet(categoryParams, '/api/category/1,nope,0,0,all')).status).toBe(404);
    expectBadRequest(await callGet(categoryParams, '/api/category/-1,makeup,0,0,all'), 'invalid_page');
    expectBadRequest(await callGet(categoryParams, '/api/category/1,makeup,abc,0,all'), 'invalid_price');
    expectBadRequest(await callGet(categoryParams, '/api/category/1,bad code!,0,0,all'), 'invalid_category');
    expectBadRequest(await callGet(categoryParams, '/api/category/%E0%B8'));
  });

  it('GET /api/category-name/{name} finds by Thai or English name', async () => {
    const thaiName = await callGet<{ data: { category_code: string } }>(categoryName, '/x', { name: 'เครื่องสำอาง' });
    expect(thaiName.body.data.category_code).toBe('makeup');
    const english = await callGet<{ data: { category_code: string } }>(categoryName, '/x', { name: 'MAKEUP' });
    expect(english.body.data.category_code).toBe('makeup');
    expect((await callGet(categoryName, '/x', { name: 'ไม่มี' })).status).toBe(404);
  });

  it('GET /api/product-brand lists brands', async () => {
    const result = await callGet<{ data: { brand_code: string; brand_name: string }[] }>(productBrand, '/api/product-brand');
    expect(result.body.data).toHaveLength(12);
    expect(result.body.data.map((b) => b.brand_code)).toContain('glow-lab');
  });
});

describe('company, recruitment, gallery', () => {
  it('GET /api/get-company/ answers a list whose first item is the shop', async () => {
    const result = await callGet<{ data: { name: string; phone: string; line_id: string; delivery_options: { fee_price: number }[] }[] }>(company, '/api/get-company/');
    expect(result.body.data[0]?.name).toMatch(/ร้าน/);
    expect(result.body.data[0]?.line_id).toBe('@yimlamai');
    expect(result.body.data[0]?.delivery_options[0]?.fee_price).toBe(50);
  });

  it('GET /api/get-recruitment/ lists jobs, open first', async () => {
    const result = await callGet<{ data: { title: string; open: boolean }[] }>(recruitment, '/api/get-recruitment/');
    expect(result.body.data.length).toBe(3);
    expect(result.body.data.map((job) => job.open)).toEqual([true, true, false]);
  });

  it('GET /api/get-gallery/ and /api/get-gallery-list/{code}', async () => {
    const albums = await callGet<{ data: { gallery_code: string; image_count: number }[] }>(gallery, '/api/get-gallery/');
    expect(albums.body.data.length).toBe(4);
    const first = albums.body.data[0] as { gallery_code: string; image_count: number };
    const images = await callGet<{ data: { url: string }[] }>(galleryList, '/x', { code: first.gallery_code });
    expect(images.body.data).toHaveLength(first.image_count);
    expect((await callGet(galleryList, '/x', { code: 'nope' })).status).toBe(404);
  });
});

describe('promotions', () => {
  it('GET /api/get-promotion/ lists every promotion with its state, active first', async () => {
    const result = await callGet<{ data: { promotion_code: string; state: string }[] }>(promotion, '/api/get-promotion/');
    const states = Object.fromEntries(result.body.data.map((p) => [p.promotion_code, p.state]));
    expect(states).toMatchObject({ WELCOME10: 'active', GIFT50: 'active', PARTY15: 'active', NEWYEAR2027: 'upcoming', SONGKRAN: 'ended', FLASH99: 'used_up' });
    expect(result.body.data.slice(0, 3).every((p) => p.state === 'active')).toBe(true);
    expect(result.body.data[3]?.state).toBe('upcoming');
  });

  it('GET /api/get-promotionactive/ leaves out upcoming, ended and used-up promotions', async () => {
    const result = await callGet<{ data: { promotion_code: string }[] }>(promotionActive, '/api/get-promotionactive/');
    expect(result.body.data.map((p) => p.promotion_code).sort()).toEqual(['GIFT50', 'PARTY15', 'WELCOME10']);
  });

  it('GET /api/get-promotionbycode/{code} answers one, case-insensitively; 404 when unknown', async () => {
    const result = await callGet<{ data: { promotion_code: string; discount_type: string; discount_value: number; min_order_price: number } }>(promotionByCode, '/x', { code: 'gift50' });
    expect(result.body.data).toMatchObject({ promotion_code: 'GIFT50', discount_type: 'fixed', discount_value: 50, min_order_price: 500 });
    expect((await callGet(promotionByCode, '/x', { code: 'NOPE' })).status).toBe(404);
  });
});

describe('search suggestions', () => {
  it('GET /api/search-suggest?q= answers categories, brands and product names', async () => {
    const result = await callGet<{ data: { kind: string; label: string; href: string }[] }>(suggest, `/api/search-suggest?q=${enc('เครื่อง')}`);
    expect(result.body.data.some((s) => s.kind === 'category' && s.href === '/product/category/makeup')).toBe(true);
    const brand = await callGet<{ data: { kind: string; href: string }[] }>(suggest, '/api/search-suggest?q=glow');
    expect(brand.body.data[0]).toMatchObject({ kind: 'brand', href: '/product?brand=glow-lab' });
    const empty = await callGet<{ data: unknown[] }>(suggest, '/api/search-suggest?q=%20');
    expect(empty.body.data).toEqual([]);
    expectBadRequest(await callGet(suggest, `/api/search-suggest?q=${'a'.repeat(101)}`), 'keyword_too_long');
  });
});
