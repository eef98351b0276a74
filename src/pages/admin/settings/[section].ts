import { auditActor } from '../../../server/admin/guard';
import { checkbox, formEndpoint, parseWith, textFields } from '../../../server/admin/content-forms';
import { notFound } from '../../../server/http/errors';
import { updateCompanySettings, updateDeliverySettings, updatePaymentSettings } from '../../../server/settings/settings.service';
import { companySettingsSchema, deliverySettingsSchema, paymentSettingsSchema } from '../../../lib/settings-schemas';

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

export const POST = formEndpoint(
  'settings',
  async (context, form, staff) => {
    const actor = auditActor(staff, context);
    const fields = textFields(form);
    switch (context.params.section) {
      case 'company':
        await updateCompanySettings(actor, parseWith(companySettingsSchema, fields));
        return { to: '/admin/settings#company', flash: { kind: 'success', text: 'บันทึกข้อมูลร้านแล้ว หน้าร้านแสดงข้อมูลใหม่ทันที' } };
      case 'payment': {
        const input = parseWith(paymentSettingsSchema, {
          promptpayId: fields.promptpayId ?? '',
          bankAccounts: rows(form, ['bank', 'accountNo', 'accountName', 'branch'] as const),
          paymentMethods: { promptpay: checkbox(form, 'promptpay'), bankTransfer: checkbox(form, 'bankTransfer'), cod: checkbox(form, 'cod') },
          orderExpiryHours: fields.orderExpiryHours ?? '',
        });
        await updatePaymentSettings(actor, staff.member.id, fields.password ?? '', input);
        return { to: '/admin/settings#payment', flash: { kind: 'success', text: 'บันทึกการชำระเงินแล้ว' } };
      }
      case 'delivery': {
        const input = parseWith(deliverySettingsSchema, {
          deliveryOptions: rows(form, ['code', 'name', 'fee', 'days', 'trackingUrl'] as const).map(({ fee, ...row }) => ({ ...row, feeSatang: fee })),
          freeShippingMinSatang: fields.freeShipping ?? '',
        });
        await updateDeliverySettings(actor, input);
        return { to: '/admin/settings#delivery', flash: { kind: 'success', text: 'บันทึกการจัดส่งแล้ว' } };
      }
      default:
        throw notFound();
    }
  },
  (context) => `/admin/settings#${context.params.section ?? ''}`,
);
