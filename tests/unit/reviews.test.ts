import { describe, expect, it } from 'vitest';
import { productCardHtml } from '../../src/components/catalog/product-cards-html';
import { averageRating, ratingLabel, reviewStateWord, starsText } from '../../src/lib/reviews';
import type { ProductSummary } from '../../src/lib/types';

/** issue 31 part 3 (docs/decisions/224): the small sums and words of reviews, and a card's stars. */

const card: ProductSummary = {
  id: 7,
  code: 'P00007',
  name: 'สมุดโน้ต <ลายแมว>',
  priceSatang: 5900,
  wholesaleFromSatang: null,
  stock: 3,
  image: null,
  categoryCode: 'stationery',
  categoryName: 'เครื่องเขียน',
  brandCode: null,
  brandName: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('review words and sums', () => {
  it('averages to one decimal and names the stars for a screen reader', () => {
    expect(averageRating(12, 55)).toBe(4.6);
    expect(averageRating(0, 0)).toBe(0);
    expect(ratingLabel(4.6, 1234)).toBe('คะแนน 4.6 จาก 5 จาก 1,234 รีวิว');
    expect(ratingLabel(5, 1)).toBe('คะแนน 5.0 จาก 5 จาก 1 รีวิว');
  });

  it('fills a star from three quarters up', () => {
    expect(starsText(5)).toBe('★★★★★');
    expect(starsText(4.8)).toBe('★★★★★');
    expect(starsText(4.5)).toBe('★★★★☆');
    expect(starsText(1)).toBe('★☆☆☆☆');
    expect(starsText(0)).toBe('☆☆☆☆☆');
  });

  it('tells the writer how their review stands', () => {
    expect(reviewStateWord('published')).toBe('รีวิวแล้ว');
    expect(reviewStateWord('pending')).toBe('รอร้านตรวจ');
    expect(reviewStateWord('hidden', 'มีข้อมูลติดต่อส่วนตัว')).toBe('ซ่อนโดยร้าน: มีข้อมูลติดต่อส่วนตัว');
    expect(reviewStateWord('hidden', null)).toBe('ซ่อนโดยร้าน');
  });
});

describe('a card’s stars', () => {
  it('shows ★ average (count) as one image with a Thai name, from the product row’s counts', () => {
    const html = productCardHtml({ ...card, reviewCount: 12, reviewRatingSum: 55 }, false);
    expect(html).toContain(
      '<div class="card-rating small" role="img" aria-label="คะแนน 4.6 จาก 5 จาก 12 รีวิว"><span class="rating-star">★</span> 4.6 <span class="text-secondary">(12)</span></div>',
    );
    expect(html).toContain('สมุดโน้ต &lt;ลายแมว&gt;');
  });

  it('shows nothing without published reviews', () => {
    expect(productCardHtml({ ...card, reviewCount: 0, reviewRatingSum: 0 }, false)).not.toContain('card-rating');
    expect(productCardHtml(card, false)).not.toContain('card-rating');
  });
});
