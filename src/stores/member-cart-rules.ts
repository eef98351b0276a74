import type { MemberCartChange, MemberCartDropped, MemberCartLine } from '../lib/member-cart';
import { repriced, type CartItem } from './cart';

/**
 * The pure rules of the member's cart sync (docs/decisions/218), apart from the store and the network
 * so tests can hold them to it: which line changes are waiting to be sent, and the browser's cart after
 * the server's answer.
 */

/** A line change not yet confirmed by the server: the amount (0: removed) and when the shopper made it. */
export interface PendingChange {
  quantity: number;
  at: string;
}

/** What this browser knows of the member's saved cart, kept in localStorage beside the cart. */
export interface SyncState {
  /** The member the cart was last saved for; any other (or none) means the next sync is a merge. */
  member: string | null;
  /** Amounts by variant code as the server last answered them. */
  base: Record<string, number>;
  /** Changes made here and not yet confirmed, by variant code. */
  pending: Record<string, PendingChange>;
}

export const EMPTY_SYNC: SyncState = { member: null, base: {}, pending: {} };

export function amounts(items: readonly CartItem[]): Map<string, number> {
  return new Map(items.map((item) => [item.product_code, item.amount]));
}

/**
 * Records the lines whose amount differs between two views of the cart. A line back at the amount the
 * server holds needs nothing sent, so its pending change goes.
 */
export function recordChanges(previous: ReadonlyMap<string, number>, next: ReadonlyMap<string, number>, state: SyncState, now: Date): SyncState {
  const pending = { ...state.pending };
  let changed = false;
  for (const code of new Set([...previous.keys(), ...next.keys()])) {
    const quantity = next.get(code) ?? 0;
    if ((previous.get(code) ?? 0) === quantity) continue;
    changed = true;
    if ((state.base[code] ?? 0) === quantity) delete pending[code];
    else pending[code] = { quantity, at: now.toISOString() };
  }
  return changed ? { ...state, pending } : state;
}

/** Lines that differ from what the server holds and are not recorded yet (changed while nobody listened). */
export function unrecordedChanges(items: readonly CartItem[], state: SyncState, now: Date): SyncState {
  const unrecorded = ([code]: [string, number]) => !(code in state.pending);
  const previous = new Map(Object.entries(state.base).filter(unrecorded));
  const next = new Map([...amounts(items)].filter(unrecorded));
  return recordChanges(previous, next, state, now);
}

export function changesToSend(state: SyncState): MemberCartChange[] {
  return Object.entries(state.pending).map(([code, change]) => ({ code, quantity: change.quantity, updated_at: change.at }));
}

/** A cart line from a saved line: what the cart shows, priced for its amount. */
function itemFrom(line: MemberCartLine, local: CartItem | undefined): CartItem {
  return repriced(
    {
      ...local,
      product_code: line.code,
      product_name: line.name,
      product_price: line.unit_price,
      product_image: line.image,
      amount: line.quantity,
      stock: line.stock,
      retail_price: line.retail_price,
      tiers: line.tiers.map((tier) => ({ min_quantity: tier.min_quantity, price: tier.price })),
    },
    line.quantity,
  );
}

/**
 * The browser's cart after the server answered: the saved lines, except where a change made here is
 * still waiting (it wins until sent); lines the server would not keep because the variant is no longer
 * sold stay here, marked sold out, as the cart does for any withdrawn product; lines that found no room
 * go (the note said so). Order: the browser's lines first as they were, then lines new from the account.
 */
export function cartAfterAnswer(local: readonly CartItem[], lines: readonly MemberCartLine[], dropped: readonly MemberCartDropped[], pending: Readonly<Record<string, PendingChange>>): CartItem[] {
  const saved = new Map(lines.map((line) => [line.code, line]));
  const unavailable = new Set(dropped.filter((entry) => entry.reason === 'unavailable').map((entry) => entry.code));
  const result: CartItem[] = [];
  const placed = new Set<string>();
  for (const item of local) {
    const code = item.product_code;
    const waiting = pending[code];
    const line = saved.get(code);
    if (waiting) {
      if (waiting.quantity > 0) result.push(repriced(line ? itemFrom(line, item) : item, waiting.quantity));
    } else if (line) {
      result.push(itemFrom(line, item));
    } else if (unavailable.has(code)) {
      result.push(item.stock === 0 ? item : { ...item, stock: 0 });
    }
    placed.add(code);
  }
  for (const line of lines) if (!placed.has(line.code) && !(pending[line.code]?.quantity === 0)) result.push(itemFrom(line, undefined));
  return result;
}
