import { z } from './zod.ts';

/**
 * Gift wrapping and the message card (issue 31, part 6), shared by the settings form, the checkout island
 * and the endpoints: the shop's wrapping options, what a buyer asks for, and the card message's rules
 * (at most 200 characters as a reader counts them, so an emoji is one; no links). Pure code.
 * Pricing and storage: docs/decisions/221-gift-wrap-priced-per-line-kept-on-the-order.md.
 */

/** One wrapping the shop offers (settings). Prices in satang. */
export interface GiftWrapOption {
  code: string;
  name: string;
  priceSatang: number;
  active: boolean;
  /** Its picture: the widest stored variant's URL (`/media/wrappings/<hash>-<width>.webp`); none on older rows. */
  picture?: string;
}

/** A picture stored by the picture pipeline, and nothing else (no outside address can ride in the settings). */
export const STORED_PICTURE = /^\/media\/[a-z]+\/[a-f0-9]{24}-\d{1,4}\.webp$/;

/** A wrapping as it was sold: kept on the order and its lines, so a later price change never moves it. */
export interface GiftWrapSnapshot {
  code: string;
  name: string;
  priceSatang: number;
}

export const GIFT_MESSAGE_MAX = 200;
export const GIFT_MESSAGE_LABEL = 'ข้อความบนการ์ด';

/** Characters as a reader counts them: an emoji, or a Thai consonant with its marks, is one. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(text)) count += 1;
  return count;
}

/**
 * A card goes into someone else's hands: no addresses to type into a browser. Catches schemes, www.,
 * and a name followed by a common top-level domain (example.com, shop.co.th, bit.ly/x).
 */
const LINK = /(?:[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[a-z0-9-]+\.(?:com|net|org|info|biz|co|th|io|ly|me|shop|app|link|xyz|site|online|store|gg|to|cc|tv|us|uk|in\.th|ac\.th|go\.th)\b)/i;
export function containsLink(text: string): boolean {
  return LINK.test(text);
}

/**
 * Emoji graphemes (keycaps like 1️⃣ and flags included): the card PDF sets them in its emoji face, not
 * the Thai one (src/server/documents/card-lines.ts, decision 228).
 */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
/** Joiners and variation selectors: they only steer an emoji's look, and a text face draws them as boxes. */
const EMOJI_CONTROLS = /\u200D|\uFE0E|\uFE0F/gu;

export interface TextRun {
  text: string;
  emoji: boolean;
}

/** The text split into runs of emoji and of everything else, never inside a grapheme; each emoji grapheme is a run of its own. */
export function emojiRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const { segment } of new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(text)) {
    if (EMOJI.test(segment)) {
      runs.push({ text: segment, emoji: true });
      continue;
    }
    const plain = segment.replace(EMOJI_CONTROLS, '');
    if (plain === '') continue;
    const last = runs[runs.length - 1];
    if (last && !last.emoji) last.text += plain;
    else runs.push({ text: plain, emoji: false });
  }
  return runs;
}

export const giftMessageSchema = z
  .string({ error: `${GIFT_MESSAGE_LABEL}ไม่ถูกต้อง` })
  .transform((value) => value.replace(/\r\n?/g, '\n').trim())
  .refine((value) => graphemeCount(value) <= GIFT_MESSAGE_MAX, `${GIFT_MESSAGE_LABEL}ยาวได้ไม่เกิน ${GIFT_MESSAGE_MAX} ตัวอักษร`)
  .refine((value) => value.split('\n').length <= 8, `${GIFT_MESSAGE_LABEL}ได้ไม่เกิน 8 บรรทัด`)
  .refine((value) => !containsLink(value), `${GIFT_MESSAGE_LABEL}ใส่ลิงก์หรือที่อยู่เว็บไซต์ไม่ได้`);

const wrapCode = z
  .string({ error: 'กรุณาเลือกแบบห่อของขวัญ' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,29}$/, 'แบบห่อของขวัญไม่ถูกต้อง');

/**
 * What a buyer asks for at checkout (`gift` in /api/order-quote and /api/orders): one wrapping for the
 * whole order, or one per line (keyed by product code), never both; a card message; and whether the
 * packing slip leaves prices out (the parcel goes to someone else).
 */
export const giftRequestSchema = z
  .object({
    wrap_code: wrapCode.optional(),
    line_wraps: z.record(z.string().trim().max(64), wrapCode).optional(),
    message: giftMessageSchema.optional(),
    hide_prices: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.wrap_code && value.line_wraps && Object.keys(value.line_wraps).length > 0) {
      ctx.addIssue({ code: 'custom', path: ['wrap_code'], message: 'เลือกห่อทั้งคำสั่งซื้อหรือห่อแยกรายการอย่างใดอย่างหนึ่ง' });
    }
  });
export type GiftRequest = z.infer<typeof giftRequestSchema>;

/** What an order (or a quote) carries about gifts; amounts in satang. */
export interface GiftView {
  /** One wrapping for the whole order, or null. */
  orderWrap: GiftWrapSnapshot | null;
  /** Wrapping of every kind on the order: the whole-order one, or the sum of the lines'. */
  wrapSatang: number;
  message: string;
  /** Charged once when there is a message; 0 when the shop gives the card free. */
  cardSatang: number;
  hidePrices: boolean;
}

export const noGift: GiftView = { orderWrap: null, wrapSatang: 0, message: '', cardSatang: 0, hidePrices: false };

export function hasGift(gift: GiftView | undefined, lineWraps: ReadonlyArray<GiftWrapSnapshot | null> = []): boolean {
  if (!gift) return false;
  return gift.orderWrap !== null || gift.message !== '' || gift.hidePrices || lineWraps.some((wrap) => wrap !== null);
}
