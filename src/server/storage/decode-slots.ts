/**
 * Decoding a picture holds its whole bitmap in memory (a 40-megapixel picture is 160 MB as RGBA, before
 * sharp's working copies): twelve uploaded at once took the server from 1.1 to 2.75 GB. So every decode in
 * the process (uploaded pictures, payment slips) waits for one of a few slots, held while its bitmap is
 * in use; the rest of a request (reading the body, the database) does not wait.
 */
export const PICTURE_DECODE_SLOTS = 2;

let inUse = 0;
let peak = 0;
const waiting: Array<() => void> = [];

/** Runs `decode` once a slot is free; slots are handed on in the order pictures asked for them. */
export async function withDecodeSlot<T>(decode: () => Promise<T>): Promise<T> {
  if (inUse < PICTURE_DECODE_SLOTS) inUse += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the releasing decode hands its slot on
  peak = Math.max(peak, inUse);
  try {
    return await decode();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else inUse -= 1;
  }
}

/** How many decodes run now and the most that ran at once since `resetPeak` (for tests and diagnosis). */
export const decodeSlots = {
  inUse: () => inUse,
  waiting: () => waiting.length,
  peak: () => peak,
  resetPeak: () => {
    peak = inUse;
  },
};
