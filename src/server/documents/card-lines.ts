import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { THAI_FONT, type PdfDoc } from './pdf.ts';
import { emojiRuns } from '../../lib/gift-wrap.ts';

/**
 * Centred lines of Thai text and emoji for the message card (decision 228). pdfkit sets one font per
 * text call and has no font fallback, and Sarabun has no emoji, so the message is split into runs
 * (emoji graphemes and the rest, src/lib/gift-wrap.ts), each run measured in its own face (Sarabun, or
 * the monochrome Noto Emoji), and the lines broken here: at Thai word boundaries (the runtime's
 * dictionary segmenter, which pdfkit's own line breaker does not have), at spaces, and inside a word only
 * when one word is wider than the box. Each piece is drawn on a shared baseline, so both faces sit on
 * one line whatever their ascenders.
 */
export const EMOJI_FONT = 'NotoEmoji';

const require = createRequire(import.meta.url);
let emojiFontBytes: Buffer | undefined;

/**
 * The whole monochrome Noto Emoji (the package's `emoji` file; the numbered files are the same font cut
 * by unicode-range for browsers, and a cut splits skin-tone and ZWJ sequences from their parts). pdfkit
 * embeds only the glyphs a card uses.
 */
function emojiFont(): Buffer {
  emojiFontBytes ??= readFileSync(path.join(path.dirname(require.resolve('@fontsource/noto-emoji/LICENSE')), 'files', 'noto-emoji-emoji-400-normal.woff'));
  return emojiFontBytes;
}

export function registerEmojiFont(doc: PdfDoc): void {
  doc.registerFont(EMOJI_FONT, emojiFont());
}

interface FontInternals {
  _font: { font: { layout(text: string): { glyphs: { id: number }[] }; hasGlyphForCodePoint(codePoint: number): boolean } };
}

const drawsWhole = (doc: PdfDoc, text: string) => (doc.font(EMOJI_FONT) as unknown as FontInternals)._font.font.layout(text).glyphs.every((glyph) => glyph.id !== 0);

/**
 * What the emoji face can draw of one emoji grapheme: the whole sequence when it shapes without a missing
 * glyph (skin tones and ZWJ families are ligatures in Noto Emoji); else the sequence without its
 * variation selectors; else its first character alone (👩‍🦰 of a newer Unicode → 👩); else nothing (an
 * emoji newer than the font is left off, never a box).
 */
export function printableEmoji(doc: PdfDoc, grapheme: string): string {
  if (drawsWhole(doc, grapheme)) return grapheme;
  const plain = grapheme.replace(/[\uFE0E\uFE0F]/gu, '');
  if (plain !== '' && drawsWhole(doc, plain)) return plain;
  const first = String.fromCodePoint(grapheme.codePointAt(0) ?? 0x20);
  return /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(first) && drawsWhole(doc, first) ? first : '';
}

export interface Piece {
  text: string;
  font: string;
  width: number;
}
export interface CardLine {
  pieces: Piece[];
  width: number;
}
interface Token {
  pieces: Piece[];
  width: number;
  space: boolean;
}

const words = new Intl.Segmenter('th', { granularity: 'word' });
const graphemes = new Intl.Segmenter('th', { granularity: 'grapheme' });

function measure(doc: PdfDoc, text: string, font: string, size: number): Piece {
  return { text, font, width: doc.font(font).fontSize(size).widthOfString(text) };
}

function token(pieces: Piece[], space = false): Token {
  return { pieces, width: pieces.reduce((sum, piece) => sum + piece.width, 0), space };
}

/** One word (or space, or emoji) as pieces in their faces; emoji the font cannot draw are left out. */
function tokenOf(doc: PdfDoc, word: string, size: number, emoji: Map<string, string>): Token {
  const pieces: Piece[] = [];
  for (const run of emojiRuns(word)) {
    if (!run.emoji) {
      pieces.push(measure(doc, run.text, THAI_FONT, size));
      continue;
    }
    if (!emoji.has(run.text)) emoji.set(run.text, printableEmoji(doc, run.text));
    const printable = emoji.get(run.text)!;
    if (printable !== '') pieces.push(measure(doc, printable, EMOJI_FONT, size));
  }
  return token(pieces, /^\s+$/u.test(word));
}

/** A word wider than the whole line, cut between graphemes. */
function graphemeTokens(doc: PdfDoc, word: Token, size: number): Token[] {
  return word.pieces.flatMap((piece) => [...graphemes.segment(piece.text)].map(({ segment }) => token([measure(doc, segment, piece.font, size)])));
}

/** Joins neighbouring pieces of one face, so a line is drawn (and read back by a PDF reader) as few runs. */
function merged(doc: PdfDoc, pieces: Piece[], size: number): CardLine {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last && last.font === piece.font) out[out.length - 1] = measure(doc, last.text + piece.text, piece.font, size);
    else out.push(piece);
  }
  return { pieces: out, width: out.reduce((sum, piece) => sum + piece.width, 0) };
}

/** The message broken into lines no wider than `width` at this size; a blank line of the message stays blank. */
export function cardLines(doc: PdfDoc, message: string, size: number, width: number): CardLine[] {
  const emoji = new Map<string, string>();
  const lines: CardLine[] = [];
  for (const paragraph of message.split('\n')) {
    let line: Piece[] = [];
    let lineWidth = 0;
    let spaces: Piece[] = [];
    let spacesWidth = 0;
    const tokens = [...words.segment(paragraph)].map(({ segment }) => tokenOf(doc, segment, size, emoji));
    const queue = tokens.flatMap((word) => (word.width > width && !word.space ? graphemeTokens(doc, word, size) : [word]));
    for (const word of queue) {
      if (word.pieces.length === 0) continue;
      if (word.space) {
        // Spaces count only between words: none at the start of a line, none carried past its end.
        if (line.length > 0) {
          spaces.push(...word.pieces);
          spacesWidth += word.width;
        }
        continue;
      }
      // ๆ repeats the word before it and never starts a line.
      const repeats = word.pieces[0]!.text.startsWith('ๆ');
      if (line.length > 0 && !repeats && lineWidth + spacesWidth + word.width > width) {
        lines.push(merged(doc, line, size));
        line = [];
        lineWidth = 0;
      } else {
        line.push(...spaces);
        lineWidth += spacesWidth;
      }
      spaces = [];
      spacesWidth = 0;
      line.push(...word.pieces);
      lineWidth += word.width;
    }
    lines.push(merged(doc, line, size));
  }
  return lines;
}

/** The height of one line at this size: Sarabun's own line height and a little air. */
export function lineHeight(doc: PdfDoc, size: number): number {
  return doc.font(THAI_FONT).fontSize(size).currentLineHeight(true) + size * 0.15;
}

/** Draws the lines centred in [x, x + width], the first line's top at `top`, every piece on its line's baseline. */
export function drawCardLines(doc: PdfDoc, lines: CardLine[], size: number, x: number, top: number, width: number): void {
  const step = lineHeight(doc, size);
  const ascender = ((doc.font(THAI_FONT).fontSize(size) as unknown as { _font: { ascender: number } })._font.ascender / 1000) * size;
  lines.forEach((line, index) => {
    let left = x + (width - line.width) / 2;
    const baseline = top + index * step + ascender;
    for (const piece of line.pieces) {
      doc.font(piece.font).fontSize(size).text(piece.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
      left += piece.width;
    }
  });
}
