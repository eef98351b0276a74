import type { ProductSummary } from '../../lib/types.ts';
import { catalogVersion, onCatalogChange } from './catalog-cache.ts';

export interface KeptCards {
  /**
   * The cards for these ids, in their order: kept ones from memory, the rest from `read` (which gets
   * only the missing ids). An id `read` does not return (a product hidden meanwhile) is left out.
   */
  cards(ids: readonly number[], read: (missing: number[]) => Promise<ProductSummary[]>): Promise<ProductSummary[]>;
  /** How many cards are kept now. */
  size(): number;
}

/**
 * Product cards kept by id, so the pages that show a product again within a minute (the same card in
 * a category's four sorts, in "all products", in search results and on the home page) do not read its
 * row again (docs/decisions/163). A card holds price and stock, so it follows the rules the kept
 * related block (decision 152) and the route cache already follow:
 * - every catalog change announced on any instance (an order taking stock, an edit, an import) drops
 *   them all, through `onCatalogChange`;
 * - a card read while a change was announced answers its own request but is not kept;
 * - a card is read again a minute after it was read, so a change made behind the shop's back (SQL by
 *   hand) shows within a minute, as it does on cached pages.
 * The oldest cards go first past `max`. The objects are frozen: they are shared by every page that
 * shows them.
 */
export function keptCardsStore(options: { max: number; keepMs: number }): KeptCards {
  const kept = new Map<number, { at: number; card: ProductSummary }>();
  onCatalogChange(() => kept.clear());

  return {
    size: () => kept.size,
    async cards(ids, read) {
      const now = Date.now();
      const found = new Map<number, ProductSummary>();
      const missing: number[] = [];
      for (const id of ids) {
        const entry = kept.get(id);
        if (entry && now - entry.at < options.keepMs) found.set(id, entry.card);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const version = catalogVersion();
        const fresh = await read(missing);
        const keep = version === catalogVersion();
        const at = Date.now();
        for (const card of fresh) {
          const frozen = Object.freeze(card);
          found.set(card.id, frozen);
          if (!keep) continue;
          kept.delete(card.id);
          kept.set(card.id, { at, card: frozen });
        }
        while (kept.size > options.max) kept.delete(kept.keys().next().value as number);
      }
      const out: ProductSummary[] = [];
      for (const id of ids) {
        const card = found.get(id);
        if (card) out.push(card);
      }
      return out;
    },
  };
}
