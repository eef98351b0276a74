import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import bwipjs from 'bwip-js/node';

/**
 * The shop's PDFs (docs/design.md section 14): pdfkit, with Sarabun (the Thai government's document face,
 * TrueType from @expo-google-fonts/sarabun) embedded and subset, so Thai reads, prints and copies out
 * right on any machine. fontkit shapes the text, so tone marks and vowels sit where they belong, and the
 * ToUnicode map lets `pdftotext` read the Thai back.
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

/** A new document with the Thai fonts registered and selected. Sizes are in points ([w, h]) or a named size. */
export function newPdf(options: { size: [number, number] | string; margin?: number; title: string }): PdfDoc {
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
  const write = doc.text.bind(doc) as (text: string, ...rest: unknown[]) => PdfDoc;
  const widthOf = doc.widthOfString.bind(doc) as (text: string, ...rest: unknown[]) => number;
  const heightOf = doc.heightOfString.bind(doc) as (text: string, ...rest: unknown[]) => number;
  Object.assign(doc, {
    text: (text: unknown, ...rest: unknown[]) => write(forPdf(text), ...rest),
    widthOfString: (text: unknown, ...rest: unknown[]) => widthOf(forPdf(text), ...rest),
    heightOfString: (text: unknown, ...rest: unknown[]) => heightOf(forPdf(text), ...rest),
  });
  return doc;
}

/**
 * SARA AM (ำ) is drawn by the font as two glyphs (nikhahit + sara aa); pdfkit's text layer would then read
 * back as "ำา". Writing its compatibility decomposition (ํ + า) draws the same and reads back as text
 * equal under NFKC, which is how tests and search compare it.
 */
export function forPdf(text: unknown): string {
  return String(text ?? '').replace(/\u0E33/g, '\u0E4D\u0E32');
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
export function code128Png(text: string, options: { heightMm?: number; includeText?: boolean } = {}): Promise<Buffer> {
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
