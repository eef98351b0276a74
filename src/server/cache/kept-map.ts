/**
 * The keyed form of keptValue: answers kept in this process by key, each for `maxAgeMs`, at most `max`
 * of them (a full map lets its least recently used entry go), all dropped at once by `drop()`, which
 * `dropOn` wires to a change listener (the catalog's, heard from every instance over the invalidation
 * bus). A read that was on its way when the map was dropped answers its own callers but is not kept.
 *
 * On the hot path: a hit is a Map lookup, a clock read and a move to the end of the Map's order, and
 * allocates nothing.
 */
export interface KeptMap<T, K = string> {
  /** The kept answer, or `load()`'s (one load per key at a time), kept unless a drop came meanwhile. */
  get(key: K, load: () => Promise<T>): Promise<T>;
  /** The kept answer if there is a fresh one; not a use (its place in the order stays). */
  peek(key: K): T | undefined;
  /** A mark to pass to keep(): reads made after it are kept only if no drop came since. */
  mark(): number;
  /** Keeps a value read since `since` (a mark()), unless the map was dropped meanwhile. */
  keep(key: K, value: T, since: number): void;
  drop(): void;
}

export interface KeptMapOptions {
  max: number;
  maxAgeMs: number;
  /** Subscribes the map's drop() to a change (e.g. onCatalogChange). */
  dropOn?: (listener: () => void) => unknown;
}

export function keptMap<T, K = string>({ max, maxAgeMs, dropOn }: KeptMapOptions): KeptMap<T, K> {
  const kept = new Map<K, { at: number; value: T }>();
  const loading = new Map<K, Promise<T>>();
  let generation = 0;

  const keep = (key: K, value: T, since: number) => {
    if (since !== generation) return;
    if (kept.size >= max) kept.delete(kept.keys().next().value as K);
    kept.set(key, { at: Date.now(), value });
  };

  const map: KeptMap<T, K> = {
    get(key, load) {
      const hit = kept.get(key);
      if (hit && Date.now() - hit.at < maxAgeMs) {
        kept.delete(key);
        kept.set(key, hit);
        return Promise.resolve(hit.value);
      }
      const waiting = loading.get(key);
      if (waiting) return waiting;
      const since = generation;
      const pending = load().then((value) => {
        keep(key, value, since);
        return value;
      });
      loading.set(key, pending);
      const clear = () => {
        if (loading.get(key) === pending) loading.delete(key);
      };
      pending.then(clear, clear);
      return pending;
    },
    peek(key) {
      const hit = kept.get(key);
      return hit && Date.now() - hit.at < maxAgeMs ? hit.value : undefined;
    },
    mark: () => generation,
    keep,
    drop() {
      generation++;
      kept.clear();
      loading.clear();
    },
  };
  dropOn?.(() => map.drop());
  return map;
}
