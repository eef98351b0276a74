import { checkbox, parseWith, textFields } from '../admin/forms.ts';
import { storePicture } from '../storage/images.ts';
import { promotionFormSchema, splitCodes, type PromotionForm } from '../../lib/promotion-schemas.ts';

/** Reads the promotion form (multipart: the banner picture rides along, so the form works without JavaScript). */
export function readPromotionForm(form: FormData): PromotionForm {
  const fields = textFields(form);
  return parseWith(promotionFormSchema, {
    ...fields,
    active: checkbox(form, 'active'),
    firstOrderOnly: checkbox(form, 'firstOrderOnly'),
    categoryCodes: form.getAll('category').filter((value): value is string => typeof value === 'string'),
    productCodes: splitCodes(fields.products ?? ''),
    bannerColor: fields.bannerColor || '#ffd000',
    bannerTextOver: fields.bannerText || undefined,
  });
}

/** The uploaded banner through the picture pipeline, or null when none was chosen. */
export async function uploadedBanner(form: FormData): Promise<string | null> {
  const file = form.get('banner');
  if (!(file instanceof File) || file.size === 0) return null;
  const picture = await storePicture(new Uint8Array(await file.arrayBuffer()), 'banners');
  return picture.url;
}
