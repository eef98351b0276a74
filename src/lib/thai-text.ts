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

/** Normalised and lower-cased: what search indexes and matches. */
export function searchKey(input: string): string {
  return normalizeText(input).toLocaleLowerCase('th-TH');
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
