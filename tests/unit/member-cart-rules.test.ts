import { describe, expect, it } from 'vitest';
import type { CartItem } from '../../src/stores/cart';
import type { MemberCartLine } from '../../src/lib/member-cart';
import { mergeNote } from '../../src/lib/member-cart';
import { amounts, cartAfterAnswer, changesToSend, EMPTY_SYNC, recordChanges, unrecordedChanges, type SyncState } from '../../src/stores/member-cart-rules';

/** docs/decisions/218: which changes of the browser's cart wait to be sent, and the cart after an answer. */

const item = (code: string, amount: number, extra: Partial<CartItem> = {}): CartItem => ({ product_code: code, product_name: code, product_price: 10, product_image: null, amount, ...extra });
const line = (code: string, quantity: number): MemberCartLine => ({
  code,
  quantity,
  updated_at: '2026-01-01T00:00:00.000Z',
  name: `ชื่อ ${code}`,
  image: null,
  stock: 20,
  unit_price: 12,
  retail_price: 12,
  tiers: [],
});
const now = new Date('2026-01-02T03:04:05.000Z');
const state = (base: Record<string, number>, pending: SyncState['pending'] = {}): SyncState => ({ member: 'm', base, pending });

describe('recording changes', () => {
  it('records a new line, a new amount and a removal (quantity 0) with the time they were made', () => {
    const next = recordChanges(amounts([item('A', 1), item('B', 2)]), amounts([item('A', 3), item('C', 1)]), state({ A: 1, B: 2 }), now);
    expect(changesToSend(next)).toEqual([
      { code: 'A', quantity: 3, updated_at: now.toISOString() },
      { code: 'B', quantity: 0, updated_at: now.toISOString() },
      { code: 'C', quantity: 1, updated_at: now.toISOString() },
    ]);
  });

  it('a line back at the amount the server holds has nothing to send', () => {
    const waiting = state({ A: 1 }, { A: { quantity: 2, at: 'earlier' } });
    expect(recordChanges(amounts([item('A', 2)]), amounts([item('A', 1)]), waiting, now).pending).toEqual({});
  });

  it('an unchanged cart is the same state', () => {
    const same = state({ A: 1 });
    expect(recordChanges(amounts([item('A', 1)]), amounts([item('A', 1)]), same, now)).toBe(same);
  });

  it('finds changes made while nobody listened, leaving recorded ones as they were', () => {
    const found = unrecordedChanges([item('A', 5), item('C', 1)], state({ A: 1, B: 1 }, { C: { quantity: 1, at: 'earlier' } }), now);
    expect(found.pending).toEqual({ A: { quantity: 5, at: now.toISOString() }, B: { quantity: 0, at: now.toISOString() }, C: { quantity: 1, at: 'earlier' } });
    expect(unrecordedChanges([], EMPTY_SYNC, now)).toBe(EMPTY_SYNC);
  });
});

describe('the cart after the server answered', () => {
  it('takes the saved lines with their names and prices, keeps the browser order, and adds lines new from the account at the end', () => {
    const after = cartAfterAnswer([item('B', 1), item('A', 1)], [line('A', 3), line('B', 1), line('C', 2)], [], {});
    expect(after.map((entry) => [entry.product_code, entry.amount, entry.product_name])).toEqual([
      ['B', 1, 'ชื่อ B'],
      ['A', 3, 'ชื่อ A'],
      ['C', 2, 'ชื่อ C'],
    ]);
    expect(after[2]).toMatchObject({ product_price: 12, stock: 20, retail_price: 12, tiers: [] });
  });

  it('a change still waiting wins over the answer; a waiting removal keeps the line out', () => {
    const after = cartAfterAnswer([item('A', 7)], [line('A', 3), line('B', 1)], [], { A: { quantity: 7, at: 'x' }, B: { quantity: 0, at: 'x' } });
    expect(after.map((entry) => [entry.product_code, entry.amount])).toEqual([['A', 7]]);
  });

  it('a line removed elsewhere goes; a withdrawn one stays, sold out; one without room goes', () => {
    const after = cartAfterAnswer([item('A', 1), item('B', 1), item('C', 1)], [], [{ code: 'B', reason: 'unavailable' }, { code: 'C', reason: 'full' }], {});
    expect(after).toEqual([item('B', 1, { stock: 0 })]);
  });
});

describe('the merge note', () => {
  it('says what came from the account and what was saved from this device', () => {
    expect(mergeNote(2, 0)).toBe('รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 2 รายการ');
    expect(mergeNote(0, 1)).toBe('บันทึกสินค้าในตะกร้าของเครื่องนี้ไว้กับบัญชีของคุณ 1 รายการ');
    expect(mergeNote(0, 0)).toBeNull();
  });
});
