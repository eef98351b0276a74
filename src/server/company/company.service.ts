import { asc } from 'drizzle-orm';
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
};

let loaded: CompanyInfo | undefined;
let loading: Promise<CompanyInfo> | undefined;

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
  loading ??= loadCompanies()
    .then((rows) => {
      loaded = rows[0] ?? fallbackCompany;
      return loaded;
    })
    .catch((error: unknown) => {
      log.error('company configuration could not be loaded', errorFields(error));
      return fallbackCompany;
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

export async function listCompanies(): Promise<CompanyInfo[]> {
  return loadCompanies();
}

/** Forget the kept record (after an operator changes it). */
export function invalidateCompany(): void {
  loaded = undefined;
}
