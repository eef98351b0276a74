import { describe, expect, it } from 'vitest';
import { productCardHtml, productCardsHtml } from '../../src/components/catalog/product-cards-html';
import { escapeHtml } from '../../src/lib/html';
import { HEART_SVG } from '../../src/components/wishlist/heart-svg';
import type { ProductSummary } from '../../src/lib/types';

const picture = '/media/products/ce3da7601e53c235dc92911f-480.webp';
const card: ProductSummary = {
  id: 5982,
  code: 'P05982',
  name: 'โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย',
  priceSatang: 9000,
  wholesaleFromSatang: 6400,
  stock: 1197,
  image: picture,
  categoryCode: 'skincare',
  categoryName: 'สกินแคร์',
  brandCode: 'aroma-thai',
  brandName: 'Aroma Thai',
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('product cards written as a string', () => {
  it('writes the markup the cards had as an Astro component (the add-to-cart script reads its data attributes)', () => {
    expect(productCardHtml(card, true)).toBe(
      '<article class="card h-100 product-card border-0 shadow-sm" data-product-code="P05982">' +
        '<a href="/product/P05982" class="text-decoration-none text-reset"><img class="card-img-top product-card-img" src="/media/products/ce3da7601e53c235dc92911f-480.webp" srcset="/media/products/ce3da7601e53c235dc92911f-320.webp 320w, /media/products/ce3da7601e53c235dc92911f-480.webp 480w" sizes="(min-width: 1200px) 200px, (min-width: 768px) 25vw, 50vw" alt="โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย" width="240" height="240" loading="eager" fetchpriority="high" decoding="async"></a>' +
        // The wishlist heart, always unpressed in the shared markup (docs/decisions/209).
        '<button type="button" class="wish-heart needs-js wish-heart-card" data-wish="P05982" data-name="โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย" aria-pressed="false" aria-label="เพิ่มในรายการโปรด: โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย" title="เพิ่มในรายการโปรด">' +
        HEART_SVG +
        '</button>' +
        '<div class="card-body p-2 d-flex flex-column"><div class="small text-secondary text-truncate">Aroma Thai</div>' +
        '<h3 class="product-card-name fw-normal mb-1"><a href="/product/P05982" class="text-reset text-decoration-none">โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย</a></h3>' +
        '<div class="mt-auto"><div class="text-price">฿90</div><div class="small text-success">ราคาส่งเริ่ม ฿64</div>' +
        '<button type="button" class="btn btn-cart btn-sm w-100 mt-2 card-add-button needs-js" aria-label="หยิบ โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย ใส่ตะกร้า" data-add-to-cart data-code="P05982" data-name="โทนเนอร์ชาเขียว สูตรผิวแพ้ง่าย" data-price="90" data-image="/media/products/ce3da7601e53c235dc92911f-480.webp" data-stock="1197"><span data-label="ใส่ตะกร้า" aria-live="polite">ใส่ตะกร้า</span></button></div>' +
        '</div></article>',
    );
  });

  it('leaves out what a product does not have: brand, wholesale price, stock, a stored picture', () => {
    const html = productCardHtml({ ...card, brandName: null, brandCode: null, wholesaleFromSatang: null, stock: 0, image: null }, false);
    expect(html).not.toContain('text-truncate');
    expect(html).not.toContain('ราคาส่งเริ่ม');
    expect(html).not.toContain('data-add-to-cart');
    expect(html).toContain('<span class="badge text-bg-secondary">สินค้าหมด</span>');
    expect(html).toContain('src="/images/placeholder.svg"');
    expect(html).not.toContain('srcset');
    expect(html).toContain('loading="lazy" decoding="async"');
    expect(html).not.toContain('fetchpriority');
  });

  it('escapes every value a back-office user typed, in text and in attributes', () => {
    const hostile = `"><script>alert('x')</script><img src=x onerror=alert(1)>&`;
    const html = productCardHtml({ ...card, name: hostile, brandName: hostile, code: `P1"x`, image: `/x.png" onload="alert(1)` }, false);
    expect(html).not.toMatch(/<script|<img src=x|onload="alert/);
    expect(html).toContain(`alt="${escapeHtml(hostile)}"`);
    expect(html).toContain(`data-name="${escapeHtml(hostile)}"`);
    expect(html).toContain(`aria-label="เพิ่มในรายการโปรด: ${escapeHtml(hostile)}"`);
    expect(html).toContain('data-wish="P1&quot;x"');
    expect(html).toContain(`>${escapeHtml(hostile)}</a></h3>`);
    expect(html).toContain('data-product-code="P1&quot;x"');
    expect(html).toContain('href="/product/P1%22x"');
    expect(escapeHtml(hostile)).toBe('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&amp;');
  });

  it('loads the first pictures of a grid at once and the rest lazily, each card in its column', () => {
    const html = productCardsHtml([card, { ...card, code: 'P2' }, { ...card, code: 'P3' }], 2);
    expect(html.match(/<div class="col"><article /g)).toHaveLength(3);
    expect(html.match(/loading="eager" fetchpriority="high"/g)).toHaveLength(2);
    expect(html.match(/loading="lazy"/g)).toHaveLength(1);
    expect(productCardsHtml([], 4)).toBe('');
  });
});
