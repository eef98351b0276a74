import { asc } from 'drizzle-orm';
import { registerDropper } from '../cache/invalidation-bus.ts';
import { getDb } from '../db/client.ts';
import { company } from '../db/schema.ts';
import { errorFields, log } from '../log.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/** Used when the company record cannot be loaded: pages still render, with neutral values. */
const fallbackCompany: CompanyInfo = {
  code: 'main',
  name: 'ร้านค้าออนไลน์',
  nameEn: 'Online shop',
  tagline: '',
  phone: '',
  email: '',
  facebookUrl: '',
  lineId: '',
  mapUrl: '',
  address: '',
  openingHours: '',
  taxId: '',
  promptpayId: '',
  bankAccounts: [],
  deliveryOptions: [],
  freeShippingMinSatang: null,
  paymentMethods: { promptpay: false, bankTransfer: false, cod: false },
  orderExpiryHours: 24,
  quotationValidDays: 30,
  pickupAddress: '',
  pickupHours: '',
  autoDeliverDays: 7,
  giftWrapOptions: [],
  giftCardPriceSatang: 0,
};

let loaded: CompanyInfo | undefined;
let loading: Promise<CompanyInfo> | undefined;
/** Bumped by invalidateCompany, so a load that started before a change never keeps the old record. */
let generation = 0;

async function loadCompanies(): Promise<CompanyInfo[]> {
  const db = await getDb();
  const rows = await db.select().from(company).orderBy(asc(company.id));
  return rows.map(({ id: _id, updatedAt: _updatedAt, ...rest }) => rest);
}

/**
 * The shop configuration (first company record), loaded once and kept. A failed load is logged and
 * answered with neutral values so pages render; the next call tries again.
 */
export async function getCompany(): Promise<CompanyInfo> {
  if (loaded) return loaded;
  const started = generation;
  loading ??= loadCompanies()
    .then((rows) => {
      const record = rows[0] ?? fallbackCompany;
      if (started === generation) loaded = record;
      return record;
    })
    .catch((error: unknown) => {
      log.error('company configuration could not be loaded', errorFields(error));
      return fallbackCompany;
    })
    .finally(() => {
      if (started === generation) loading = undefined;
    });
  return loading;
}

export async function listCompanies(): Promise<CompanyInfo[]> {
  return loadCompanies();
}

/** Forget the kept record (after an operator changes it). */
export function invalidateCompany(): void {
  generation++;
  loaded = undefined;
  loading = undefined;
}

// Settings changed on any instance (`invalidateSettings()`), or everything dropped: reload here too.
registerDropper((tags) => {
  if (tags.includes('settings') || tags.includes('content') || tags.includes('catalog')) invalidateCompany();
});
