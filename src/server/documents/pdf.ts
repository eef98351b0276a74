import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

/**
 * The shop's PDFs (docs/design.md section 14): pdfkit, with Sarabun (the Thai government's document face,
 * TrueType from @expo-google-fonts/sarabun) embedded and subset, so Thai reads, prints and copies out
 * right on any machine. fontkit shapes the text, so tone marks and vowels sit where they belong, and the
 * ToUnicode map lets a viewer's search and copy, and `pdftotext`, read the Thai back as it was written:
 * ชำระ reads back as ชำระ (saraAmAsOneGlyph below, docs/decisions/197).
 */
export const THAI_FONT = 'Sarabun';
export const THAI_FONT_BOLD = 'Sarabun-Bold';

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;

function loadFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('@expo-google-fonts/sarabun/400Regular/Sarabun_400Regular.ttf')),
    bold: readFileSync(require.resolve('@expo-google-fonts/sarabun/700Bold/Sarabun_700Bold.ttf')),
  };
  return fonts;
}

/** Millimetres to PDF points. */
export const mm = (value: number) => (value * 72) / 25.4;

export type PdfDoc = PDFKit.PDFDocument;

/**
 * A new document with the Thai fonts registered and selected. Sizes are in points ([w, h]) or a named size.
 * pdfkit (with fontkit and its tables) and bwip-js are imported by the first document, not with this
 * module: the order services import it, so every server start and test file paid for them
 * (docs/decisions/231).
 */
export async function newPdf(options: { size: [number, number] | string; margin?: number; title: string }): Promise<PdfDoc> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: options.size,
    margin: options.margin ?? mm(10),
    autoFirstPage: false,
    info: { Title: options.title, Creator: 'ร้านยิ้มละไม' },
    lang: 'th-TH',
  });
  const { regular, bold } = loadFonts();
  doc.registerFont(THAI_FONT, regular);
  doc.registerFont(THAI_FONT_BOLD, bold);
  doc.font(THAI_FONT);
  saraAmAsOneGlyph(doc);
  return doc;
}

/** The parts of fontkit's glyphs and pdfkit's embedded font used here (neither is typed for it). */
interface ShapedGlyph {
  id: number;
  name?: string;
  codePoints: number[];
  advanceWidth: number;
}
interface ShapedPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth?: number;
}
interface ShapedRun {
  glyphs: ShapedGlyph[];
  positions: ShapedPosition[];
}
interface EmbeddedFontInternals {
  font: { glyphForCodePoint(codePoint: number): ShapedGlyph };
  scale: number;
  layoutRun(text: string, features?: unknown): ShapedRun;
}

const SARA_AM = 0x0e33;
const SARA_AA = 0x0e32;
const NIKHAHIT = 0x0e4d;
const patchedFonts = new WeakSet<object>();

/** A glyph as pdfkit's encoder sees it (id, width, the text it stands for), with its own text. */
const glyphFor = (glyph: ShapedGlyph, codePoints: number[]): ShapedGlyph => ({ id: glyph.id, name: glyph.name, advanceWidth: glyph.advanceWidth, codePoints });

/** The characters a glyph is named after (`uni0E4D0E49.narrow` → ํ ้), from the font's own glyph names. */
function namedCodePoints(glyph: ShapedGlyph): number[] {
  const hex = /^uni((?:[0-9A-F]{4})+)(?:\.|$)/.exec(glyph.name ?? '')?.[1] ?? '';
  return (hex.match(/.{4}/g) ?? []).map((code) => parseInt(code, 16));
}

