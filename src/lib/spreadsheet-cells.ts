/**
 * Text cells of every CSV the shop writes, made safe for spreadsheets (OWASP "CSV injection"): a cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel, LibreOffice and
 * Google Sheets, so `=HYPERLINK(…)` in a product name would run on the owner's computer. Such a cell is
 * written with a leading `'`, which spreadsheets read as "this is text". See docs/decisions/174.
 *
 * A cell that already starts with `'` gets one more, so reading back is exact: the import takes off one
 * leading `'` only when a formula character or another `'` follows it, which is precisely what the
 * export added. A `'abc` typed by hand is left as it is.
 */
const NEEDS_GUARD = /^[=+\-@\t\r']/;
const GUARDED = /^'[=+\-@\t\r']/;

/** A text cell as the shop's CSV exports write it. Numbers are not text: pass them as they are. */
export function spreadsheetSafeText(text: string): string {
  return NEEDS_GUARD.test(text) ? `'${text}` : text;
}

/** The text a cell written by `spreadsheetSafeText` came from (any other cell unchanged). */
export function textFromSpreadsheetCell(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}
