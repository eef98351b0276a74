/**
 * Thai text helpers shared by the server (search index, validation) and islands.
 * Thai has no spaces between words, and pasted text often carries zero-width characters or
 * decomposed vowels, so both the stored text and the keyword go through the same normalisation.
 */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const SPACES = /\s+/g;

export function normalizeText(input: string): string {
  return input.normalize('NFC').replace(ZERO_WIDTH, '').replace(SPACES, ' ').trim();
}

/**
 * Thai marks typed in another order than the one Unicode stores (docs/decisions/179). The same word can
 * be typed several ways that look alike on screen: sara am as nikhahit + sara aa (`ํา`), a tone mark after
 * sara am (`นำ้` for `น้ำ`), a tone mark before the vowel above or below (`ก่ี` for `กี่`), a mark twice.
 * Stored order: consonant, vowel above or below, tone mark, then sara am. The same four rules run in SQL
 * (`shop_thai_marks`, drizzle/0011), so the indexed text and the keyword agree.
 */
const NIKHAHIT_AA = /\u0E4D([\u0E48-\u0E4B]?)\u0E32/g;
const TONE_AFTER_AM = /\u0E33([\u0E48-\u0E4B])/g;
const TONE_BEFORE_VOWEL = /([\u0E48-\u0E4B])([\u0E31\u0E34-\u0E3A\u0E47])/g;
const MARK_TWICE = /([\u0E31\u0E34-\u0E3A\u0E47-\u0E4E])\1+/g;

export function thaiMarkOrder(input: string): string {
  return input.replace(NIKHAHIT_AA, '$1\u0E33').replace(TONE_AFTER_AM, '$1\u0E33').replace(TONE_BEFORE_VOWEL, '$2$1').replace(MARK_TWICE, '$1');
}

/** Normalised, Thai marks in stored order, lower-cased: what search indexes and matches. */
export function searchKey(input: string): string {
  return thaiMarkOrder(normalizeText(input)).toLocaleLowerCase('th-TH');
}

const TONE_MARKS = /[\u0E48-\u0E4B]/g;

/**
 * A search key without its tone marks (่ ้ ๊ ๋): `ตุกตา` finds `ตุ๊กตา` when the exact form finds little.
 * Matches the index expression `replace(translate(lower(name), '่้๊๋', ''), 'ํา', 'ำ')` of drizzle/0011.
 */
export function withoutTones(key: string): string {
  return key.replace(TONE_MARKS, '');
}

/** Whether a text has Thai letters in it (tone-free matching only helps those). */
export function hasThai(text: string): boolean {
  return /[\u0E01-\u0E5B]/.test(text);
}

/** Escapes LIKE wildcards so a keyword is matched literally. */
export function escapeLike(input: string): string {
  return input.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

// Pure: a bundle that only needs normalizeText (the navbar search box) leaves these formatters out.
const thaiDate = /* @__PURE__ */ new Intl.DateTimeFormat('th-TH', { dateStyle: 'long', timeZone: 'Asia/Bangkok' });
const thaiDateTime = /* @__PURE__ */ new Intl.DateTimeFormat('th-TH', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Bangkok',
});

const thaiTime = /* @__PURE__ */ new Intl.DateTimeFormat('th-TH', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Bangkok' });

/** 21 พฤศจิกายน 2569: Buddhist era, Bangkok time. */
export function formatThaiDate(value: Date | string): string {
  return thaiDate.format(typeof value === 'string' ? new Date(value) : value);
}

/** 05:30: the time of day in Bangkok, for "try again after" messages (the caller adds น.). */
export function formatThaiTime(value: Date): string {
  return thaiTime.format(value);
}

export function formatThaiDateTime(value: Date | string): string {
  return thaiDateTime.format(typeof value === 'string' ? new Date(value) : value);
}
