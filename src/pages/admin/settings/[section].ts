import { checkbox, adminForm, parseWith, textFields } from '../../../server/admin/forms';
import { notFound } from '../../../server/http/errors';
import { updateCompanySettings, updateDeliverySettings, updateGiftSettings, updatePaymentSettings, updatePickupSettings, updateReviewSettings } from '../../../server/settings/settings.service';
import { companySettingsSchema, deliverySettingsSchema, paymentSettingsSchema, pickupSettingsSchema, reviewSettingsSchema } from '../../../lib/settings-schemas';
import { readGiftSettingsForm } from '../../../server/settings/gift-settings-form';
import { getCompany } from '../../../server/company/company.service';
import { REMOVE_DELIVERY, withCarrierDefaults } from '../../../lib/carriers';

/** Rows of repeated fields (name="bank" … once per row); a row left wholly empty is the spare one and is dropped. */
function rows<K extends string>(form: FormData, names: readonly K[]): Array<Record<K, string>> {
  const columns = names.map((name) => form.getAll(name).map((value) => (typeof value === 'string' ? value : '')));
  const length = Math.max(0, ...columns.map((column) => column.length));
  const out: Array<Record<K, string>> = [];
  for (let i = 0; i < length; i++) {
    const row = Object.fromEntries(names.map((name, c) => [name, columns[c]?.[i] ?? ''])) as Record<K, string>;
    if (Object.values<string>(row).some((value) => value.trim() !== '')) out.push(row);
  }
  return out;
}

export const POST = adminForm(
  'settings',
  (context) => `/admin/settings#${context.params.section ?? ''}`,
  async ({ context, staff, actor, form }) => {
    const fields = textFields(form);
    switch (context.params.section) {
      case 'company':
        await updateCompanySettings(actor, parseWith(companySettingsSchema, fields));
        return { message: 'บันทึกข้อมูลร้านแล้ว หน้าร้านแสดงข้อมูลใหม่ทันที', redirect: '/admin/settings#company' };
      case 'payment': {
        const input = parseWith(paymentSettingsSchema, {
          promptpayId: fields.promptpayId ?? '',
          bankAccounts: rows(form, ['bank', 'accountNo', 'accountName', 'branch'] as const),
          paymentMethods: { promptpay: checkbox(form, 'promptpay'), bankTransfer: checkbox(form, 'bankTransfer'), cod: checkbox(form, 'cod') },
          orderExpiryHours: fields.orderExpiryHours ?? '',
        });
        await updatePaymentSettings(actor, staff.member.id, fields.password ?? '', input);
        return { message: 'บันทึกการชำระเงินแล้ว', redirect: '/admin/settings#payment' };
      }
      case 'delivery': {
        const input = parseWith(deliverySettingsSchema, {
          deliveryOptions: rows(form, ['code', 'name', 'fee', 'days', 'trackingUrl'] as const)
            .filter((row) => row.code !== REMOVE_DELIVERY)
            .map(({ fee, ...row }) => ({ ...withCarrierDefaults(row), feeSatang: fee })),
          freeShippingMinSatang: fields.freeShipping ?? '',
        });
        await updateDeliverySettings(actor, input);
        return { message: 'บันทึกการจัดส่งแล้ว', redirect: '/admin/settings#delivery' };
      }
      case 'pickup':
        await updatePickupSettings(actor, parseWith(pickupSettingsSchema, fields));
        return { message: 'บันทึกการรับสินค้าแล้ว', redirect: '/admin/settings#pickup' };
      case 'gift':
        await updateGiftSettings(actor, await readGiftSettingsForm(form, (await getCompany()).giftWrapOptions));
        return { message: 'บันทึกการห่อของขวัญแล้ว', redirect: '/admin/settings#gift' };
      case 'reviews':
        await updateReviewSettings(actor, parseWith(reviewSettingsSchema, { reviewsNeedApproval: checkbox(form, 'reviewsNeedApproval'), reviewInvites: checkbox(form, 'reviewInvites') }));
        return { message: 'บันทึกการตั้งค่ารีวิวแล้ว', redirect: '/admin/settings#reviews' };
      default:
        throw notFound();
    }
  },
);
