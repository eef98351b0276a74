import { describe, expect, it } from 'vitest';
import { spreadsheetSafeText, textFromSpreadsheetCell } from '../../src/lib/spreadsheet-cells';

describe('spreadsheet-safe CSV text cells (OWASP CSV injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+66812345678', "'+66812345678"],
    ['-สินค้า', "'-สินค้า"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tแท็บ', "'\tแท็บ"],
    ['\rขึ้นบรรทัด', "'\rขึ้นบรรทัด"],
    ["'quoted", "''quoted"],
    ["'", "''"],
  ])('guards %j as %j, and reads it back exactly', (text, cell) => {
    expect(spreadsheetSafeText(text)).toBe(cell);
    expect(textFromSpreadsheetCell(cell)).toBe(text);
  });

  it.each(['สินค้า', 'a=b', '1-2', '', ' =ช่องว่างนำหน้า', "it's"])('leaves %j alone both ways', (text) => {
    expect(spreadsheetSafeText(text)).toBe(text);
    expect(textFromSpreadsheetCell(text)).toBe(text);
  });

  it('reads a hand-typed quote that guards nothing as it is', () => {
    expect(textFromSpreadsheetCell("'abc")).toBe("'abc");
  });

  it('round-trips every short text made of the characters that matter', () => {
    const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', 'ก', 'a'];
    const texts = [''];
    for (let length = 0; length < 3; length++) for (const text of texts.slice()) for (const char of alphabet) texts.push(text + char);
    for (const text of texts) {
      const cell = spreadsheetSafeText(text);
      expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      expect(textFromSpreadsheetCell(cell)).toBe(text);
    }
  });
});
