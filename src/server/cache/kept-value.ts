/**
 * A small read that every uncached page repeats (the footer's page links, the brand list, the
 * categories by code), kept in this process until it is dropped or ages out. At 100,000 products an
 * uncached page was spending a fifth of its database time on these few rows (docs/decisions/123).
 *
 * `drop()` is wired to the catalog's change listeners, which every instance hears over the
 * invalidation bus; the age is the safety net for a change nobody announced. Answers kept by key
 * (search and listing ids, related products) use its keyed form, keptMap (kept-map.ts).
 */
export interface KeptValue<T> {
  get(): Promise<T>;
  drop(): void;
}

export function keptValue<T>(load: () => Promise<T>, maxAgeMs: number): KeptValue<T> {
  let kept: { at: number; value: T } | undefined;
  let loading: Promise<T> | undefined;
  // A drop while a read is on its way must not let that (possibly older) answer be kept.
  let generation = 0;
  return {
    get() {
      if (kept && Date.now() - kept.at < maxAgeMs) return Promise.resolve(kept.value);
      if (loading) return loading;
      const started = generation;
      const pending = load().then(
        (value) => {
          if (started === generation) kept = { at: Date.now(), value };
          return value;
        },
      );
      loading = pending;
      const clear = () => {
        if (loading === pending) loading = undefined;
      };
      pending.then(clear, clear);
      return pending;
    },
    drop() {
      generation++;
      kept = undefined;
      loading = undefined;
    },
  };
}
