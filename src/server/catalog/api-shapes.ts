import { satangToBaht } from '../../lib/money.ts';
import type { CategorySummary, CompanyInfo, ProductSummary } from '../../lib/types.ts';
import { variantOptions } from '../../lib/variants.ts';
import { chosenVariant } from '../../lib/variant-choice.ts';
import { averageRating } from '../../lib/reviews.ts';
import type { BrandSummary, GalleryAlbum, ProductDetail, PromotionSummary, RecruitmentPost } from '../../lib/catalog-types.ts';

/**
 * JSON shapes of the catalog API (docs/design.md section 6): snake_case like the cart item, prices in baht
 * in `*_price` fields. Pages use the camelCase objects directly; only the API maps.
 */
export function apiProduct(product: ProductSummary) {
  return {
    product_id: product.id,
    product_code: product.code,
    product_name: product.name,
    product_price: satangToBaht(product.priceSatang),
    wholesale_from_price: product.wholesaleFromSatang === null ? null : satangToBaht(product.wholesaleFromSatang),
    product_image: product.image,
    stock: product.stock,
    in_stock: product.stock > 0,
    category_code: product.categoryCode,
    category_name: product.categoryName,
    brand_code: product.brandCode,
    brand_name: product.brandName,
    created_at: product.createdAt,
    // Published reviews (docs/decisions/224): the average to one decimal, null with none.
    rating: product.reviewCount ? averageRating(product.reviewCount, product.reviewRatingSum ?? 0) : null,
    review_count: product.reviewCount ?? 0,
  };
}

export function apiCategory(category: CategorySummary & { description?: string }) {
  return {
    category_id: category.id,
    category_code: category.code,
    category_name: category.name,
    category_name_en: category.nameEn,
    category_image: category.image,
    ...(category.description !== undefined ? { description: category.description } : {}),
    ...(category.productCount !== undefined ? { product_count: category.productCount } : {}),
  };
}

export function apiBrand(brand: BrandSummary) {
  return { brand_id: brand.id, brand_code: brand.code, brand_name: brand.name, brand_name_th: brand.nameTh, description: brand.description, logo: brand.logo };
}

/** A product's variants in its answer (docs/decisions/205); a one-variant product has one, with no options. */
export function apiVariants(product: ProductDetail) {
  return product.variants.map((variant) => ({
    variant_code: variant.code,
    options: variantOptions(product.optionNames, variant.values),
    swatch: variant.swatch,
    price: satangToBaht(variant.priceSatang),
    stock: variant.stock,
    in_stock: variant.stock > 0,
    image: variant.image ?? product.image,
    active: variant.active,
    price_tiers: variant.tiers.map((tier) => ({ min_quantity: tier.minQuantity, unit_price: satangToBaht(tier.priceSatang) })),
  }));
}

/**
 * The product's answer. Asked by a variant's code (`requestedCode`), `variant_code` names that variant;
 * asked by the product's code, it is null.
 */
export function apiProductDetail(product: ProductDetail, requestedCode?: string) {
  const chosen = requestedCode ? chosenVariant(product, requestedCode) : null;
  return {
    ...apiProduct(product),
    option_names: product.optionNames,
    variants: apiVariants(product),
    variant_code: chosen?.code ?? null,
    product_name_en: product.nameEn,
    description: product.description,
    unit: product.unit,
    recommended: product.recommended,
    updated_at: product.updatedAt,
    images: product.images.map((image) => ({ url: image.url, alt: image.alt })),
    price_tiers: product.tiers.map((tier) => ({ min_quantity: tier.minQuantity, unit_price: satangToBaht(tier.priceSatang) })),
    category: apiCategory(product.category),
    brand: product.brand ? apiBrand(product.brand) : null,
  };
}

export function apiPromotion(promotion: PromotionSummary) {
  return {
    promotion_code: promotion.code,
    promotion_name: promotion.name,
    description: promotion.description,
    banner_image: promotion.bannerImage,
    discount_type: promotion.discountType,
    discount_value: promotion.discountType === 'fixed' ? satangToBaht(promotion.discountValue) : promotion.discountValue,
    min_order_price: satangToBaht(promotion.minOrderSatang),
    max_discount_price: promotion.maxDiscountSatang === null ? null : satangToBaht(promotion.maxDiscountSatang),
    starts_at: promotion.startsAt,
    ends_at: promotion.endsAt,
    usage_limit: promotion.usageLimit,
    used_count: promotion.usedCount,
    state: promotion.state,
    category_codes: promotion.categoryCodes,
    product_codes: promotion.productCodes,
  };
}

export function apiGallery(album: GalleryAlbum) {
  return { gallery_code: album.code, title: album.title, description: album.description, cover_image: album.coverImage, image_count: album.imageCount, created_at: album.createdAt };
}

export function apiRecruitment(post: RecruitmentPost) {
  return { id: post.id, title: post.title, description: post.description, location: post.location, employment_type: post.employmentType, salary: post.salary, open: post.open, posted_at: post.postedAt };
}

/** The shop configuration without internal fields; money as baht. */
export function apiCompany(company: CompanyInfo) {
  return {
    code: company.code,
    name: company.name,
    name_en: company.nameEn,
    tagline: company.tagline,
    phone: company.phone,
    email: company.email,
    facebook_url: company.facebookUrl,
    line_id: company.lineId,
    map_url: company.mapUrl,
    address: company.address,
    opening_hours: company.openingHours,
    tax_id: company.taxId,
    promptpay_id: company.promptpayId,
    bank_accounts: company.bankAccounts,
    delivery_options: company.deliveryOptions.map((option) => ({ code: option.code, name: option.name, fee_price: satangToBaht(option.feeSatang), days: option.days })),
    free_shipping_min_price: company.freeShippingMinSatang === null ? null : satangToBaht(company.freeShippingMinSatang),
    payment_methods: company.paymentMethods,
  };
}