/**
 * SARA AM (ำ) drawn by a glyph that reads back as ำ.
 *
 * Sarabun's shaping splits ำ into NIKHAHIT (or, when a tone mark sits above, one ligature of NIKHAHIT and
 * the tone mark, `uni0E4D0E49`) followed by SARA AA. pdfkit keeps one ToUnicode text per glyph, taken
 * from the glyph's `codePoints`, which fontkit caches per glyph from whatever text first made it: SARA AA
 * read back as a second า (ชำาระ) or as nothing printable, and a search for ชำระ found nothing; an empty
 * text is no way out, viewers then read the glyph's number. So after shaping, by the glyphs' names:
 * - NIKHAHIT + SARA AA becomes the font's own precomposed ำ glyph (the same outlines, one glyph, text ำ);
 * - a tone-mark ligature + SARA AA stays drawn as the ligature (text: the tone mark only) followed by the
 *   precomposed ำ (text ำ), placed where the ligature is, so the NIKHAHIT both draw falls on itself;
 * - SARA AA and NIKHAHIT elsewhere read as themselves, whatever text fontkit's cache met first.
 * Only runs whose text has ำ are changed this way. The words read back exactly as written, and draw as
 * before (tests/unit/pdf.test.ts reads them back with pdf.js and poppler).
 */
function saraAmAsOneGlyph(doc: PdfDoc): void {
  const proto = Object.getPrototypeOf((doc as unknown as { _font: object })._font) as EmbeddedFontInternals;
  if (patchedFonts.has(proto)) return;
  const original = proto.layoutRun;
  if (typeof original !== 'function') throw new Error('pdfkit: the embedded font no longer reads as expected (layoutRun)');
  patchedFonts.add(proto);
  proto.layoutRun = function layoutRun(this: EmbeddedFontInternals, text: string, features?: unknown): ShapedRun {
    const run = original.call(this, text, features);
    const hasSaraAm = text.includes('\u0E33');
    if (!hasSaraAm && !text.includes('\u0E32') && !text.includes('\u0E4D')) return run;
    const saraAm = this.font.glyphForCodePoint(SARA_AM);
    const aaId = this.font.glyphForCodePoint(SARA_AA).id;
    const glyphs: ShapedGlyph[] = [];
    const positions: ShapedPosition[] = [];
    for (let index = 0; index < run.glyphs.length; index++) {
      const glyph = run.glyphs[index]!;
      const position = run.positions[index]!;
      const named = namedCodePoints(glyph);
      if (hasSaraAm && named[0] === NIKHAHIT && run.glyphs[index + 1]?.id === aaId && saraAm.id !== 0) {
        const after = run.positions[index + 1]!;
        const xAdvance = position.xAdvance + after.xAdvance;
        const saraAmWidth = saraAm.advanceWidth * this.scale;
        const tones = named.slice(1);
        if (tones.length > 0) {
          glyphs.push(glyphFor(glyph, tones));
          positions.push({ ...position, xAdvance: 0, advanceWidth: 0 });
          glyphs.push(glyphFor(saraAm, [SARA_AM]));
          positions.push({ xAdvance, yAdvance: 0, xOffset: position.xOffset, yOffset: position.yOffset, advanceWidth: saraAmWidth });
        } else {
          glyphs.push(glyphFor(saraAm, [SARA_AM]));
          positions.push({ xAdvance, yAdvance: 0, xOffset: after.xOffset, yOffset: after.yOffset, advanceWidth: saraAmWidth });
        }
        index++;
        continue;
      }
      if (glyph.id === aaId) glyphs.push(glyphFor(glyph, [SARA_AA]));
      else if (named.length > 0 && named[0] === NIKHAHIT) glyphs.push(glyphFor(glyph, named));
      else glyphs.push(glyph);
      positions.push(position);
    }
    run.glyphs = glyphs;
    run.positions = positions;
    return run;
  };
}

/** Ends the document and collects its bytes. */
export function pdfBytes(doc: PdfDoc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A Code 128 barcode as PNG (for the order number on labels and documents). */
export async function code128Png(text: string, options: { heightMm?: number; includeText?: boolean } = {}): Promise<Buffer> {
  const { default: bwipjs } = await import('bwip-js/node');
  return bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: 3,
    height: options.heightMm ?? 12,
    includetext: options.includeText ?? true,
    textxalign: 'center',
  });
}

/** The response headers for a PDF download (private: documents carry names and addresses). */
export function pdfResponse(bytes: Uint8Array, filename: string, disposition: 'inline' | 'attachment' = 'inline'): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(bytes.length),
      'Content-Disposition': `${disposition}; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
