/**
 * The whole domain of docs/design.md, one module per job under schema/. Money is integer satang; times
 * are timestamptz. Drizzle (and drizzle-kit, drizzle.config.ts) reads the tables from here.
 */
export * from './schema/shop.ts';
export * from './schema/members.ts';
export * from './schema/orders.ts';
export * from './schema/back-office.ts';
export * from './schema/wishlist.ts';
export * from './schema/line.ts';
export * from './schema/member-cart.ts';
export * from './schema/back-in-stock.ts';
export * from './schema/reviews.ts';
