import { parseWith, textFields } from '../admin/forms.ts';
import { storePicture } from '../storage/images.ts';
import { giftSettingsSchema, type GiftSettings } from '../../lib/settings-schemas.ts';
import type { GiftWrapOption } from '../../lib/gift-wrap.ts';

/**
 * The settings page's "ห่อของขวัญ" form (multipart, so a wrapping's picture uploads without JavaScript).
 *
 * Rows keep their code (hidden field); a new row gets the first free `wrap-N`, so checkout pages already
 * open and orders keep naming the same wrapping after the list is edited. Each row has one file field
 * (`wrapPicture`, sent by a browser for every row, empty when nothing was chosen, so the n-th file is the
 * n-th row's) and may tick `wrapPictureRemove` (valued with its code). A row keeps the picture saved under
 * its code unless a new one is chosen or removal is ticked: the picture's address never comes from the
 * form, so nobody can point a wrapping at a file of their choosing.
 *
 * Everything typed is checked before any picture is stored, and every picture before anything is saved:
 * a refused upload (not a picture, too many pixels, too large) changes nothing, and the page shows what
 * was typed again with the Thai reason.
 */
const ROW_FIELDS = ['wrapCode', 'wrapName', 'wrapPrice', 'wrapActive'] as const;

interface WrapRow {
  code: string;
  name: string;
  price: string;
  active: boolean;
  file: File | null;
}

function typedRows(form: FormData): WrapRow[] {
  const columns = ROW_FIELDS.map((name) => form.getAll(name).map((value) => (typeof value === 'string' ? value : '')));
  const files = form.getAll('wrapPicture');
  const length = Math.max(0, ...columns.map((column) => column.length));
  const out: WrapRow[] = [];
  for (let i = 0; i < length; i++) {
    const [code = '', name = '', price = '', active = ''] = columns.map((column) => column[i] ?? '');
    // A row with its name and price cleared is removed; the spare row left empty is no row at all.
    if (name.trim() === '' && price.trim() === '') continue;
    const file = files[i];
    out.push({ code: code.trim(), name, price, active: active === '1', file: file instanceof File && file.size > 0 ? file : null });
  }
  return out;
}

function withCodes(rows: WrapRow[]): Array<WrapRow & { code: string }> {
  const taken = new Set(rows.map((row) => row.code).filter(Boolean));
  let next = 1;
  return rows.map((row) => {
    if (row.code) return row;
    while (taken.has(`wrap-${next}`)) next += 1;
    const code = `wrap-${next}`;
    taken.add(code);
    return { ...row, code };
  });
}

/** The gift settings the form asks for, new pictures stored; `saved` is the list as it is now. */
export async function readGiftSettingsForm(form: FormData, saved: readonly GiftWrapOption[]): Promise<GiftSettings> {
  const fields = textFields(form);
  const rows = withCodes(typedRows(form));
  const removed = new Set(form.getAll('wrapPictureRemove').filter((value): value is string => typeof value === 'string'));
  const savedPicture = new Map(saved.map((option) => [option.code, option.picture]));
  const withoutPictures = parseWith(giftSettingsSchema, {
    giftWrapOptions: rows.map((row) => ({ code: row.code, name: row.name, priceSatang: row.price, active: row.active })),
    giftCardPriceSatang: fields.giftCardPrice ?? '',
  });
  const pictures: Array<string | undefined> = [];
  for (const row of rows) {
    if (row.file) pictures.push((await storePicture(new Uint8Array(await row.file.arrayBuffer()), 'wrappings')).url);
    else pictures.push(removed.has(row.code) ? undefined : savedPicture.get(row.code));
  }
  return {
    ...withoutPictures,
    giftWrapOptions: withoutPictures.giftWrapOptions.map((option, index) => {
      const picture = pictures[index];
      return picture ? { ...option, picture } : option;
    }),
  };
}
